package core_test

// Tests of the reply order as the GUI sees it: every go gets exactly one
// bestmove, in order, and our answers never overtake the engine's.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestReadyOKComesBeforeBookBestmove(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), func(_ int, s *ucitest.Settings) {
		s.ReadyDelay = 100 * time.Millisecond
	}, nil)
	h.Handshake()
	h.Send("isready", "position startpos", "go wtime 1000 btime 1000")
	got := h.Until("bestmove")
	if got[0] != "readyok" || got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("order: %q", got)
	}
	// fastchess: isready right after bestmove.
	h.Send("isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}

func TestBestmoveWithoutGoDropped(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	h.Engine(0).Say("bestmove e2e4", "info string after")
	if l := h.Next(); l != "info string after" {
		t.Fatalf("got %q", l)
	}
}

// bestmoves reads the GUI's output until n bestmoves have come, then
// checks nothing else follows; it returns the bestmove lines in order.
func bestmoves(h *proxytest.Harness, n int) []string {
	h.T.Helper()
	var got []string
	for len(got) < n {
		if l := h.Next(); strings.HasPrefix(l, "bestmove") {
			got = append(got, l)
		}
	}
	h.Send("isready")
	if rest := h.Until("readyok"); len(rest) != 1 {
		h.T.Fatalf("more output after %d bestmoves: %q", n, rest)
	}
	return got
}

// A GUI that sends stop, then the next position and go in one burst, gets
// two bestmoves: the stopped search's and the new one's.
func TestStopPositionGoInOneBurst(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("position startpos moves a2a3", "go ponder wtime 1000 btime 1000")
	h.WaitReceived(0, "go ponder")
	h.Send("stop", "position startpos moves a2a3 h7h6", "go wtime 1000 btime 1000")
	if got := bestmoves(h, 2); got[0] != "bestmove a7a6" || got[1] != "bestmove a7a6" {
		t.Fatalf("got %q", got)
	}
	if m := h.Engine(0).Misused(); len(m) > 0 {
		t.Fatalf("engine got a go while searching: %q", m)
	}
}

// A go while the engine still searches (a GUI error): the engine is
// stopped first, so it never sees a go during a search (Stockfish would
// wait forever behind go infinite), and each go gets one bestmove, in
// order, whether the new one is answered by the book or the engine.
func TestGoDuringEngineSearch(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("position startpos moves a2a3", "go infinite")
	h.WaitReceived(0, "go infinite")
	h.Send("position startpos", "go wtime 1000 btime 1000") // in book
	got := bestmoves(h, 2)
	if got[0] != "bestmove a7a6" || got[1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("engine's then book's bestmove expected, got %q", got)
	}
	h.Send("stop") // nothing runs: swallowed
	h.Quiet(30 * time.Millisecond)

	h.Send("position startpos moves a2a3", "go infinite")
	h.WaitReceived(0, "go infinite")
	h.Send("position startpos moves a2a3 h7h6", "go wtime 1000 btime 1000") // out of book
	if got := bestmoves(h, 2); len(got) != 2 {
		t.Fatalf("got %q", got)
	}
	h.Send("position startpos moves a2a3", "go wtime 1000 btime 1000")
	bestmoves(h, 1)
	if m := h.Engine(0).Misused(); len(m) > 0 {
		t.Fatalf("engine got a go while searching: %q", m)
	}
}

// A go while a book answer waits for ponderhit: that answer goes out as
// stopped, then the new go is answered.
func TestGoDuringBookPonder(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("position startpos", "go ponder")
	h.Quiet(30 * time.Millisecond)
	h.Send("position startpos moves a2a3", "go wtime 1000 btime 1000")
	got := bestmoves(h, 2)
	if got[0] != "bestmove e2e4 ponder c7c5" || got[1] != "bestmove a7a6" {
		t.Fatalf("got %q", got)
	}
}

// A go that arrives while a search runs that ends by itself (depth,
// nodes, movetime, mate, a clock) waits for that search's bestmove: the
// engine is never stopped by polyproxy, and the GUI's commands after the
// go wait too, so each search gets the position it was asked for and
// every go its bestmove, in order (as Stockfish alone, which takes no go
// until the running search ends).
func TestGoWaitsForSearchThatEndsByItself(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), func(_ int, s *ucitest.Settings) {
		s.SearchTime = 50 * time.Millisecond
		s.BestMove = "" // follows the game
	}, nil)
	h.Handshake()
	h.Send("position fen 8/8/8/8/8/8/8/K6k b - - 0 1", "go depth 16",
		"position fen 8/8/8/8/8/8/8/K6k w - - 0 1", "go nodes 1000",
		"position startpos", "go movetime 50", // the book's: after the engine's
		"position startpos moves a2a3", "go wtime 1000 btime 1000",
		"position startpos moves a2a3 a7a6", "go mate 3", "isready")
	got := bestmoves(h, 5)
	want := []string{"bestmove h1g1", "bestmove a1a2", "bestmove e2e4 ponder c7c5", "bestmove a7a5", "bestmove a1a2"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	rec := h.Engine(0).Received()
	if slices.Contains(rec, "stop") {
		t.Fatalf("the engine was stopped: %q", rec)
	}
	// A game line that extends the last one (read on a fast path) waits
	// as well: each go searches the position sent before it.
	h.Send("position startpos moves a2a3", "go depth 5", "position startpos moves a2a3 a7a5", "go depth 5",
		"position startpos moves a2a3 a7a5 b2b3", "go depth 5")
	if got := bestmoves(h, 3); !slices.Equal(got, []string{"bestmove a7a5", "bestmove a1a2", "bestmove a5a4"}) {
		t.Fatalf("got %q", got)
	}
	if m := h.Engine(0).Misused(); len(m) > 0 {
		t.Fatalf("engine got a go while searching: %q", m)
	}
}

// The GUI's stop while a go waits behind a search that ends by itself
// stops that go's search, as with the engine alone (which reads the stop
// only once the waiting go has started).
func TestStopAfterWaitingGo(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) {
		s.SearchTime = 100 * time.Millisecond
	}, nil)
	h.Handshake()
	h.Send("position startpos moves a2a3", "go movetime 100", "go infinite", "stop")
	start := time.Now()
	if got := bestmoves(h, 2); len(got) != 2 {
		t.Fatalf("got %q", got)
	}
	if d := time.Since(start); d < 90*time.Millisecond {
		t.Fatalf("the first search was cut short (%v)", d)
	}
	rec := h.Engine(0).Received()
	if i := slices.Index(rec, "go infinite"); i < 0 || i+1 >= len(rec) || rec[i+1] != "stop" {
		t.Fatalf("engine got %q", rec)
	}
}
