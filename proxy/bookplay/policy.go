package bookplay

import (
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// bookPolicy is what the book policies remember of the game: the book
// moves polyproxy played in it (BookMaxMoves) and the book lines measured
// in it (BookMinLine).
type bookPolicy struct {
	game  int          // the game number the records are for
	moves []playedMove // our book moves in that game
	look  book.Lookahead
}

// playedMove is a book move polyproxy played: from the position at ply
// (counted from the game's start), whose key was before, to after.
type playedMove struct {
	ply           int
	before, after board.Key
}

// asked notes a go at ply in game number game: whatever we answered at
// that ply and after it, in a line the GUI has left (a take-back, a jump,
// the same position again), is replaced by this answer, the engine's or
// the book's. Without it a move the engine plays where the book once
// played the same move would count as ours.
func (p *bookPolicy) asked(game, ply int) {
	if game != p.game {
		p.game, p.moves = game, p.moves[:0]
	}
	p.moves = slices.DeleteFunc(p.moves, func(m playedMove) bool { return m.ply >= ply })
}

// played records a book move sent to the GUI as played in game number
// game, at ply, from the position keyed before to after.
func (p *bookPolicy) played(game, ply int, before, after board.Key) {
	p.asked(game, ply)
	p.moves = append(p.moves, playedMove{ply, before, after})
}

// count is how many of our book moves the game l (number game) contains:
// a move taken back, or answered but never played, does not count.
func (p *bookPolicy) count(game int, l *board.Line) int {
	if game != p.game {
		return 0
	}
	n := 0
	for _, m := range p.moves {
		if m.ply+1 < len(l.Keys) && l.Keys[m.ply] == m.before && l.Keys[m.ply+1] == m.after {
			n++
		}
	}
	return n
}
