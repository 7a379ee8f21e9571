package ctg

import (
	"fmt"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// PositionFacts are a CTG book's statistics of a position, from the view
// of its side to move, and the read options its weights follow: what
// probe and explore show beside the position's moves.
type PositionFacts struct {
	Games          int    `json:"games"`
	Won            int    `json:"won"`
	Drawn          int    `json:"drawn"`
	Lost           int    `json:"lost"`
	Rating         int    `json:"rating"`      // the players' average (0: none rated)
	Performance    int    `json:"performance"` // their average performance
	Recommendation int    `json:"recommendation"`
	Mark           string `json:"mark,omitempty"`
	// TournamentMode and PreferMainLines are the read options the weights
	// follow.
	TournamentMode  bool `json:"tournament_mode"`
	PreferMainLines bool `json:"prefer_main_lines"`
}

func (f *PositionFacts) String() string {
	s := fmt.Sprintf("%d games, +%d =%d -%d for the side to move, rating %d, performance %d, recommendation %d",
		f.Games, f.Won, f.Drawn, f.Lost, f.Rating, f.Performance, f.Recommendation)
	if f.Mark != "" {
		s += " (" + f.Mark + ")"
	}
	var opts []string
	if f.TournamentMode {
		opts = append(opts, "tournament mode")
	}
	if f.PreferMainLines {
		opts = append(opts, "main lines preferred")
	}
	if len(opts) > 0 {
		s += "; weights with " + strings.Join(opts, " and ")
	}
	return s
}

// MoveFacts are what a CTG book holds of a move: its annotation, and the
// statistics of the position it leads to, from the view of the side that
// plays the move (all 0 when the book has not got that position).
type MoveFacts struct {
	Annotation string `json:"annotation"` // "!", "?!", "only move", ...; "" for none
	// Recommendation is the byte of the position after the move: 64-127
	// marks it to avoid in tournaments, 128 and up a main line (Mark).
	Recommendation int     `json:"recommendation"`
	Mark           string  `json:"mark,omitempty"` // "avoid", "main line"
	InBook         bool    `json:"in_book"`        // the book has the position after the move
	Games          int     `json:"games"`
	Won            int     `json:"won"`
	Drawn          int     `json:"drawn"`
	Lost           int     `json:"lost"`
	Weight         float64 `json:"droidfish_weight"` // DroidFish's weight, under the read options
}

func (f *MoveFacts) String() string {
	var s string
	if f.Annotation != "" {
		s = "annotation " + f.Annotation + ", "
	}
	if !f.InBook {
		return s + fmt.Sprintf("leads out of the book, DroidFish weight %.6g", f.Weight)
	}
	s += fmt.Sprintf("%d games after: +%d =%d -%d, recommendation %d", f.Games, f.Won, f.Drawn, f.Lost, f.Recommendation)
	if f.Mark != "" {
		s += " (" + f.Mark + ")"
	}
	return s + fmt.Sprintf(", DroidFish weight %.6g", f.Weight)
}

// moveColumns name the values of a MoveFacts' Row.
var moveColumns = []string{"annotation", "games after", "won", "drawn", "lost", "recommendation", "droidfish weight", ""}

// Row is the move's facts as a table's row under moveColumns.
func (f *MoveFacts) Row() []string {
	if !f.InBook {
		return []string{f.Annotation, "-", "-", "-", "-", "-", fmt.Sprintf("%.6g", f.Weight), "leads out of the book"}
	}
	return []string{f.Annotation, fmt.Sprint(f.Games), fmt.Sprint(f.Won), fmt.Sprint(f.Drawn), fmt.Sprint(f.Lost),
		fmt.Sprint(f.Recommendation), fmt.Sprintf("%.6g", f.Weight), f.Mark}
}

// Describe gives what the book holds of pos and of each of moves beyond
// their entries (book.Facts): the position's statistics, each move's
// annotation and the statistics of the position it leads to.
func (p *prober) Describe(pos *board.Position, moves []board.Move) (book.Facts, error) {
	e, err := p.r.Probe(pos, p.opt)
	if e == nil || err != nil {
		return book.Facts{}, err
	}
	s := &e.Stats
	f := book.Facts{Moves: make([]book.Row, len(moves)), Columns: moveColumns,
		Position: &PositionFacts{Games: s.Games, Won: s.Wins, Drawn: s.Draws, Lost: s.Losses, Rating: s.Rating(),
			Performance: s.Performance(), Recommendation: int(s.Recommendation), Mark: mark(s),
			TournamentMode: p.opt.TournamentMode, PreferMainLines: p.opt.PreferMainLines}}
	for i, m := range moves {
		for _, cm := range e.Moves {
			if cm.Move != m {
				continue
			}
			mf := &MoveFacts{Annotation: cm.Annotation.String(), Weight: cm.Weight}
			if n := cm.Next; n != nil {
				// The next position's figures are its side to move's.
				mf.InBook, mf.Recommendation, mf.Mark = true, int(n.Recommendation), mark(n)
				mf.Games, mf.Won, mf.Drawn, mf.Lost = n.Games, n.Losses, n.Draws, n.Wins
			}
			f.Moves[i] = mf
		}
	}
	return f, nil
}

// mark is a position's recommendation in words: "avoid", "main line" or
// "".
func mark(s *Stats) string {
	switch {
	case s.Avoid():
		return "avoid"
	case s.MainLine():
		return "main line"
	}
	return ""
}
