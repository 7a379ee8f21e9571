package learn

import (
	"fmt"

	"github.com/polyproxy/polyproxy/book/board"
)

// Decision is a game's result as far as the evidence goes.
type Decision struct {
	Outcome Outcome // Unknown: not enough evidence, learn nothing
	Reason  string  // why, for the log
}

// DecidePosition judges the game from its last position (nil: none was
// seen), repeated times being how often that position occurred in the
// game (the last occurrence included). It finds checkmate, stalemate,
// insufficient material, the fifty-move rule and threefold repetition;
// any other position is Unknown.
func DecidePosition(p *board.Position, repeated int) Decision {
	if p == nil {
		return Decision{Unknown, "no position seen"}
	}
	switch p.Status() {
	case board.Checkmate:
		if p.WhiteToMove() {
			return Decision{BlackWins, "checkmate"}
		}
		return Decision{WhiteWins, "checkmate"}
	case board.Stalemate:
		return Decision{Drawn, "stalemate"}
	case board.InsufficientMaterial:
		return Decision{Drawn, "insufficient material"}
	}
	if p.HalfmoveClock() >= 100 {
		return Decision{Drawn, fmt.Sprintf("fifty-move rule (%d plies without capture or pawn move)", p.HalfmoveClock())}
	}
	if repeated >= 3 {
		return Decision{Drawn, fmt.Sprintf("threefold repetition (position seen %d times)", repeated)}
	}
	return Decision{Unknown, "last position is not the end of a game"}
}

// Score is what the engine reported about its own position before a move:
// centipawns or a mate distance, from the view of the side that searched.
type Score struct {
	White  bool // the side that searched
	CP     int
	Mate   int // moves to mate; <= 0: the searching side is mated
	IsMate bool
}

func (s Score) String() string {
	side := "black"
	if s.White {
		side = "white"
	}
	if s.IsMate {
		return fmt.Sprintf("%s mate %d", side, s.Mate)
	}
	return fmt.Sprintf("%s cp %d", side, s.CP)
}

// sign is +1 when the score says the searching side wins by at least
// threshold centipawns (or mates), -1 when it loses by that much, else 0.
func (s Score) sign(threshold int) int {
	switch {
	case s.IsMate && s.Mate > 0, !s.IsMate && s.CP >= threshold:
		return 1
	case s.IsMate, s.CP <= -threshold:
		return -1
	}
	return 0
}

// DecideScores judges the game from the engine's last consecutive scores
// (oldest first), as GUIs adjudicate: a mate score in the last one decides;
// otherwise the last moves scores all beyond threshold centipawns for the
// same side. A mate score counts as beyond any threshold.
func DecideScores(scores []Score, threshold, moves int) Decision {
	if len(scores) == 0 {
		return Decision{Unknown, "no engine score since the last book move"}
	}
	last := scores[len(scores)-1]
	winner := func(searcherWins bool) Outcome {
		if last.White == searcherWins {
			return WhiteWins
		}
		return BlackWins
	}
	if last.IsMate {
		return Decision{winner(last.Mate > 0), fmt.Sprintf("engine reported %s", last)}
	}
	if moves < 1 || len(scores) < moves {
		return Decision{Unknown, fmt.Sprintf("last engine score %s: fewer than %d scores to adjudicate", last, moves)}
	}
	want := last.sign(threshold)
	if want == 0 {
		return Decision{Unknown, fmt.Sprintf("last engine score %s is within %d cp", last, threshold)}
	}
	// The side that searched can change (engine playing both sides), so
	// compare each score from White's view.
	whiteView := func(s Score) int {
		if s.White {
			return s.sign(threshold)
		}
		return -s.sign(threshold)
	}
	for _, s := range scores[len(scores)-moves:] {
		if whiteView(s) != whiteView(last) {
			return Decision{Unknown, fmt.Sprintf("engine score %s in its last %d moves is not beyond %d cp for the same side", s, moves, threshold)}
		}
	}
	return Decision{winner(want > 0), fmt.Sprintf("engine's last %d scores beyond %d cp (last %s)", moves, threshold, last)}
}
