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
