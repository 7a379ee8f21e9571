package board

// Next is the position after the legal move m (played form), leaving p as
// it is: what walking a move tree (an ABK book) needs at each node.
func (p *Position) Next(m Move) *Position {
	q := *p
	q.Play(m)
	return &q
}
