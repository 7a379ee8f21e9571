package ucifront_test

// Tests of the relay: the GUI's unknown commands reach the engine, the
// engine's lines reach the GUI unchanged, and the answers to the user's
// own commands come as from the engine alone.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestUnknownCommandsForwarded(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.Handshake()
	h.Send("debug on", "register later", "xyzzy  plugh", "ucinewgame", "", "isready")
	h.Until("readyok")
	got := h.Engine(0).Received()
	for _, want := range []string{"debug on", "register later", "xyzzy  plugh", "ucinewgame"} {
		if !contains(got, want) {
			t.Errorf("engine did not get %q: %q", want, got)
		}
	}
}

// After the handshake every engine line reaches the GUI byte for byte:
// info lines, and the lines that answer the user's own commands (an empty
// line, "Unknown command: ...").
func TestEngineLinesRelayedByteForByte(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
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
	h := startHarness(t, testConfig(t, smallBook(t)), func(_ int, s *ucitest.Settings) {
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
