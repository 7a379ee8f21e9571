package book_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// gnuchessBook opens the gnuchess book (Debian's gnuchess-book), a real
// Polyglot book of 180,358 entries, read-only.
func gnuchessBook(t testing.TB) *book.Book {
	t.Helper()
	b, err := polyglot.Open(testenv.GnuchessBook(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// choose is c's choice at the last position of l from books (the same
// for either side), with the decision's reason; only as Game.Only.
func choose(c *book.Chooser, books []*book.Book, l *board.Line, only []board.Move) (book.Candidate, bool, string) {
	d := c.Choose(book.Both(books...), book.Game{Line: l, Only: only})
	m, ok := d.Move()
	return m, ok, d.Reason
}

// chooseAt is choose at pos, a game known by its position alone.
func chooseAt(c *book.Chooser, books []*book.Book, pos *board.Position) (book.Candidate, bool, string) {
	return choose(c, books, book.At(pos).Line, nil)
}

type wantCand struct {
	played   string
	legal    bool
	eligible bool
	why      string // substring
	share    float64
}

func TestCandidatesOnOddities(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	c := book.NewChooser(fixture.PolyGlotOptions, 1)
	for _, tc := range []struct {
		fen  string
		want []wantCand
	}{
		{board.StartFEN, []wantCand{
			{"e2e4", true, true, "", 0.25}, {"d2d4", true, false, "weight 0", 0}, {"a1a1", false, false, "null move", 0}, {"g1f3", true, true, "", 0.75},
		}},
		{"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", []wantCand{
			{"e1g1", true, true, "", 159.0 / 193}, {"e1c1", true, true, "", 18.0 / 193}, {"h2h3", true, true, "", 16.0 / 193},
		}},
		{"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1", []wantCand{
			{"e8g8", true, true, "", 0.7}, {"e8c8", true, true, "", 0.3},
		}},
		{"k7/8/8/8/8/8/8/3KR3 w - - 0 1", []wantCand{
			{"e1h1", true, true, "", 0.5}, {"e1e7", true, true, "", 0.5},
		}},
		{"8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", []wantCand{
			{"b7b8q", true, true, "", 0.25}, {"b7b8n", true, true, "", 0.25}, {"b7b8r", true, true, "", 0.25}, {"b7b8b", true, true, "", 0.25},
			{"b7b8?", false, false, "invalid promotion code 5", 0},
		}},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", []wantCand{
			{"e5d6", true, true, "", 0.8}, {"e5e6", true, true, "", 0.2},
		}},
		// The en-passant field is ignored without an adjacent pawn: the
		// FEN without it reaches the same entry.
		{"4k3/8/8/3p4/8/4P3/8/4K3 w - - 0 1", []wantCand{{"e3e4", true, true, "", 1}}},
		{"4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", []wantCand{
			{"e5d6", false, false, "illegal", 0}, {"a5b6", true, true, "", 1},
		}},
		// Illegal entries do not count in the total: e2e3 has 4/1004.
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", []wantCand{
			{"e2e4", true, true, "", 1000.0 / 1004}, {"e2e3", true, false, "below threshold", 4.0 / 1004}, {"e1e3", false, false, "illegal", 0},
		}},
	} {
		l := fixture.Line(t, tc.fen, "")
		got := c.Candidates(b, &l.Pos, nil)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d candidates, want %d: %+v", tc.fen, len(got), len(tc.want), got)
			continue
		}
		for i, w := range tc.want {
			g := got[i]
			if g.Move.String() != w.played || g.Legal != w.legal || g.Eligible != w.eligible || !strings.Contains(g.Why, w.why) || math.Abs(g.Share-w.share) > 1e-9 {
				t.Errorf("%s: candidate %d = %+v (%s), want %+v", tc.fen, i, g, g.Move, w)
			}
		}
	}
	// The pinned pawn's en-passant file enters the key: the FEN without it
	// is another position.
	withEP := fixture.Line(t, "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1", "")
	noEP := fixture.Line(t, "4k3/8/8/K2pP2r/8/8/8/8 w - - 0 1", "")
	if withEP.Pos.Key() == noEP.Pos.Key() {
		t.Error("pinned pawn: en passant not in the key")
	}
}

