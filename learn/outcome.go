package learn

import "github.com/polyproxy/polyproxy/book"

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

// For is the result for the side that moved (white or black), as a book's
// learn field counts it. It must not be called on Unknown.
func (o Outcome) For(white bool) book.Result {
	switch o {
	case Drawn:
		return book.Draw
	case WhiteWins:
		if white {
			return book.Win
		}
		return book.Loss
	case BlackWins:
		if white {
			return book.Loss
		}
		return book.Win
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
