package book_test

// Tests of the one decision: its order, its chances under each rule of
// the game (BookMinLine, BookMaxMoves, BookDepth), and that asking draws
// nothing.

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// moves is the decision's candidates as "move:chance:out ...".
func moves(d book.Decision) string {
	var parts []string
	for _, cd := range d.Candidates {
		parts = append(parts, cd.Move.String()+":"+string(book.AppendPercent(nil, cd.Chance))+":"+cd.Out.String())
	}
	return strings.Join(parts, " ")
}

// The likeliest first: by chance, then weight, then the book's order; the
// moves out keep that order among themselves.
func TestDecisionOrder(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	start := fixture.Line(t, board.StartFEN, "")
	for _, tc := range []struct {
		mode book.Mode
		want string
	}{
		{book.Weighted, "g1f3:75.0%: e2e4:25.0%: d2d4:0.0%:weight a1a1:0.0%:legal"},
		{book.Best, "g1f3:100.0%: e2e4:0.0%: d2d4:0.0%:weight a1a1:0.0%:legal"},
		{book.Uniform, "g1f3:50.0%: e2e4:50.0%: d2d4:0.0%:weight a1a1:0.0%:legal"},
	} {
		d := book.NewChooser(book.Options{Mode: tc.mode}, 1).Decide(book.Both(b), book.Game{Line: start})
		if got := moves(d); got != tc.want || d.Why != "" || d.Chosen != -1 || d.Total() != 40 {
			t.Errorf("%s: %s (why %q, chosen %d, total %d), want %s", tc.mode, got, d.Why, d.Chosen, d.Total(), tc.want)
		}
		if m, ok := d.Likeliest(); !ok || m.String() != "g1f3" {
			t.Errorf("%s: likeliest %s", tc.mode, m)
		}
	}
	// Ties in Best go to the first in the book, for the pick and the hint.
	promo := fixture.Line(t, "8/1P2k3/8/8/8/8/8/4K3 w - - 0 1", "")
	d := book.NewChooser(book.Options{Mode: book.Best}, 1).Choose(book.Both(b), book.Game{Line: promo})
	if m, ok := d.Move(); !ok || m.Move.String() != "b7b8q" || d.Chosen != 0 {
		t.Errorf("best of tied moves: %+v (chosen %d)", m, d.Chosen)
	}
}

// Asking draws nothing: decisions in between leave a game's choices as
// they were.
func TestDecideDrawsNothing(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	start := fixture.Line(t, board.StartFEN, "")
	seq := func(ask bool) string {
		c := book.NewChooser(fixture.PolyGlotOptions, 5)
		var s []string
		for range 30 {
			if ask {
				c.Decide(book.Both(b), book.Game{Line: start})
			}
			m, _, _ := choose(c, []*book.Book{b}, start, nil)
			s = append(s, m.Move.String())
		}
		return strings.Join(s, " ")
	}
	if a, b := seq(false), seq(true); a != b {
		t.Errorf("choices %s, with decisions in between %s", a, b)
	}
}

// BookMinLine leaves out the moves whose line ends too soon, before the
// draw: the others share the chances, and a game plays them.
func TestDecideMinLine(t *testing.T) {
	b := fixture.OpenPath(t, fixture.MovesBook(t, []fixture.BookMove{
		{Moves: "", Move: "e2e4", Weight: 10}, {Moves: "", Move: "d2d4", Weight: 30}, {Moves: "", Move: "c2c4", Weight: 10},
		{Moves: "e2e4", Move: "e7e5", Weight: 10}, {Moves: "e2e4 e7e5", Move: "g1f3", Weight: 10},
		{Moves: "c2c4", Move: "e7e5", Weight: 10}, {Moves: "c2c4 e7e5", Move: "b1c3", Weight: 10},
		{Moves: "d2d4", Move: "d7d5", Weight: 10},
	}))
	start := fixture.Line(t, board.StartFEN, "")
	c := book.NewChooser(book.Options{MinLine: 2}, 1)
	d := c.Decide(book.Both(b), book.Game{Line: start})
	if got := moves(d); got != "e2e4:50.0%: c2c4:50.0%: d2d4:0.0%:min_line" {
		t.Errorf("min line 2: %s", got)
	}
	if why := d.Candidates[2].Why; why != "short line: the book goes on 1 plies after d2d4, BookMinLine 2" {
		t.Errorf("why %q", why)
	}
	for range 50 {
		if m, _, why := choose(c, []*book.Book{b}, start, nil); m.Move.String() == "d2d4" || !strings.Contains(why, "chance 50.0%") {
			t.Fatalf("played %s: %s", m.Move, why)
		}
	}
	// Every move too short: no move, and why.
	c = book.NewChooser(book.Options{MinLine: 3}, 1)
	if d := c.Choose(book.Both(b), book.Game{Line: start}); d.Chosen >= 0 || !strings.Contains(d.Why, "every move it would play ends its line too soon") {
		t.Errorf("min line 3: %d %q", d.Chosen, d.Why)
	}
}

