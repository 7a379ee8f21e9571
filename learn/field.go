// Package learn keeps the learn fields of Polyglot books: what the result
// of a game means for each book move played, how a field counts games and
// points, and how a field is updated in place so that concurrent processes
// lose nothing and a crash leaves every entry either as before or as after.
package learn

import "fmt"

// Field is an entry's 32-bit learn field as PolyGlot defined it: games
// played in the high 16 bits, points in the low 16 bits (2 per win, 1 per
// draw, 0 per loss, from the view of the side that played the move).
// Real books carry arbitrary values (e.g. more points than 2 per game);
// they are kept and counted on as they are, never "repaired".
type Field uint32

// MakeField packs games and points.
func MakeField(games, points uint16) Field { return Field(uint32(games)<<16 | uint32(points)) }

// Games is the number of games counted.
func (f Field) Games() uint16 { return uint16(f >> 16) }

// Points is the sum of points counted.
func (f Field) Points() uint16 { return uint16(f) }

// Add counts one more game with result r. When either counter would
// overflow, both are halved first: the points-per-game ratio stays and
// old games weigh less than new ones, instead of wrapping to nonsense.
func (f Field) Add(r Result) Field {
	g, p := uint32(f.Games()), uint32(f.Points())
	pts := uint32(r.Points())
	if g+1 > 0xffff || p+pts > 0xffff {
		g, p = g/2, p/2
	}
	return MakeField(uint16(g+1), uint16(p+pts))
}

func (f Field) String() string { return fmt.Sprintf("%d games %d points", f.Games(), f.Points()) }

// Result is a game's result from the view of one side.
type Result uint8

const (
	Loss Result = iota
	Draw
	Win
)

// Points is what the result adds to a learn field: 0, 1 or 2.
func (r Result) Points() uint8 { return uint8(r) }

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

// Outcome is how a game ended, from White's view.
type Outcome uint8

const (
	Unknown Outcome = iota
	WhiteWins
	BlackWins
	Drawn
)

// ParseOutcome reads a PGN result: "1-0", "0-1" or "1/2-1/2". "*" and
// anything else are Unknown.
func ParseOutcome(s string) Outcome {
	switch s {
	case "1-0":
		return WhiteWins
	case "0-1":
		return BlackWins
	case "1/2-1/2":
		return Drawn
	}
	return Unknown
}

// For is the result for the side that moved (white or black). It must not
// be called on Unknown.
func (o Outcome) For(white bool) Result {
	switch o {
	case Drawn:
		return Draw
	case WhiteWins:
		if white {
			return Win
		}
		return Loss
	case BlackWins:
		if white {
			return Loss
		}
		return Win
	}
	panic("learn: result of an unknown outcome")
}

func (o Outcome) String() string {
	switch o {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Drawn:
		return "1/2-1/2"
	}
	return "*"
}
