package core_test

// Tests of the engine's searches: what it is sent, stop, ponderhit and
// the go variants that are never the book's.

import (
	"slices"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestOutOfBookForwardsPositionThenGo(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	pos := "position  startpos moves e2e4 e7e5 g1f3 b8c6 f1b5\ta7a6"
	h.Send(pos, "go wtime 900 btime 900")
	got := h.Until("bestmove")
	if got[len(got)-1] != "bestmove a7a6" || !proxytest.Contains(got, "info depth 1 score cp 21 nodes 1 time 0 pv a7a6") {
		t.Fatalf("got %q", got)
	}
	rec := h.Engine(0).Received()
	i := slices.Index(rec, pos)
	if i < 0 || i+1 >= len(rec) || rec[i+1] != "go wtime 900 btime 900" {
		t.Fatalf("engine got %q", rec)
	}
}

func TestStopWithoutSearchIsSwallowed(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("stop", "ponderhit")
	h.Quiet(50 * time.Millisecond)
	h.Send("isready")
	h.Until("readyok")
	for _, l := range h.Engine(0).Received() {
		if l == "stop" || l == "ponderhit" {
			t.Fatalf("engine got %q", l)
		}
	}
}

func TestStopDuringEngineSearch(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	// go infinite is analysis: never from the book, even in book.
	h.Send("position startpos", "go infinite")
	h.WaitReceived(0, "go infinite")
	h.Quiet(30 * time.Millisecond)
	if l := h.BestmoveAfter("stop", "stop"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	h.Send("isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("a second bestmove or other output: %q", l)
	}
	n := 0
	for _, l := range h.Engine(0).Received() {
		if l == "stop" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("engine got stop %d times", n)
	}
}

func TestGoMateUsesEngine(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos", "go mate 3"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
}

// "go perft" (Stockfish) counts move paths and sends no bestmove: it goes
// to the engine even in book, and nothing waits for a bestmove after it.
func TestGoPerftIsForwarded(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("position startpos", "go perft 1")
	h.WaitReceived(0, "go perft 1")
	if l := h.BestmoveAfter("go wtime 1000 btime 1000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
}

// With UCI_AnalyseMode on (python-chess sets it for analyse) the book never
// answers: the engine analyses, whatever the go. Off again (python-chess
// clears it for play), the book answers.
func TestAnalyseModeIsTheEngines(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	h := start(t, cfg, nil, nil)
	h.Handshake()
	if l := h.BestmoveAfter("setoption name UCI_AnalyseMode value true", "ucinewgame", "position startpos", "go depth 8"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("setoption name uci_analysemode value false", "position startpos", "go wtime 1000 btime 1000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	// Set in the configuration ([Engine], -uci), it holds from the start.
	cfg = proxytest.Config(t, proxytest.SmallBook(t))
	cfg.EngineOptions = []config.Option{{Name: "UCI_AnalyseMode", Value: "true"}}
	h = start(t, cfg, func(_ int, s *ucitest.Settings) {
		s.Options = append(slices.Clone(ucitest.DefaultOptions), "option name UCI_AnalyseMode type check default false")
	}, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
}
