package ucifront_test

// Tests of the relay: the GUI's unknown commands reach the engine, the
// engine's lines reach the GUI unchanged, and the answers to the user's
// own commands come as from the engine alone.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/proxy/ucifront"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestUnknownCommandsForwarded(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	h.Send("debug on", "register later", "xyzzy  plugh", "ucinewgame", "", "isready")
	h.Until("readyok")
	got := h.Engine(0).Received()
	for _, want := range []string{"debug on", "register later", "xyzzy  plugh", "ucinewgame"} {
		if !proxytest.Contains(got, want) {
			t.Errorf("engine did not get %q: %q", want, got)
		}
	}
}

// After the handshake every engine line reaches the GUI byte for byte:
// info lines, and the lines that answer the user's own commands (an empty
// line, "Unknown command: ...").
func TestEngineLinesRelayedByteForByte(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	odd := "info string 100% sure\t tabs  and %s %d é"
	h.Engine(0).Say(odd, "info string crlf\r", "", "   ", "Unknown command: xyzzy", "info depth 3 score cp 5 pv e2e4")
	for _, want := range []string{odd, "info string crlf", "", "   ", "Unknown command: xyzzy", "info depth 3 score cp 5 pv e2e4"} {
		if l := h.Next(); l != want {
			t.Fatalf("got %q want %q", l, want)
		}
	}
}

// The user's own commands: the engine sees the game's position before d
// (and eval, and anything else it does not know), its answer reaches the
// GUI verbatim, and a book answer asked for afterwards comes after it, as
// from the engine alone. go perft counts, without a bestmove.
func TestUserCommandsAnsweredInOrder(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), func(_ int, s *ucitest.Settings) {
		s.BestMove = "" // follows the game: d shows it
	}, nil)
	h.Handshake()
	h.Send("position startpos moves e2e4", "d", "go wtime 1000 btime 1000")
	got := h.Until("bestmove")
	if len(got) != 6 || got[0] != "" || got[1] != "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" ||
		!strings.HasPrefix(got[3], "info string book move c7c5") || got[5] != "bestmove c7c5" {
		t.Fatalf("got %q", got)
	}
	rec := h.Engine(0).Received()
	if i := slices.Index(rec, "d"); i < 1 || rec[i-1] != "position startpos moves e2e4" {
		t.Fatalf("engine got %q", rec)
	}
	h.Send("go perft 1", "isready")
	got = h.Until("readyok")
	if want := []string{"a1a3: 1", "", "Nodes searched: 20", "", "readyok"}; !slices.Equal(got, want) {
		t.Fatalf("perft: got %q, want %q", got, want)
	}
	// The position is sent once: d again needs none.
	h.Send("d", "isready")
	h.Until("readyok")
	n := 0
	for _, l := range h.Engine(0).Received() {
		if l == "position startpos moves e2e4" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("position sent %d times: %q", n, h.Engine(0).Received())
	}
	h.Quiet(20 * time.Millisecond)
}

// A book's answer as a UCI GUI gets it: the move and its weight, share
// and book in an info string, a score before it as some hosts (fastchess)
// want before every bestmove, then the bestmove with the book's reply to
// ponder on.
func TestBookAnswerInUCI(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("position startpos", "go wtime 1000 btime 1000 winc 10 binc 10")
	got := h.Until("bestmove")
	want := []string{
		"info string book move e2e4 (weight 300, chance 100.0%, share 75.0%, test.bin)",
		"info depth 1 score cp 0 time 0 nodes 0 pv e2e4",
		"bestmove e2e4 ponder c7c5",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// A restarted engine that sends no id name is announced as polyproxy, not
// under the dead engine's name.
func TestRestartedEngineWithoutName(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(n int, s *ucitest.Settings) {
		s.NoName = n > 0
	}, nil)
	h.Handshake()
	h.Engine(0).Kill()
	h.WaitReceived(1, "ucinewgame")
	h.Send("uci")
	if got := h.Until("uciok"); !proxytest.Contains(got, "id name polyproxy") || proxytest.HasPrefix(got, "id name FakeEngine") {
		t.Fatalf("got %q", got)
	}
}

// start runs the proxy for cfg and obs behind the UCI front.
func start(t testing.TB, cfg *config.Config, setup func(n int, s *ucitest.Settings), obs core.GameObserver, adjust ...func(*core.Options)) *proxytest.Harness {
	return proxytest.Start(t, cfg, func(c *core.Core) core.Front { return ucifront.New(c) }, setup, obs, adjust...)
}

// Every test of the package again, on the poll loop.
func TestSuiteOnPollLoop(t *testing.T) { proxytest.RunOnPollLoop(t) }