func TestChooseNoMove(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	c := book.NewChooser(fixture.PolyGlotOptions, 1)
	for _, tc := range []struct{ fen, moves, why string }{
		{board.StartFEN, "e2e4", "all weights 0"},
		{board.StartFEN, "d2d4", "not in book"},
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4 e8e7", "not in book"},
	} {
		l := fixture.Line(t, tc.fen, tc.moves)
		_, ok, why := choose(c, []*book.Book{b}, l, nil)
		if ok || !strings.Contains(why, tc.why) || !strings.Contains(why, "oddities.bin") {
			t.Errorf("%s %s: ok=%v why=%q, want %q", tc.fen, tc.moves, ok, why, tc.why)
		}
	}
	// Only entries that are illegal here.
	bad := fixture.WriteBook(t, fixture.BookBytes(t, []fixture.Pos{{FEN: board.StartFEN, Entries: []fixture.Stored{{Move: "e2e5", Weight: 3}, {Move: "e1g1", Weight: 3}}}}))
	l := fixture.Line(t, board.StartFEN, "")
	if _, ok, why := choose(c, []*book.Book{bad}, l, nil); ok || !strings.Contains(why, "no legal entry") {
		t.Errorf("illegal entries: %v %q", ok, why)
	}
	// Everything below the threshold.
	low := fixture.WriteBook(t, fixture.BookBytes(t, []fixture.Pos{{FEN: board.StartFEN, Entries: []fixture.Stored{{Move: "e2e4", Weight: 1}, {Move: "d2d4", Weight: 1}}}}))
	c500 := book.NewChooser(book.Options{ThresholdPerMille: 500}, 1)
	if _, ok, why := choose(c500, []*book.Book{low}, l, nil); ok || !strings.Contains(why, "below the threshold") {
		t.Errorf("threshold: %v %q", ok, why)
	}
	if _, ok, why := choose(c, nil, l, nil); ok || why != "no book" {
		t.Errorf("no books: %v %q", ok, why)
	}
}

