package core_test

// Tests of an engine death during play: the new engine gets the options,
// the game and the search, and the GUI every reply it is owed.

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestEngineDeathRestartsAndReissuesGo(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("setoption name Hash value 8", "ucinewgame", "position startpos moves d2d4", "go infinite")
	h.WaitReceived(0, "go infinite")
	h.Engine(0).Kill()
	if l := h.Next(); !strings.HasPrefix(l, "notice: the engine died") {
		t.Fatalf("got %q", l)
	}
	got := h.WaitReceived(1, "go infinite")
	want := []string{"uci", "setoption name Hash value 8", "ucinewgame", "position startpos moves d2d4", "go infinite"}
	if !slices.Equal(got, want) {
		t.Fatalf("new engine got %q\nwant %q", got, want)
	}
	if l := h.BestmoveAfter("stop"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if !strings.Contains(h.Stderr.String(), "the engine died") {
		t.Fatalf("stderr %q", h.Stderr.String())
	}
	// A second death within a minute ends polyproxy with an error.
	h.Engine(1).Kill()
	select {
	case err := <-h.Done:
		if !errors.Is(err, core.ErrEngineDied) {
			t.Fatalf("err %v", err)
		}
		h.Done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("still running after a second death")
	}
}

// A ponder search the GUI already turned into a real one (ponderhit) is
// re-issued without "ponder" after an engine death: the GUI waits for a
// bestmove, not for another ponderhit. The mover's clock is charged with
// the time since the ponder hit, the other clock left alone.
func TestRestartAfterPonderHitDropsPonder(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(n int, s *ucitest.Settings) {
		s.IgnorePonderHit = n == 0
	}, nil)
	h.Handshake()
	h.Send("position startpos moves e2e4 e7e5", "go ponder wtime 10000 btime 10000")
	h.WaitReceived(0, "go ponder")
	time.Sleep(time.Second) // the opponent's time: not charged
	h.Send("ponderhit")
	h.WaitReceived(0, "ponderhit")
	time.Sleep(100 * time.Millisecond)
	h.Engine(0).Kill()
	got := h.WaitReceived(1, "go")
	var wtime int
	if n, err := fmt.Sscanf(got[len(got)-1], "go wtime %d btime 10000", &wtime); n != 1 || err != nil || wtime > 9900 || wtime <= 8900 {
		t.Fatalf("re-issued %q", got[len(got)-1])
	}
	if l := h.BestmoveAfter(); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	h.Send("isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}

// The engine dies owing the bestmove of a search the GUI stopped, with our
// book answer to the next go waiting behind it: the GUI gets bestmove 0000
// for the lost one, then the book's, in order.
func TestEngineDeathOwingStoppedSearch(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), func(_ int, s *ucitest.Settings) { s.IgnoreStop = true }, nil)
	h.Handshake()
	h.Send("position startpos moves a2a3", "go infinite")
	h.WaitReceived(0, "go infinite")
	h.Send("stop", "position startpos", "go wtime 1000 btime 1000")
	h.WaitReceived(0, "stop")
	h.Quiet(30 * time.Millisecond) // the book answer waits for the engine's
	h.Engine(0).Kill()
	var got []string
	for len(got) < 2 {
		if l := h.Next(); strings.HasPrefix(l, "bestmove") {
			got = append(got, l)
		}
	}
	if got[0] != "bestmove 0000" || got[1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	h.WaitReceived(1, "ucinewgame")
	h.Send("isready")
	h.Until("readyok")
}

// The engine dies owing a readyok: the new engine is asked again, and the
// GUI gets its readyok.
func TestEngineDeathOwingReadyOK(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(n int, s *ucitest.Settings) {
		if n == 0 {
			s.ReadyDelay = time.Hour // never answers isready
		}
	}, nil)
	h.Send("uci")
	h.Until("uciok")
	h.Send("isready")
	h.WaitReceived(0, "isready")
	h.Engine(0).Kill()
	if l := h.Until("readyok"); !strings.HasPrefix(l[0], "notice: the engine died") {
		t.Fatalf("got %q", l)
	}
	if got := h.WaitReceived(1, "isready"); !proxytest.Contains(got, "isready") {
		t.Fatalf("new engine got %q", got)
	}
}

