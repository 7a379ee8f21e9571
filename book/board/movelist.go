package board

import (
	"errors"
	"fmt"
	"strings"
)

// Moves as users write them, for every command that takes a list of
// moves (probe -moves, the explorer's moves): UCI or SAN, in a list
// pasted from a PGN or typed by hand. One reader, so that a line given to
// one tool is given to all the same way.

// ReadMove reads a move as a user writes it, in UCI (e2e4, e7e8q;
// castling as e1g1 or e1h1) or SAN (e4, Nf3, exd5, O-O, e8=Q+), and
// returns it as played when it is legal here. The error says why not, in
// words: not a move, not legal here, ambiguous.
func (p *Position) ReadMove(s string) (Move, error) {
	uci, uciErr := ParseMove(s)
	if uciErr == nil {
		if played, err := p.LegalMove(p.ToPlayed(uci)); err == nil {
			return played, nil
		}
	}
	m, err := ParseSAN(p, s)
	switch {
	case err == nil:
		return m, nil
	case uciErr == nil, errors.Is(err, ErrIllegalMove):
		return 0, errors.New("not a legal move here")
	case errors.Is(err, ErrAmbiguousMove):
		return 0, errors.New("ambiguous: more than one piece can make it (name its file or rank, as in Nbd2)")
	case errors.Is(err, ErrNullMove):
		return 0, errors.New("a null move, which no book holds")
	}
	return 0, errors.New("not a move (UCI such as e2e4, or SAN such as e4, Nf3, O-O)")
}

// SplitMoves splits a list of moves as a user writes one into its moves:
// blanks or commas between them, PGN's move numbers ("1.", "12...", also
// joined to the move: "1.e4"), a result (1-0, 0-1, 1/2-1/2, *), comments
// in braces and numeric annotations ($1) left out. "1.e4 e5 2.Nf3",
// "e4 e5 Nf3" and "e2e4,e7e5,g1f3" are the same three moves.
func SplitMoves(text string) []string {
	var out []string
	inComment := false
	for _, tok := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	}) {
		for tok != "" {
			if inComment {
				end := strings.IndexByte(tok, '}')
				if end < 0 {
					tok = ""
					break
				}
				tok, inComment = tok[end+1:], false
				continue
			}
			if i := strings.IndexByte(tok, '{'); i >= 0 {
				out = appendMove(out, tok[:i])
				tok, inComment = tok[i+1:], true
				continue
			}
			out = appendMove(out, tok)
			tok = ""
		}
	}
	return out
}

// appendMove appends tok without its move number, unless it is no move.
func appendMove(out []string, tok string) []string {
	digits := 0
	for digits < len(tok) && tok[digits] >= '0' && tok[digits] <= '9' {
		digits++
	}
	if digits > 0 && digits < len(tok) && tok[digits] == '.' {
		tok = strings.TrimLeft(tok[digits:], ".")
	}
	switch {
	case tok == "", tok[0] == '$':
		return out
	}
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "½-½", "*":
		return out
	}
	return append(out, tok)
}

// PlayText plays a list of moves as a user writes one (see SplitMoves and
// ReadMove) and returns them as played. On an error, which names the
// move and its number, the line holds the moves before it, and so does
// the list returned.
func (l *Line) PlayText(text string) ([]Move, error) {
	var played []Move
	for i, s := range SplitMoves(text) {
		m, err := l.Pos.ReadMove(s)
		if err == nil {
			m, err = l.Play(m)
		}
		if err != nil {
			return played, fmt.Errorf("move %d (%s): %v", i+1, s, err)
		}
		played = append(played, m)
	}
	return played, nil
}
