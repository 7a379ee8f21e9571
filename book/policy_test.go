package book_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// bookPositions walks a book breadth-first from the start position along
// its eligible moves (PolyGlot's defaults) and returns the first n
// positions with at least minMoves eligible moves.
func bookPositions(t *testing.T, b *book.Book, n, minMoves int) []board.Position {
	t.Helper()
	c := book.NewChooser(fixture.PolyGlotOptions, 1)
	queue := []board.Position{*board.StartPosition()}
	seen := map[board.Key]bool{queue[0].Key(): true}
	var out []board.Position
	for len(queue) > 0 && len(out) < n {
		pos := queue[0]
		queue = queue[1:]
		eligible := 0
		for _, cd := range c.Candidates(b, &pos, nil) {
			if !cd.Eligible {
				continue
			}
			eligible++
			next := pos
			next.Play(cd.Move)
			if !seen[next.Key()] {
				seen[next.Key()] = true
				queue = append(queue, next)
			}
		}
		if eligible >= minMoves {
			out = append(out, pos)
		}
	}
	if len(out) < n {
		t.Fatalf("the book has only %d positions with %d eligible moves", len(out), minMoves)
	}
	return out
}

// eligibleWeights are the effective weights of a position's eligible
// moves, by move.
func eligibleWeights(c *book.Chooser, b *book.Book, pos *board.Position) map[board.Move]uint64 {
	w := map[board.Move]uint64{}
	for _, cd := range c.Candidates(b, pos, nil) {
		if cd.Eligible {
			w[cd.Move] = cd.Weight
		}
	}
	return w
}

// heavier counts the moves weighing strictly more than m.
func heavier(w map[board.Move]uint64, m board.Move) int {
	n := 0
	for _, x := range w {
		if x > w[m] {
			n++
		}
	}
	return n
}

// Width 1 in weighted and uniform mode plays what best mode plays on 200
// positions of the gnuchess book: the highest weight, and where two moves
// share it, one of them.
func TestWidthOneIsBestOnRealBook(t *testing.T) {
	b := gnuchessBook(t)
	poss := bookPositions(t, b, 200, 2)
	books := []*book.Book{b}
	best := book.NewChooser(book.Options{Mode: book.Best, ThresholdPerMille: 5}, 1)
	all := book.NewChooser(fixture.PolyGlotOptions, 1)
	unique := 0
	for _, mode := range []book.Mode{book.Weighted, book.Uniform} {
		w1 := book.NewChooser(book.Options{Mode: mode, ThresholdPerMille: 5, Width: 1}, 7)
		for _, pos := range poss {
			want, ok, _ := chooseAt(best, books, &pos)
			if !ok {
				t.Fatalf("%s: best has no move", pos.FEN())
			}
			weights := eligibleWeights(all, b, &pos)
			tied := 0
			for _, w := range weights {
				if w == want.Weight {
					tied++
				}
			}
			if mode == book.Weighted && tied == 1 {
				unique++
			}
			for range 5 {
				got, ok, why := chooseAt(w1, books, &pos)
				if !ok || got.Weight != want.Weight || (tied == 1 && got.Move != want.Move) {
					t.Fatalf("%s %s: width 1 chose %s (%d), best %s (%d): %s", mode, pos.FEN(), got.Move, got.Weight, want.Move, want.Weight, why)
				}
			}
		}
	}
	t.Logf("200 positions, %d with one highest weight", unique)
	if unique < 150 {
		t.Errorf("only %d positions with a unique best move: the test proves little", unique)
	}
}

