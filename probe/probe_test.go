package probe_test

import (
	"math"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/probe"
)

// TestReportChances: the chances of the eligible moves add up to 1 in
// every mode, and a move left out has none.
func TestReportChances(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	start := fixture.Line(t, board.StartFEN, "")
	for _, mode := range book.Modes() {
		settings := config.Default("")
		settings.BookMode = mode
		res := probe.Report(book.Both(b), start, nil, settings)
		sum := 0.0
		for _, e := range res.Entries {
			if !e.Eligible && e.Chance != 0 {
				t.Errorf("%s: %s is out (%s) with chance %g", mode, e.Move, e.Out, e.Chance)
			}
			sum += e.Chance
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: chances add up to %g: %+v", mode, sum, res.Entries)
		}
		if res.Book != b.Path() || len(res.Entries) != 4 || res.Side != "white" || len(res.Rules) != 6 || res.Rules[0].Value != config.DefaultBookThreshold {
			t.Errorf("%s: %+v", mode, res)
		}
	}
}
