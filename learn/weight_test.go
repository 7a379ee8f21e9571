package learn

import (
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

func TestWeight(t *testing.T) {
	// The field as a book may hold it: points without games too.
	w := func(weight uint16, games, points uint16) uint64 {
		return Weight(book.Entry{Weight: weight, Learn: book.Learn(uint32(games)<<16 | uint32(points))})
	}
	if got := w(100, 0, 0); got != 100*weightScale {
		t.Errorf("unplayed: %d, want the stored weight scaled", got)
	}
	if got := w(100, 4, 4); got != 100*weightScale {
		t.Errorf("all draws: %d, want the stored weight scaled", got)
	}
	// 2 wins: (4+4)/(0+4) = 2; 2 losses: 4/(4+4) = 1/2.
	if got := w(100, 2, 4); got != 200*weightScale {
		t.Errorf("two wins: %d", got)
	}
	if got := w(100, 2, 0); got != 50*weightScale {
		t.Errorf("two losses: %d", got)
	}
	if got := w(1, 10, 0); got == 0 {
		t.Error("a small weight that lost became 0: the move would never be played again")
	}
	if got := w(0, 10, 20); got != 0 {
		t.Errorf("weight 0 became %d", got)
	}
	// More points than 2 per game counts as 2 per game.
	if w(100, 0, 5120) != w(100, 0, 0) || w(100, 3, 60000) != w(100, 3, 6) {
		t.Error("impossible points were not capped at 2 per game")
	}
	if got := w(0xffff, 0xffff, 0xffff); got >= 1<<40 {
		t.Errorf("largest weight %d not below 2^40", got)
	}
	// Better results, more weight.
	if !(w(50, 10, 15) > w(50, 10, 10) && w(50, 10, 10) > w(50, 10, 5)) {
		t.Error("weight does not grow with points")
	}
}

// With Weight as the chooser's hook, learned results move the shares; the
// stored weights alone would give 50% each.
func TestWeightInTheChooser(t *testing.T) {
	start := board.StartPosition()
	e4, _ := board.ParseMove("e2e4")
	d4, _ := board.ParseMove("d2d4")
	path := fixture.WriteEntries(t, []book.Entry{
		{Key: start.Key(), Move: e4, Weight: 100, Learn: book.MakeLearn(10, 20)}, // 10 wins: × 24/4
		{Key: start.Key(), Move: d4, Weight: 100, Learn: book.MakeLearn(10, 0)},  // 10 losses: × 4/24
	})
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	share := func(o book.Options) map[string]float64 {
		out := map[string]float64{}
		for _, c := range book.NewChooser(o, 1).Candidates(b, start, nil) {
			out[c.Move.String()] = c.Share
		}
		return out
	}
	plain := share(fixture.PolyGlotOptions)
	if plain["e2e4"] != 0.5 || plain["d2d4"] != 0.5 {
		t.Fatalf("without learning: %v", plain)
	}
	o := fixture.PolyGlotOptions
	o.Weight = Weight
	learned := share(o)
	if want := 36.0 / 37; learned["e2e4"] < want-1e-4 || learned["e2e4"] > want+1e-4 {
		t.Fatalf("with learning: %v, want e2e4 %.4f", learned, want)
	}
}
