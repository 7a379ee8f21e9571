package book

import "fmt"

// Learn is an entry's 32-bit learn field as PolyGlot defined it: games
// played in the high 16 bits, points in the low 16 bits (2 per win, 1 per
// draw, 0 per loss, from the view of the side that played the move).
// Real books carry arbitrary values (e.g. more points than 2 per game);
// they are kept and counted on as they are, never "repaired".
type Learn uint32

// MakeLearn is the learn field of games and points (half points), such
// as a book's statistics counted elsewhere: counts past 16 bits are halved
// together until they fit, keeping the ratio; none below 0, and no points
// without games.
func MakeLearn(games, points int64) Learn {
	games, points = max(games, 0), max(points, 0)
	if games == 0 {
		return 0
	}
	for games > 0xffff || points > 0xffff {
		games, points = games/2, points/2
	}
	return Learn(games<<16 | points)
}

// Games is the number of games counted.
func (l Learn) Games() uint16 { return uint16(l >> 16) }

// Points is the sum of points counted, in half points.
func (l Learn) Points() uint16 { return uint16(l) }

func (l Learn) String() string { return fmt.Sprintf("%d games %d points", l.Games(), l.Points()) }

// fits packs games and points when both fit 16 bits.
func fits(games, points uint32) (Learn, bool) {
	if games > 0xffff || points > 0xffff {
		return 0, false
	}
	return Learn(games<<16 | points), true
}

// Add counts one more game with result r. When either counter would
// overflow, both are halved first: the points-per-game ratio stays and
// old games weigh less than new ones, instead of wrapping to nonsense.
func (l Learn) Add(r Result) Learn {
	g, p := uint32(l.Games()), uint32(l.Points())
	if sum, ok := fits(g+1, p+uint32(r)); ok {
		return sum
	}
	sum, _ := fits(g/2+1, p/2+uint32(r))
	return sum
}

// Plus adds two fields as counters (games and points separately), as
// when merging books learned on several machines. When a sum does not
// fit, both sums are halved (rounding down) until they do, which keeps
// the ratio; halved reports that.
func (l Learn) Plus(o Learn) (sum Learn, halved bool) {
	g := uint32(l.Games()) + uint32(o.Games())
	p := uint32(l.Points()) + uint32(o.Points())
	for {
		if sum, ok := fits(g, p); ok {
			return sum, halved
		}
		g, p, halved = g/2, p/2, true
	}
}

// Result is a game's result from the view of the side that played a
// move; its value is the points it adds to a learn field.
type Result uint8

const (
	Loss Result = iota
	Draw
	Win
)

func (r Result) String() string {
	switch r {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return fmt.Sprintf("Result(%d)", uint8(r))
}