// BookMaxMoves and BookDepth put the position out of book: every move is
// out by the game's rule, which is why.
func TestDecideGameRules(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	start := fixture.Line(t, board.StartFEN, "")
	for _, tc := range []struct {
		o      book.Options
		played int
		out    string
		why    string
	}{
		{book.Options{MaxMoves: 2}, 2, "max_moves", "BookMaxMoves reached (2 book moves of ours in this game, at most 2)"},
		{book.Options{MaxMoves: 2}, 1, "", ""},
		{book.Options{Depth: -1}, 0, "depth", "beyond BookDepth (move 1 > 0)"},
		{book.Options{Depth: 1}, 0, "", ""},
	} {
		d := book.NewChooser(tc.o, 1).Decide(book.Both(b), book.Game{Line: start, Played: tc.played})
		if d.Why != tc.why || d.Candidates[0].Out.String() != tc.out || d.Candidates[0].Why != tc.why {
			t.Errorf("%+v, %d played: %s, why %q", tc.o, tc.played, moves(d), d.Why)
		}
	}
}

// Replay counts the book moves of the side to move along a line: those
// the book would have played where they were played.
func TestReplayCountsOurBookMoves(t *testing.T) {
	b := fixture.OpenPath(t, fixture.MovesBook(t, []fixture.BookMove{
		{Moves: "", Move: "e2e4", Weight: 10},
		{Moves: "e2e4", Move: "e7e5", Weight: 10},
		{Moves: "e2e4 e7e5", Move: "g1f3", Weight: 10},
		{Moves: "e2e4 e7e5 g1f3", Move: "b8c6", Weight: 10},
		{Moves: "e2e4 e7e5 g1f3 b8c6", Move: "f1b5", Weight: 10},
	}))
	start := fixture.Line(t, board.StartFEN, "")
	var line []board.Move
	for _, s := range strings.Fields("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6") {
		m, _ := board.ParseMove(s)
		line = append(line, m)
	}
	for _, tc := range []struct {
		plies, max, want int
	}{
		{4, 5, 2}, // White's e4 and Nf3
		{4, 1, 1}, // counted up to the limit
		{6, 5, 2}, // Bc4 is no book move
		{5, 5, 2}, // Black: e5 and Nc6
		{4, 0, 0}, // no limit: not counted
	} {
		c := book.NewChooser(book.Options{MaxMoves: tc.max}, 1)
		g := c.Replay(book.Both(b), start, line[:tc.plies])
		if g.Played != tc.want || len(g.Line.Keys) != tc.plies+1 || len(start.Keys) != 1 {
			t.Errorf("%d plies, max %d: %d played, want %d", tc.plies, tc.max, g.Played, tc.want)
		}
	}
}

// Percentages have the precision it takes to be true.
func TestAppendPercent(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		want string
	}{
		{0, "0.0%"}, {1, "100.0%"}, {0.394, "39.4%"}, {5.0 / 21236, "0.02%"}, {0.00049, "0.05%"},
		{0.0000012, "0.0001%"}, {0.99996, "99.996%"}, {0.9996, "99.96%"}, {0.0005, "0.1%"},
	} {
		if got := string(book.AppendPercent(nil, tc.p)); got != tc.want {
			t.Errorf("%g: %s, want %s", tc.p, got, tc.want)
		}
	}
}
