package link

import "github.com/polyproxy/polyproxy/book/board"

// ParseBestMove reads the engine's bestmove line: its move and its ponder
// move, each null when missing or not a move (bestmove (none), 0000).
// Without allocating: it runs for every move of a game.
func ParseBestMove(line []byte) (move, ponder board.Move) {
	words := 0
	for len(line) > 0 {
		var w []byte
		w, line = nextWord(line)
		switch words++; {
		case words == 2:
			move = readMove(w)
		case words > 2 && len(line) > 0 && string(w) == "ponder":
			p, _ := nextWord(line)
			return move, readMove(p)
		}
	}
	return move, 0
}

// nextWord is the first word of b and what follows it.
func nextWord(b []byte) (word, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' {
		j++
	}
	return b[i:j], b[j:]
}

// readMove reads a move in UCI form; null when w is none.
func readMove(w []byte) board.Move {
	m, err := board.ParseMove(w)
	if err != nil {
		return 0
	}
	return m
}
