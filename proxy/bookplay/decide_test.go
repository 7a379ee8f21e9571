package bookplay

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/proxy/logfile"
	"github.com/polyproxy/polyproxy/uci"
)

// bookEntry is a move and its weight after a line of moves from the start.
type bookEntry struct {
	moves, move string
	weight      uint16
}

// writeBook writes a small sorted Polyglot book (fixture.MovesBook).
func writeBook(t testing.TB, entries []bookEntry) string {
	var ms []fixture.BookMove
	for _, e := range entries {
		ms = append(ms, fixture.BookMove{Moves: e.moves, Move: e.move, Weight: e.weight})
	}
	return fixture.MovesBook(t, ms)
}

// smallBooks is the book play of a run with one small book (1.e4 300,
// 1.d4 100; after 1.e4 only c5), its best move always chosen.
func smallBooks(t *testing.T, set func(*config.Config)) *Books {
	cfg := config.Default(t.TempDir())
	cfg.Book = true
	cfg.BookFiles = []string{writeBook(t, []bookEntry{{"", "e2e4", 300}, {"", "d2d4", 100}, {"e2e4", "c7c5", 50}})}
	cfg.BookMode = book.Best
	cfg.BookSeed = 1
	if set != nil {
		set(cfg)
	}
	s := New(cfg, &logfile.Log{})
	if notices := s.Open(config.ReopenBooks | config.RebuildChooser); len(notices) > 0 {
		t.Fatalf("notices %+v", notices)
	}
	t.Cleanup(s.Close)
	return s
}

// The decision: the book answers a search in a game it holds, with the
// move its policy draws, unless the rules keep it from answering: each
// rule says why.
func TestMove(t *testing.T) {
	start := Game{Line: fixture.Line(t, "", ""), Number: 1}
	s := smallBooks(t, nil)
	if d, ok := s.Move(&uci.Go{}, start, false); !ok || d.Candidates[d.Chosen].Move.String() != "e2e4" {
		t.Fatalf("the book's move: %+v, %v", d, ok)
	}
	for _, tc := range []struct {
		name    string
		g       uci.Go
		game    Game
		analyse bool
		why     string
	}{
		{"not followed", uci.Go{}, Game{Problem: "position not followed: move 1"}, false, "position not followed"},
		{"no position", uci.Go{}, Game{}, false, "no position"},
		{"go infinite", uci.Go{Infinite: true}, start, false, "analysis (go infinite)"},
		{"analysis", uci.Go{}, start, true, "analysis (UCI_AnalyseMode)"},
		{"go mate", uci.Go{HasMate: true, Mate: 2}, start, false, "mate search (go mate)"},
		{"not in book", uci.Go{}, Game{Line: fixture.Line(t, "", "a2a3"), Number: 1}, false, ""},
		{"searchmoves", uci.Go{SearchMoves: []string{"g1f3"}}, start, false, ""},
	} {
		if _, ok := s.Move(&tc.g, tc.game, tc.analyse); ok {
			t.Errorf("%s: the book answered", tc.name)
		}
		if tc.why != "" && s.noMove(&tc.g, tc.game, tc.analyse) != tc.why {
			t.Errorf("%s: why %q, want %q", tc.name, s.noMove(&tc.g, tc.game, tc.analyse), tc.why)
		}
	}
	deep := smallBooks(t, func(c *config.Config) { c.BookDepth = 0 })
	if why := deep.decide(start, nil, true).Why; why != "beyond BookDepth (move 1 > 0)" {
		t.Errorf("BookDepth: %q", why)
	}
	off := smallBooks(t, func(c *config.Config) { c.Book = false })
	if v := off.View(start); v.Why != "book off" {
		t.Errorf("book off: %q", v.Why)
	}
}

// The view shows the book's entries as the policy judges them, draws
// nothing, and says why the book has no move where it has none; the reply
// announced to ponder on is the book's likeliest move after ours.
func TestViewAndReply(t *testing.T) {
	s := smallBooks(t, func(c *config.Config) { c.BookMode = book.Weighted })
	start := Game{Line: fixture.Line(t, "", ""), Number: 1}
	v := s.View(start)
	if v.Book == nil || len(v.Candidates) != 2 || v.Why != "" {
		t.Fatalf("view %+v", v)
	}
	if m, ok := v.Likeliest(); !ok || m.String() != "e2e4" {
		t.Errorf("likeliest %v %v", m, ok)
	}
	if v := s.View(Game{Line: fixture.Line(t, "", "a2a3"), Number: 1}); v.Book != nil || v.Why != "not in book" {
		t.Errorf("out of book: %+v", v)
	}
	if m, ok := s.Reply(fixture.Line(t, "", "e2e4"), false); !ok || m.String() != "c7c5" {
		t.Errorf("reply after 1.e4: %v %v", m, ok)
	}
	// Drawing a move for the view would change what the book plays next.
	a, b := smallBooks(t, func(c *config.Config) { c.BookMode = book.Weighted }), smallBooks(t, func(c *config.Config) { c.BookMode = book.Weighted })
	var movesA, movesB []string
	for range 20 {
		a.View(start)
		da, _ := a.Move(&uci.Go{}, start, false)
		db, _ := b.Move(&uci.Go{}, start, false)
		ca, _ := da.Move()
		cb, _ := db.Move()
		movesA, movesB = append(movesA, ca.Move.String()), append(movesB, cb.Move.String())
	}
	if strings.Join(movesA, " ") != strings.Join(movesB, " ") {
		t.Errorf("the view changed the moves drawn: %q vs %q", movesA, movesB)
	}
}
