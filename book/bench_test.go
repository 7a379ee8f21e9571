package book_test

import (
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// BenchmarkChooseGnuchessStart is the proxy's cost of one book decision at
// the start position of the gnuchess book (each entry's legality checked
// on the board, as the proxy does): explained for the log, and quiet (the
// log off).
func BenchmarkChooseGnuchessStart(b *testing.B) {
	for _, explain := range []bool{true, false} {
		name := "quiet"
		if explain {
			name = "explained"
		}
		b.Run(name, func(b *testing.B) {
			bk := gnuchessBook(b)
			l := fixture.Line(b, board.StartFEN, "")
			c := book.NewChooser(fixture.PolyGlotOptions, 1)
			c.Explain(explain)
			shelf, game := book.Both(bk), book.Game{Line: l}
			for b.Loop() {
				if d := c.Choose(shelf, game); d.Chosen < 0 {
					b.Fatal("no move")
				}
			}
		})
	}
}

// BenchmarkChooseLearned is a quiet book decision at a position of six
// moves that all played games, with PolyGlot's weighted choice and with
// BookLearnPolicy nearbest (each move's belief summed on the grid).
func BenchmarkChooseLearned(b *testing.B) {
	moves := []string{"e2e4", "d2d4", "c2c4", "g1f3", "b2b3", "g2g3"}
	var entries []fixture.Stored
	for i, m := range moves {
		entries = append(entries, fixture.Stored{Move: m, Weight: uint16(100 - 10*i), Learn: book.MakeLearn(int64(20+7*i), int64(18+5*i))})
	}
	bk := fixture.WriteBook(b, fixture.BookBytes(b, []fixture.Pos{{Name: "start", FEN: board.StartFEN, Entries: entries}}))
	l := fixture.Line(b, board.StartFEN, "")
	for _, o := range []struct {
		name string
		opts book.Options
	}{{"weighted", fixture.PolyGlotOptions}, {"nearbest", book.Options{Mode: book.Weighted, NearBest: true, Tolerance: 0.05}}} {
		b.Run(o.name, func(b *testing.B) {
			c := book.NewChooser(o.opts, 1)
			c.Explain(false)
			shelf, game := book.Both(bk), book.Game{Line: l}
			for b.Loop() {
				if d := c.Choose(shelf, game); d.Chosen < 0 {
					b.Fatal("no move")
				}
			}
		})
	}
}