func TestChooseModes(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	start := fixture.Line(t, board.StartFEN, "")
	promo := fixture.Line(t, "8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "")
	books := []*book.Book{b}

	best := book.NewChooser(book.Options{Mode: book.Best}, 1)
	d := best.Choose(book.Both(books...), book.Game{Line: start})
	if ch, ok := d.Move(); !ok || ch.Move.String() != "g1f3" || ch.Weight != 30 || d.Total() != 40 || b.Entry(ch.Index) != ch.Entry || ch.Chance != 1 {
		t.Errorf("best: %+v %q", ch, d.Reason)
	} else if !strings.Contains(d.Reason, "g1f3 chosen") || !strings.Contains(d.Reason, "chance 100.0%, share 75.0%") {
		t.Errorf("reason %q", d.Reason)
	}
	// Ties go to the entry first in the file.
	if ch, _, _ := choose(best, books, promo, nil); ch.Move.String() != "b7b8q" {
		t.Errorf("best tie: %s", ch.Move)
	}
	// Chances say the same: all on the first of the tied.
	if got := chancesOf(best, b, &promo.Pos); got != "b7b8q:1 b7b8n:0 b7b8r:0 b7b8b:0 b7b8?:0" {
		t.Errorf("best's chances: %s", got)
	}

	counts := map[string]int{}
	uni := book.NewChooser(book.Options{Mode: book.Uniform}, 3)
	for i := 0; i < 4000; i++ {
		ch, _, _ := choose(uni, books, promo, nil)
		counts[ch.Move.String()]++
	}
	if len(counts) != 4 {
		t.Errorf("uniform: %v", counts)
	}
	if got := chancesOf(uni, b, &promo.Pos); got != "b7b8q:0.25 b7b8n:0.25 b7b8r:0.25 b7b8b:0.25 b7b8?:0" {
		t.Errorf("uniform's chances: %s", got)
	}
	for m, n := range counts {
		if n < 850 || n > 1150 {
			t.Errorf("uniform: %s chosen %d of 4000", m, n)
		}
	}

	// Same seed, same choices; another seed, other choices.
	seq := func(seed uint64) string {
		c := book.NewChooser(fixture.PolyGlotOptions, seed)
		var s []string
		for i := 0; i < 40; i++ {
			ch, _, _ := choose(c, books, promo, nil)
			s = append(s, ch.Move.String())
		}
		return strings.Join(s, " ")
	}
	if seq(42) != seq(42) {
		t.Error("seeded choices differ")
	}
	if seq(42) == seq(43) || seq(0) == seq(0) {
		t.Error("different seeds choose alike")
	}

	mode, err := book.ParseMode("UNIFORM")
	if err != nil || mode != book.Uniform || mode.String() != "uniform" {
		t.Errorf("ParseMode: %v %v", mode, err)
	}
	if _, err := book.ParseMode("random"); err == nil {
		t.Error("ParseMode accepted random")
	}
}

// chancesOf writes the decision's chance of each entry of pos, the
// likeliest first: "move:chance ...".
func chancesOf(c *book.Chooser, b *book.Book, pos *board.Position) string {
	d := c.Decide(book.Both(b), book.At(pos))
	var parts []string
	for _, cd := range d.Candidates {
		parts = append(parts, fmt.Sprintf("%s:%g", cd.Move, cd.Chance))
	}
	return strings.Join(parts, " ")
}

func TestChooseAvoidRepetition(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	l := fixture.Line(t, board.StartFEN, "")
	nf3 := l.Pos.KeyAfter(board.NewMove(6, 21, board.NoPromo))
	seen := &board.Line{Pos: l.Pos, Keys: []board.Key{nf3}} // the game went through it
	c := book.NewChooser(book.Options{Mode: book.Best, AvoidRepetition: true}, 1)
	ch, ok, _ := choose(c, []*book.Book{b}, seen, nil)
	if !ok || ch.Move.String() != "e2e4" {
		t.Errorf("avoid repetition chose %s", ch.Move)
	}
	// Without the option the repeating move is still played.
	c = book.NewChooser(book.Options{Mode: book.Best}, 1)
	if ch, _, _ := choose(c, []*book.Book{b}, seen, nil); ch.Move.String() != "g1f3" {
		t.Errorf("chose %s", ch.Move)
	}
	// Every move repeating: no book move, and the log says why.
	c = book.NewChooser(book.Options{AvoidRepetition: true}, 1)
	all := &board.Line{Pos: l.Pos}
	for _, cd := range c.Candidates(b, &l.Pos, nil) {
		all.Keys = append(all.Keys, l.Pos.KeyAfter(cd.Move))
	}
	if _, ok, why := choose(c, []*book.Book{b}, all, nil); ok || !strings.Contains(why, "repeats") {
		t.Errorf("all repeating: %v %q", ok, why)
	}
}

func TestChooseBooksInPriorityOrder(t *testing.T) {
	odd := fixture.Open(t, "oddities.bin")
	zero := fixture.WriteBook(t, fixture.BookBytes(t, []fixture.Pos{{FEN: board.StartFEN, Entries: []fixture.Stored{{Move: "c2c4", Weight: 0}}}}))
	other := fixture.WriteBook(t, fixture.BookBytes(t, []fixture.Pos{{FEN: board.StartFEN, Entries: []fixture.Stored{{Move: "c2c4", Weight: 1}}}}))
	l := fixture.Line(t, board.StartFEN, "")
	c := book.NewChooser(fixture.PolyGlotOptions, 1)
	d := c.Choose(book.Both(zero, other, odd), book.Game{Line: l})
	if ch, ok := d.Move(); !ok || d.Book != other || ch.Move.String() != "c2c4" {
		t.Errorf("chose %s from %v", ch.Move, d.Book.Path())
	}
	if d = c.Choose(book.Both(odd, other), book.Game{Line: l}); d.Book != odd {
		t.Error("second book answered before the first")
	}
	if m, ok := c.BestReply([]*book.Book{zero, odd, other}, &l.Pos); !ok || m.String() != "g1f3" {
		t.Errorf("BestReply %s %v", m, ok)
	}
	after := fixture.Line(t, board.StartFEN, "e2e4")
	if _, ok := c.BestReply([]*book.Book{odd}, &after.Pos); ok {
		t.Error("BestReply on an all-zero position")
	}
}

func TestWeightHook(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	l := fixture.Line(t, board.StartFEN, "")
	// A learn-style weight: e2e4 (no learn data) doubled.
	o := book.Options{Mode: book.Best, Weight: func(e book.Entry) uint64 {
		if e.Move.String() == "e2e4" {
			return 100
		}
		return uint64(e.Weight)
	}}
	d := book.NewChooser(o, 1).Choose(book.Both(b), book.Game{Line: l})
	if ch, ok := d.Move(); !ok || ch.Move.String() != "e2e4" || d.Total() != 130 || math.Abs(ch.Share-100.0/130) > 1e-9 {
		t.Errorf("%+v", ch)
	}
}

// The weighted mode draws each move with probability weight/sum, checked
// with a chi-square test on the gnuchess book's start position.
func TestWeightedDistributionOnRealBook(t *testing.T) {
	b := gnuchessBook(t)
	l := fixture.Line(t, board.StartFEN, "")
	c := book.NewChooser(fixture.PolyGlotOptions, 20260101)
	cands := slices.Clone(c.Decide(book.Both(b), book.Game{Line: l}).Candidates)
	const draws = 20000
	counts := map[board.Move]int{}
	for i := 0; i < draws; i++ {
		ch, ok, _ := choose(c, []*book.Book{b}, l, nil)
		if !ok {
			t.Fatal("no move")
		}
		counts[ch.Move]++
	}
	// The draws are held to the chances a reader of the position is told.
	chi2, dof := 0.0, -1
	for _, cd := range cands {
		if !cd.Eligible {
			if counts[cd.Move] != 0 {
				t.Errorf("ineligible %s (%s) chosen %d times", cd.Move, cd.Why, counts[cd.Move])
			}
			continue
		}
		exp := draws * cd.Chance
		d := float64(counts[cd.Move]) - exp
		chi2 += d * d / exp
		dof++
	}
	// 99.9% quantile of chi-square: well above the degrees of freedom.
	limit := float64(dof) + 3.1*math.Sqrt(2*float64(dof)) + 10
	t.Logf("%d eligible moves, chi2 = %.2f (dof %d, limit %.1f), counts %v", dof+1, chi2, dof, limit, counts)
	if dof < 3 || chi2 > limit {
		t.Errorf("chi2 %.2f with %d degrees of freedom", chi2, dof)
	}
}

func TestAboveThreshold(t *testing.T) {
	for _, tc := range []struct {
		w, total, pm uint64
		want         bool
	}{
		{6, 1000, 5, true}, {5, 1000, 5, false}, {1, 1, 0, true}, {0, 10, 0, false}, {1, 1, 1000, false},
		{1, 3689348814741910324, 5, false}, // 5*total is 2^64+4: a 64-bit product wraps to 4
		{1 << 40, 1 << 47, 5, true},
	} {
		if got := book.AboveThreshold(tc.w, tc.total, tc.pm); got != tc.want {
			t.Errorf("aboveThreshold(%d, %d, %d) = %v", tc.w, tc.total, tc.pm, got)
		}
	}
}

// TestChooseOnly: with searchmoves only the listed moves are played; the
// others count as not legal (so they neither win nor dilute the shares).
func TestChooseOnly(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	l := fixture.Line(t, board.StartFEN, "")
	c := book.NewChooser(book.Options{Mode: book.Best}, 1)
	e4, _ := board.ParseMove("e2e4")
	ch, ok, why := choose(c, []*book.Book{b}, l, []board.Move{e4})
	if !ok || ch.Move != e4 || ch.Share != 1 {
		t.Errorf("only e2e4: %+v %v %q", ch, ok, why)
	}
	a3, _ := board.ParseMove("a2a3")
	if _, ok, why := choose(c, []*book.Book{b}, l, []board.Move{a3}); ok || !strings.Contains(why, "no legal entry") {
		t.Errorf("only a move the book lacks: %v %q", ok, why)
	}
	if _, ok, _ := choose(c, []*book.Book{b}, l, []board.Move{}); ok {
		t.Error("an empty searchmoves list allowed a move")
	}
}

// Without Explain the chooser picks the same moves, with no reasons.
func TestChooseQuiet(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	l := fixture.Line(t, board.StartFEN, "")
	loud, quiet := book.NewChooser(fixture.PolyGlotOptions, 9), book.NewChooser(fixture.PolyGlotOptions, 9)
	quiet.Explain(false)
	for range 50 {
		c1, ok1, why1 := choose(loud, []*book.Book{b}, l, nil)
		c2, ok2, why2 := choose(quiet, []*book.Book{b}, l, nil)
		if c1 != c2 || ok1 != ok2 || why1 == "" || why2 != "" {
			t.Fatalf("loud %v %v %q, quiet %v %v %q", c1, ok1, why1, c2, ok2, why2)
		}
	}
	d4 := fixture.Line(t, board.StartFEN, "d2d4")
	if _, ok, why := choose(quiet, []*book.Book{b}, d4, nil); ok || why != "" {
		t.Errorf("not in book, quiet: %v %q", ok, why)
	}
}