// Width 3 only ever plays one of the three highest weights (ties at the
// cut included), and in weighted mode each of them in proportion.
func TestWidthThreeOnRealBook(t *testing.T) {
	b := gnuchessBook(t)
	poss := bookPositions(t, b, 200, 4)
	books := []*book.Book{b}
	all := book.NewChooser(fixture.PolyGlotOptions, 1)
	w3 := book.NewChooser(book.Options{Mode: book.Weighted, ThresholdPerMille: 5, Width: 3}, 11)
	for _, pos := range poss {
		weights := eligibleWeights(all, b, &pos)
		for range 20 {
			got, ok, why := chooseAt(w3, books, &pos)
			if !ok || heavier(weights, got.Move) >= 3 {
				t.Fatalf("%s: width 3 chose %s (weight %d, %d heavier): %s", pos.FEN(), got.Move, got.Weight, heavier(weights, got.Move), why)
			}
		}
	}
	// At the start, the three most played first moves, each about as often
	// as its weight says among the three.
	start := board.StartPosition()
	weights := eligibleWeights(all, b, start)
	counts := map[board.Move]int{}
	const draws = 6000
	for range draws {
		got, _, _ := chooseAt(w3, books, start)
		counts[got.Move]++
	}
	var top uint64
	for m := range counts {
		top += weights[m]
	}
	if len(counts) != 3 {
		t.Fatalf("start position: chose %v", counts)
	}
	for m, n := range counts {
		want := draws * float64(weights[m]) / float64(top)
		if d := float64(n) - want; d*d > 16*want { // 4 standard deviations, roughly
			t.Errorf("%s chosen %d times, expected about %.0f", m, n, want)
		}
	}
}

