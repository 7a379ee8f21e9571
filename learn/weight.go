package learn

import "github.com/polyproxy/polyproxy/book"

// weightScale keeps the effective weight an integer without losing the
// factor's precision on small weights (shares are relative, so a common
// scale changes nothing else).
const weightScale = 256

// Weight is the effective weight of an entry when choosing prefers moves
// with better learned results (BookLearnWeight), for book.Options.Weight:
//
//	weight × (points + 4) / (2·games − points + 4)
//
// PolyGlot 2.0's factor: points won against points lost, each with 4
// added (two drawn games' worth) so that a few games move a weight only a
// little and an unplayed move keeps its weight. A field with more points
// than 2 per game (real books carry such values) is read as if it had 2
// per game, so that nonsense cannot multiply a weight without bound. A
// weight of 0 stays 0: the book's author excluded the move. The result is
// scaled by 256 and below 2^40, as book.Options.Weight requires.
func Weight(e book.Entry) uint64 {
	games, points := uint64(e.Learn.Games()), uint64(e.Learn.Points())
	points = min(points, 2*games)
	lost := 2*games - points
	return uint64(e.Weight) * weightScale * (points + 4) / (lost + 4)
}