// A position that kills the engine, and the restarted engine again when
// the search is issued again: that search gets bestmove 0000 with an info
// string saying why, the position is not sent to an engine again, and the
// session goes on with a fresh engine (which may die once more, on another
// position, without ending the run).
func TestPoisonPositionAnsweredAndSessionGoesOn(t *testing.T) {
	poison := "position startpos moves f2f3 e7e5 g2g4"
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), func(n int, s *ucitest.Settings) {
		s.CrashIn = "g2g4"
	}, nil)
	h.Handshake()
	h.Send(poison, "go wtime 1000 btime 1000")
	got := h.Until("bestmove")
	if got[len(got)-1] != "bestmove 0000" || !proxytest.HasPrefix(got, "notice: the engine died twice in a search of this position (exit status 3)") {
		t.Fatalf("got %q", got)
	}
	h.WaitReceived(2, "ucinewgame")
	if got := h.Engine(2).Received(); slices.Contains(got, poison) {
		t.Fatalf("the fresh engine got the position again: %q", got)
	}
	// The next game is the fresh engine's.
	if l := h.BestmoveAfter("ucinewgame", "position startpos moves a2a3", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	// The same position again: answered at once, no engine dies.
	got = sendUntilBestmove(h, poison, "go wtime 1000 btime 1000")
	if got[len(got)-1] != "bestmove 0000" || !proxytest.HasPrefix(got, "no move: the engine died twice") {
		t.Fatalf("got %q", got)
	}
	// Another death, on another position: a restart as usual.
	h.Send("position startpos moves a2a3", "go infinite")
	h.WaitReceived(2, "go infinite")
	h.Engine(2).Kill()
	h.WaitReceived(3, "go infinite")
	if l := h.BestmoveAfter("stop"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if n := h.Started(); n != 4 {
		t.Fatalf("%d engines started, want 4", n)
	}
}

// sendUntilBestmove sends lines and reads up to the next bestmove.
func sendUntilBestmove(h *proxytest.Harness, lines ...string) []string {
	h.T.Helper()
	h.Send(lines...)
	return h.Until("bestmove")
}

// Restarted engines that die at start end the run with an error.
func TestRepeatedDeathsAtStartAreFatal(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(n int, s *ucitest.Settings) {
		if n > 0 {
			s.ExitOn = "uci"
		}
	}, nil)
	h.Handshake()
	h.Send("position startpos", "go infinite")
	h.WaitReceived(0, "go infinite")
	h.Engine(0).Kill()
	select {
	case err := <-h.Done:
		if !errors.Is(err, core.ErrEngineDied) {
			t.Fatalf("err %v", err)
		}
		h.Done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("still running")
	}
}

// A restarted engine that sends no id name is not described under the
// dead engine's name. (How a front names it: its own test.)
func TestRestartedEngineWithoutName(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(n int, s *ucitest.Settings) {
		s.NoName = n > 0
	}, nil)
	h.Handshake()
	h.Engine(0).Kill()
	h.WaitReceived(1, "ucinewgame")
	h.Send("uci")
	if got := h.Until("uciok"); !proxytest.Contains(got, "id name ") || proxytest.HasPrefix(got, "id name FakeEngine") {
		t.Fatalf("got %q", got)
	}
}

// A restarted engine gets the settings the GUI gave the dead one, never
// its actions: a button (Clear Hash, or one that crashes the engine) is
// pressed once, on the engine it was pressed for. (Through the CECP
// front's option command: its own test.)
func TestRestartReplaysSettingsNotButtons(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start func(t *testing.T) *proxytest.Harness
		set   []string // Skill Level 5, Clear Hash, then Crash
		ready func(h *proxytest.Harness)
	}{
		{"uci", func(t *testing.T) *proxytest.Harness {
			h := start(t, proxytest.Config(t, ""), nil, nil)
			h.Handshake()
			return h
		}, []string{"setoption name Skill Level value 5", "setoption name Clear Hash", "setoption name Crash"},
			func(h *proxytest.Harness) { h.Send("isready"); h.Until("readyok") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.start(t)
			h.Send(tc.set...)
			h.WaitReceived(0, "setoption name Crash")
			got := h.WaitReceived(1, "ucinewgame")
			if !proxytest.Contains(got, "setoption name Skill Level value 5") {
				t.Errorf("the setting was not replayed: new engine got %q", got)
			}
			for _, l := range got {
				if strings.HasPrefix(l, "setoption name Clear Hash") || strings.HasPrefix(l, "setoption name Crash") {
					t.Errorf("a button was pressed again: new engine got %q", got)
					break
				}
			}
			tc.ready(h)
			select {
			case err := <-h.Done:
				t.Fatalf("the run ended: %v", err)
			default:
			}
		})
	}
}
