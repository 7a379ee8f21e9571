package core_test

// Tests of the warm engine (BookPonder, BookPonderAlways): the engine
// searches while the book answers, its search is never seen by the GUI,
// and the GUI gets exactly one bestmove per go, in order, at once.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/link"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func warmConfig(t *testing.T, always bool) *config.Config {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookPonder = true
	cfg.BookPonderAlways = always
	return cfg
}

// searchesSent are the lines sent to engine i after its handshake that
// are not isready.
func searchesSent(h *proxytest.Harness, i int) []string {
	var out []string
	for _, l := range h.Engine(i).Received() {
		if l != "uci" && l != "isready" && !strings.HasPrefix(l, "setoption") {
			out = append(out, l)
		}
	}
	return out
}

// waitSent waits until engine i has been sent want (lines as searchesSent
// lists them).
func waitSent(h *proxytest.Harness, i int, want ...string) {
	h.T.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := searchesSent(h, i)
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			h.T.Fatalf("engine %d got %q\nwant %q", i, got, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// Off, nothing changes: a go ponder on a book position leaves the engine
// alone, as a book answer after it does.
func TestBookPonderOff(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookPonderAlways = true // without BookPonder: no effect
	h := start(t, cfg, nil, nil)
	h.Handshake()
	h.Send("position startpos", "go ponder wtime 1000 btime 1000")
	h.Quiet(30 * time.Millisecond)
	if l := h.BestmoveAfter("ponderhit"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	h.BestmoveAfter("position startpos", "go")
	h.Send("isready")
	h.Until("readyok")
	if got := searchesSent(h, 0); len(got) != 0 {
		t.Fatalf("engine got %q", got)
	}
}

func TestBookPonderWarmsTheEngine(t *testing.T) {
	cfg := warmConfig(t, false)
	log := withLog(t, cfg)
	h := start(t, cfg, nil, nil)
	h.Handshake()
	// The GUI ponders on a book position: the engine searches it too.
	h.Send("position startpos", "go ponder wtime 1000 btime 1000")
	waitSent(h, 0, "position startpos", "go infinite")
	h.Quiet(30 * time.Millisecond) // the engine's search shows nothing
	// isready during it is answered as ever.
	h.Send("isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
	// ponderhit: the book's answer at once, the engine stopped, its
	// bestmove (a7a6, after an info line) swallowed.
	start := time.Now()
	h.Send("ponderhit")
	got := h.Until("bestmove")
	if d := time.Since(start); d > time.Second {
		t.Errorf("book answer after %v", d)
	}
	if got[len(got)-1] != "bestmove e2e4 ponder c7c5" || len(got) != 2 {
		t.Fatalf("got %q", got)
	}
	waitSent(h, 0, "position startpos", "go infinite", "stop")
	h.Quiet(50 * time.Millisecond)
	// A ponder miss: stop releases the held answer, the engine is stopped.
	h.Send("position startpos", "go ponder wtime 1000 btime 1000")
	waitSent(h, 0, "position startpos", "go infinite", "stop", "position startpos", "go infinite")
	if l := h.BestmoveAfter("stop"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	waitSent(h, 0, "position startpos", "go infinite", "stop", "position startpos", "go infinite", "stop")
	// Out of book: the engine's own search, and its one bestmove.
	h.Send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go wtime 1000 btime 1000")
	got = h.Until("bestmove")
	if !slices.Equal(got, []string{"info depth 1 score cp 21 nodes 1 time 0 pv a7a6", "bestmove a7a6"}) {
		t.Fatalf("got %q", got)
	}
	h.Send("isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("after the engine's bestmove: %q", l)
	}
	if n := strings.Count(log(), "warm engine: its bestmove swallowed"); n != 2 {
		t.Errorf("%d bestmoves swallowed, want 2:\n%s", n, log())
	}
}

// A go ponder in one burst with the stop of the last one: the engine owes
// the stopped search's bestmove, so no warm search starts (the engine
// stays in the GUI's order).
func TestBookPonderWaitsForTheEngine(t *testing.T) {
	h := start(t, warmConfig(t, false), nil, nil)
	h.Handshake()
	h.Send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go ponder wtime 1000 btime 1000")
	h.WaitReceived(0, "go ponder")
	h.Send("stop", "position startpos", "go ponder wtime 1000 btime 1000")
	if l := h.Until("bestmove"); l[len(l)-1] != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("ponderhit"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	h.Send("isready")
	h.Until("readyok")
	if got := searchesSent(h, 0); slices.Contains(got, "go infinite") {
		t.Fatalf("warm search while the engine owed a bestmove: %q", got)
	}
}

func TestBookPonderAlways(t *testing.T) {
	h := start(t, warmConfig(t, true), nil, nil)
	h.Handshake()
	// Each book move, and the engine searches the position after it in the
	// opponent's time; stopped when the next go comes.
	if l := h.BestmoveAfter("position startpos", "go wtime 1000 btime 1000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	waitSent(h, 0, "position startpos moves e2e4", "go infinite")
	h.Quiet(30 * time.Millisecond)
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5 g1f3 b8c6", "go wtime 1000 btime 1000"); l != "bestmove f1b5" {
		t.Fatalf("got %q", l)
	}
	waitSent(h, 0, "position startpos moves e2e4", "go infinite", "stop",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5", "go infinite")
	// Out of book: stop, then the GUI's search; one bestmove, with the
	// search's own info line only.
	h.Send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go wtime 1000 btime 1000")
	got := h.Until("bestmove")
	if !slices.Equal(got, []string{"info depth 1 score cp 21 nodes 1 time 0 pv a7a6", "bestmove a7a6"}) {
		t.Fatalf("got %q", got)
	}
	waitSent(h, 0, "position startpos moves e2e4", "go infinite", "stop",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5", "go infinite", "stop",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go wtime 1000 btime 1000")
	h.Send("isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
	if m := h.Engine(0).Misused(); len(m) != 0 {
		t.Fatalf("engine misused: %q", m)
	}
}

// The engine dies in a warm search: the new engine owes no warm bestmove,
// so the GUI's next search's bestmove is not swallowed.
func TestBookPonderEngineDiesWarm(t *testing.T) {
	mark := t.TempDir() + "/crashed"
	h := start(t, warmConfig(t, true), func(n int, s *ucitest.Settings) {
		s.CrashOnGo, s.CrashOnce = 1, mark
	}, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	if l := h.Next(); !strings.HasPrefix(l, "notice: the engine died") {
		t.Fatalf("got %q", l)
	}
	h.WaitReceived(1, "uci")
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
}

// The engine dies in a warm search: that death does not count toward
// giving up, so a death in the GUI's next search is restarted as a first
// one (then its position, which kills the engine twice, gets bestmove
// 0000 and the session goes on, as without BookPonder); and no warm search
// goes to that position again.
func TestBookPonderDeathDoesNotCostTheEngine(t *testing.T) {
	cfg := warmConfig(t, true)
	h := start(t, cfg, func(_ int, s *ucitest.Settings) { s.CrashIn = "e2e4" }, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos", "go wtime 10000 btime 10000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	if l := h.Next(); !strings.HasPrefix(l, "notice: the engine died (exit status 3) in a search of its own (BookPonder, position startpos moves e2e4): restarting it; this does not count toward giving up") {
		t.Errorf("got %q", l)
	}
	h.Send("isready")
	h.Until("readyok")
	// The same book move again: no warm search of the position that
	// killed the engine.
	if l := h.BestmoveAfter("position startpos", "go wtime 10000 btime 10000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	h.Send("isready")
	h.Until("readyok")
	if got := searchesSent(h, 1); slices.Contains(got, "go infinite") {
		t.Fatalf("warm search sent to the restarted engine: %q", got)
	}
	// The GUI's own search of a position that kills the engine: restarted
	// once, then bestmove 0000, and the session goes on.
	h.Send("position startpos moves e2e4 c7c5 g1f3", "go wtime 10000 btime 10000")
	got := h.Until("bestmove")
	if got[len(got)-1] != "bestmove 0000" || !proxytest.HasPrefix(got, "notice: the engine died twice in a search of this position") {
		t.Fatalf("got %q", got)
	}
	if l := h.BestmoveAfter("position startpos moves d2d4 d7d5", "go wtime 10000 btime 10000"); l != "bestmove a7a6" {
		t.Fatalf("after: %q", l)
	}
}

// Warm searches that keep killing the engine stop for the run after
// MaxPoisons deaths; none of them ends the run.
func TestBookPonderDeathsTurnWarmSearchesOff(t *testing.T) {
	h := start(t, warmConfig(t, true), func(n int, s *ucitest.Settings) {
		if n < link.MaxPoisons {
			s.CrashOnGo = 1
		}
	}, nil)
	h.Handshake()
	var deaths []string
	for i, p := range []string{"", " moves e2e4 e7e5", " moves e2e4 e7e5 g1f3 b8c6"} {
		h.Send("position startpos"+p, "go wtime 10000 btime 10000")
		h.Until("bestmove")
		l := h.Next()
		if !strings.HasPrefix(l, "notice: the engine died (exit status 3) in a search of its own") {
			t.Fatalf("warm search %d: got %q", i+1, l)
		}
		deaths = append(deaths, l)
		h.WaitReceived(i+1, "uci")
	}
	if !strings.HasSuffix(deaths[2], "BookPonder searches no more in this run") || strings.Contains(deaths[1], "no more") {
		t.Errorf("deaths: %q", deaths)
	}
	if l := h.BestmoveAfter("position startpos", "go wtime 10000 btime 10000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go wtime 10000 btime 10000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if got := searchesSent(h, link.MaxPoisons); slices.Contains(got, "go infinite") {
		t.Fatalf("warm search after %d deaths: %q", link.MaxPoisons, got)
	}
}

// Turning the feature off stops the warm search at once: BookPonder (or
// Book) for any, BookPonderAlways for its own, in the opponent's time; a
// warm search while the GUI ponders is BookPonder's alone.
func TestBookPonderOffStopsWarmSearch(t *testing.T) {
	for _, tc := range []struct{ option, ponder string }{
		{"BookPonder", ""},
		{"Book", ""},
		{"BookPonderAlways", ""},
		{"BookPonder", "ponder "},
	} {
		t.Run(tc.option+"/"+tc.ponder, func(t *testing.T) {
			h := start(t, warmConfig(t, true), nil, nil)
			h.Handshake()
			want := []string{"position startpos moves e2e4", "go infinite"}
			h.Send("position startpos", "go "+tc.ponder+"wtime 1000 btime 1000")
			if tc.ponder != "" {
				want = []string{"position startpos", "go infinite"}
			} else {
				h.Until("bestmove")
			}
			waitSent(h, 0, want...)
			if tc.ponder != "" {
				// Not BookPonderAlways's search: it goes on.
				h.Send("setoption name Polyglot BookPonderAlways value false", "isready")
				h.Until("readyok")
				h.Quiet(20 * time.Millisecond)
				waitSent(h, 0, want...)
			}
			h.Send("setoption name Polyglot " + tc.option + " value false")
			waitSent(h, 0, append(want, "stop")...)
			if tc.ponder != "" {
				if l := h.BestmoveAfter("ponderhit"); l != "bestmove e2e4 ponder c7c5" {
					t.Fatalf("got %q", l)
				}
			}
			// No warm search after it, and one bestmove per go.
			h.Send("position startpos moves e2e4 e7e5", "go wtime 1000 btime 1000")
			if l := h.Until("bestmove"); len(l) == 0 {
				t.Fatal("no bestmove")
			}
			h.Send("isready")
			h.Until("readyok")
			h.Quiet(20 * time.Millisecond)
			got := searchesSent(h, 0)
			if n := strings.Count(strings.Join(got, "\n"), "go infinite"); n != 1 {
				t.Fatalf("engine got %q", got)
			}
		})
	}
}

// The engine dies in the warm search of a position the GUI ponders on:
// the held book answer still goes out on ponderhit, and the new engine
// serves the GUI's next search.
func TestBookPonderDeathWhileTheGUIPonders(t *testing.T) {
	h := start(t, warmConfig(t, false), func(n int, s *ucitest.Settings) {
		if n == 0 {
			s.CrashOnGo = 1
		}
	}, nil)
	h.Handshake()
	h.Send("position startpos", "go ponder wtime 1000 btime 1000")
	if l := h.Next(); !strings.HasPrefix(l, "notice: the engine died (exit status 3) in a search of its own") {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("ponderhit"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	h.Send("isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
}

// The engine dies in a warm search just as the GUI's search was sent after
// it: that search is issued again, and if it kills the new engine too,
// that is its position's first death, restarted as such, not a position
// that killed the engine twice (bestmove 0000).
func TestBookPonderDeathWithTheGUISearchSent(t *testing.T) {
	h := start(t, warmConfig(t, true), func(n int, s *ucitest.Settings) {
		switch n {
		case 0:
			s.CrashIn = "moves e2e4"
		case 1:
			s.CrashOnGo = 1
		}
	}, nil)
	h.Handshake()
	// One batch: the book's move, its warm search, then the GUI's search.
	h.Send("position startpos", "go wtime 10000 btime 10000", "position startpos moves d2d4 d7d5", "go wtime 10000 btime 10000")
	got := h.Until("bestmove")
	if got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	got = h.Until("bestmove")
	if got[len(got)-1] != "bestmove a7a6" {
		t.Fatalf("the GUI's search: %q", got)
	}
	if !proxytest.HasPrefix(got, "notice: the engine died (exit status 3) in a search of its own") ||
		!proxytest.HasPrefix(got, "notice: the engine died (exit status 3): restarting it") {
		t.Errorf("deaths not reported: %q", got)
	}
}
