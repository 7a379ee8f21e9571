package book_test

import (
	"math"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// nearBest is BookLearnPolicy nearbest at a tolerance, under mode m.
func nearBest(m book.Mode, tolerance float64) book.Options {
	return book.Options{Mode: m, NearBest: true, Tolerance: tolerance}
}

// startBook is a book of the start position's moves with weights and
// learn fields, in that order.
func startBook(t *testing.T, moves []string, weights []uint16, learned []book.Learn) *book.Book {
	t.Helper()
	var entries []fixture.Stored
	for i, m := range moves {
		entries = append(entries, fixture.Stored{Move: m, Weight: weights[i], Learn: learned[i]})
	}
	return fixture.WriteBook(t, fixture.BookBytes(t, []fixture.Pos{{Name: "start", FEN: board.StartFEN, Entries: entries}}))
}

// chances are the decision's chance of each move at the start position.
func chances(t *testing.T, c *book.Chooser, b *book.Book) map[string]float64 {
	t.Helper()
	d := c.Decide(book.Both(b), book.Game{Line: fixture.Line(t, board.StartFEN, "")})
	out := map[string]float64{}
	sum := 0.0
	for _, cd := range d.Candidates {
		out[cd.Move.String()] = cd.Chance
		sum += cd.Chance
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("the chances add up to %v: %v", sum, out)
	}
	return out
}

// An unplayed book plays exactly as its author weighed it, whatever the
// mode.
func TestPosteriorUnplayedKeepsTheAuthorsShares(t *testing.T) {
	b := startBook(t, []string{"e2e4", "d2d4", "c2c4"}, []uint16{30, 40, 30}, []book.Learn{0, 0, 0})
	for _, m := range book.Modes() {
		want := chances(t, book.NewChooser(book.Options{Mode: m}, 1), b)
		got := chances(t, book.NewChooser(nearBest(m, 0.05), 1), b)
		for mv, w := range want {
			if got[mv] != w {
				t.Errorf("%s: %s has chance %v, %v without learning", m, mv, got[mv], w)
			}
		}
	}
}

// A move that lost every game falls fast; moves that scored alike keep
// the author's proportions exactly.
func TestPosteriorTurnsAwayFromLosses(t *testing.T) {
	even := book.MakeLearn(20, 20)
	for _, tc := range []struct {
		losses   int64
		atMost   float64
		atLeast  float64
		describe string
	}{
		{0, 0.45, 0.35, "unplayed beside played moves: about its share"},
		{3, 0.12, 0.01, "three losses"},
		{8, 0.01, 0, "eight losses"},
	} {
		b := startBook(t, []string{"e2e4", "d2d4", "c2c4"}, []uint16{40, 30, 60}, []book.Learn{book.MakeLearn(tc.losses, 0), even, even})
		ch := chances(t, book.NewChooser(nearBest(book.Weighted, 0.05), 1), b)
		t.Logf("%s: %v", tc.describe, ch)
		if c := ch["e2e4"]; c > tc.atMost || c < tc.atLeast {
			t.Errorf("%s: the losing move's chance %.4f, want %.2f to %.2f", tc.describe, c, tc.atLeast, tc.atMost)
		}
		if r := ch["c2c4"] / ch["d2d4"]; math.Abs(r-2) > 1e-9 {
			t.Errorf("%s: moves alike at weights 60 and 30 have chances in ratio %v", tc.describe, r)
		}
	}
}

// Best plays the move with the highest product alone; Uniform ignores
// the weights;
// the tolerance keeps a move slightly worse in play and a wider one keeps
// more of it.
func TestPosteriorModesAndTolerance(t *testing.T) {
	b := startBook(t, []string{"e2e4", "d2d4"}, []uint16{10, 90}, []book.Learn{book.MakeLearn(100, 110), book.MakeLearn(100, 90)})
	uniform := chances(t, book.NewChooser(nearBest(book.Uniform, 0.05), 1), b)
	weighted := chances(t, book.NewChooser(nearBest(book.Weighted, 0.05), 1), b)
	best := chances(t, book.NewChooser(nearBest(book.Best, 0.05), 1), b)
	likeliest := "e2e4"
	if weighted["d2d4"] > weighted["e2e4"] {
		likeliest = "d2d4"
	}
	if best[likeliest] != 1 {
		t.Errorf("best: %v, weighted %v", best, weighted)
	}
	if uniform["e2e4"] <= 0.5 || weighted["e2e4"] >= uniform["e2e4"] {
		t.Errorf("uniform %v, weighted %v", uniform, weighted)
	}
	wider := chances(t, book.NewChooser(nearBest(book.Uniform, 0.15), 1), b)
	if wider["d2d4"] <= uniform["d2d4"] {
		t.Errorf("tolerance 15%%: %v, 5%%: %v", wider, uniform)
	}
}

// A game's move is drawn by exactly the chances the decision shows: a
// chi-square test of 20,000 seeded draws.
func TestPosteriorDrawsByItsChances(t *testing.T) {
	b := startBook(t, []string{"e2e4", "d2d4", "c2c4", "g1f3"}, []uint16{40, 30, 20, 10},
		[]book.Learn{book.MakeLearn(6, 2), book.MakeLearn(10, 10), book.MakeLearn(3, 4), 0})
	c := book.NewChooser(nearBest(book.Weighted, 0.05), 20261207)
	want := chances(t, c, b)
	l := fixture.Line(t, board.StartFEN, "")
	const draws = 20000
	counts := map[string]int{}
	for range draws {
		m, ok, _ := chooseAt(c, []*book.Book{b}, &l.Pos)
		if !ok {
			t.Fatal("no move")
		}
		counts[m.Move.String()]++
	}
	chi2 := 0.0
	for mv, ch := range want {
		if ch < 0.01 {
			t.Fatalf("%s has chance %v: too small for this test", mv, ch)
		}
		d := float64(counts[mv]) - draws*ch
		chi2 += d * d / (draws * ch)
	}
	// 3 degrees of freedom: 16.3 is the 99.9% quantile.
	t.Logf("chances %v, counts %v, chi2 %.2f", want, counts, chi2)
	if chi2 > 16.3 {
		t.Errorf("chi2 %.2f", chi2)
	}
}
