package board

import "github.com/polyproxy/polyproxy/book"

// Next is the position after the legal move m (played form), leaving p as
// it is: what walking a move tree (an ABK book) needs at each node.
func (p *Position) Next(m book.Move) book.TreePosition {
	q := *p
	q.Play(m)
	return &q
}

// The book package reads and writes move trees (ABK books) by replaying
// their moves, which needs these rules; it cannot import them itself
// (board is built on book's types), so board hands them over.
func init() {
	book.SetTreeRules(func() book.TreePosition { return StartPosition() })
}