func TestWidthRules(t *testing.T) {
	bk := fixture.WriteBook(t, fixture.BookBytes(t, []fixture.Pos{{FEN: board.StartFEN, Entries: []fixture.Stored{
		{Move: "e2e4", Weight: 10}, {Move: "d2d4", Weight: 5}, {Move: "c2c4", Weight: 5}, {Move: "g1f3", Weight: 2}, {Move: "b2b3", Weight: 1},
	}}}))
	start := board.StartPosition()
	eligible := func(o book.Options, seen func(board.Key) bool) string {
		var s []string
		for _, cd := range book.NewChooser(o, 1).Candidates(bk, start, seen) {
			if cd.Eligible {
				s = append(s, cd.Move.String())
			} else if cd.Out == book.RuleWidth && !strings.Contains(cd.Why, "BookWidth") {
				t.Errorf("why %q", cd.Why)
			}
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		name string
		o    book.Options
		seen func(board.Key) bool
		want string
	}{
		{"off", book.Options{}, nil, "e2e4 d2d4 c2c4 g1f3 b2b3"},
		{"width 1", book.Options{Width: 1}, nil, "e2e4"},
		{"width 2: the tie at the cut stays", book.Options{Width: 2}, nil, "e2e4 d2d4 c2c4"},
		{"width 3", book.Options{Width: 3}, nil, "e2e4 d2d4 c2c4"},
		{"width 4", book.Options{Width: 4}, nil, "e2e4 d2d4 c2c4 g1f3"},
		// b2b3 has 1/23 = 43 per mille: the threshold applies first.
		{"threshold 50, width 4", book.Options{ThresholdPerMille: 50, Width: 4}, nil, "e2e4 d2d4 c2c4 g1f3"},
		{"threshold 100, width 4", book.Options{ThresholdPerMille: 100, Width: 4}, nil, "e2e4 d2d4 c2c4"},
		// Learned weights decide the order: b2b3 learned to be the best.
		{"learned weights", book.Options{Width: 1, Weight: func(e book.Entry) uint64 {
			if e.Move.String() == "b2b3" {
				return 100
			}
			return uint64(e.Weight)
		}}, nil, "b2b3"},
		// A move left out for repetition makes room for the next.
		{"repetition", book.Options{Width: 1, AvoidRepetition: true}, func(k board.Key) bool { return k == start.KeyAfter(mv(t, "e2e4")) }, "d2d4 c2c4"},
	} {
		if got := eligible(tc.o, tc.seen); got != tc.want {
			t.Errorf("%s: eligible %q, want %q", tc.name, got, tc.want)
		}
	}
	// Uniform among the width: d2d4 and c2c4 tie with e2e4 out of reach.
	c := book.NewChooser(book.Options{Mode: book.Uniform, Width: 2}, 5)
	counts := map[string]int{}
	for range 900 {
		ch, _, _ := chooseAt(c, []*book.Book{bk}, start)
		counts[ch.Move.String()]++
	}
	if len(counts) != 3 || counts["e2e4"] < 240 || counts["d2d4"] < 240 || counts["c2c4"] < 240 {
		t.Errorf("uniform width 2: %v", counts)
	}
	// The log's reason names the width.
	if _, _, why := chooseAt(c, []*book.Book{bk}, start); !strings.Contains(why, "uniform, width 2") || !strings.Contains(why, "outside BookWidth 2") {
		t.Errorf("reason %q", why)
	}
}

func mv(t *testing.T, s string) board.Move {
	t.Helper()
	m, err := board.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMinWeight(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	books := []*book.Book{b}
	start := board.StartPosition()
	// The start position of oddities.bin: e2e4 10, g1f3 30 (learn 3/4),
	// a weight-0 move and a null move: 40 in all.
	for _, tc := range []struct {
		min  uint64
		want bool
	}{{0, true}, {40, true}, {41, false}} {
		c := book.NewChooser(book.Options{MinWeight: tc.min}, 1)
		_, ok, why := chooseAt(c, books, start)
		if ok != tc.want {
			t.Errorf("MinWeight %d: in book %v, want %v (%s)", tc.min, ok, tc.want, why)
		}
		if !ok && !strings.Contains(why, "thin position (weight 40 < BookMinWeight 41)") {
			t.Errorf("reason %q", why)
		}
	}
	// Below the threshold does not count: at 800 per mille only g1f3
	// (75%) would pass, and it alone does not, so 0 remains.
	c := book.NewChooser(book.Options{ThresholdPerMille: 700, MinWeight: 31}, 1)
	if _, ok, _ := chooseAt(c, books, start); ok {
		t.Error("e2e4 (25%) counted though below the threshold")
	}
	// Stored weights, whatever learning makes of them.
	c = book.NewChooser(book.Options{MinWeight: 41, Weight: func(e book.Entry) uint64 { return 1000 * uint64(e.Weight) }}, 1)
	cands := c.Candidates(b, start, nil)
	for _, cd := range cands {
		if cd.Eligible || (cd.Legal && cd.Weight > 0 && cd.Out != book.RuleMinWeight) {
			t.Errorf("%s: %+v", cd.Move, cd)
		}
	}
}

func TestMinWeightOnRealBook(t *testing.T) {
	b := gnuchessBook(t)
	poss := bookPositions(t, b, 300, 1)
	all := book.NewChooser(fixture.PolyGlotOptions, 1)
	c := book.NewChooser(book.Options{Mode: book.Weighted, ThresholdPerMille: 5, MinWeight: 100}, 1)
	thin := 0
	for _, pos := range poss {
		var sum uint64
		for _, cd := range all.Candidates(b, &pos, nil) {
			if cd.Eligible {
				sum += uint64(cd.Entry.Weight)
			}
		}
		_, ok, why := chooseAt(c, []*book.Book{b}, &pos)
		if ok != (sum >= 100) {
			t.Fatalf("%s: weight %d, in book %v: %s", pos.FEN(), sum, ok, why)
		}
		if !ok {
			thin++
		}
	}
	t.Logf("%d of %d positions thinner than 100", thin, len(poss))
	if thin == 0 || thin == len(poss) {
		t.Errorf("%d thin positions of %d: the test proves little", thin, len(poss))
	}
}

// BookMoves follows the book's lines: repetition and width are rules of
// choosing, not of the book.
func TestBookMoves(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	start := board.StartPosition()
	c := book.NewChooser(book.Options{Width: 1, AvoidRepetition: true}, 1)
	var got []string
	for _, m := range c.BookMoves([]*book.Book{b}, start, nil) {
		got = append(got, m.String())
	}
	slices.Sort(got)
	if strings.Join(got, " ") != "e2e4 g1f3" {
		t.Errorf("BookMoves %v", got)
	}
	c = book.NewChooser(book.Options{MinWeight: 41}, 1)
	if got := c.BookMoves([]*book.Book{b}, start, nil); len(got) != 0 {
		t.Errorf("thin position: %v", got)
	}
}
