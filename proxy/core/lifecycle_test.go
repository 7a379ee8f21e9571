package core_test

// Tests of a run's start and end: an engine that cannot start, dies or
// never answers uci; quit and the end of the GUI's input.

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestMissingEngineIsFatal(t *testing.T) {
	var stderr strings.Builder
	a := core.New(proxytest.Config(t, ""), core.Options{
		StartEngine: func() (core.Engine, error) { return nil, errors.New("no such file") },
		Stderr:      &stderr,
	})
	err := a.Run(strings.NewReader("uci\n"), &strings.Builder{}, proxytest.Script(a))
	if err == nil || !strings.Contains(stderr.String(), "cannot start the engine: no such file") {
		t.Fatalf("err %v, stderr %q", err, stderr.String())
	}
}

func TestEngineDeathDuringHandshakeIsFatal(t *testing.T) {
	// It ends at the first line it gets: the proxy's uci.
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.ExitOn = "uci" }, nil)
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

// An engine that never answers uci (not a UCI engine) is reported on
// stderr, where the operator looks when the GUI says the engine hangs.
func TestSlowHandshakeReported(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.Mute = true }, nil,
		func(o *core.Options) { o.SlowHandshake = 200 * time.Millisecond })
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(h.Stderr.String(), "has not answered uci") {
		if time.Now().After(deadline) {
			t.Fatalf("no warning on stderr: %q", h.Stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(h.Stderr.String(), `is "fake" a UCI engine?`) {
		t.Fatalf("the warning does not name the command: %q", h.Stderr.String())
	}
	h.Engine(0).Kill() // a death before the handshake ends the run
	if err := <-h.Done; !errors.Is(err, core.ErrEngineDied) {
		t.Fatalf("err %v", err)
	}
	h.Done <- nil
}

func TestQuitStopsEngine(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	h.Send("quit")
	select {
	case err := <-h.Done:
		if err != nil {
			t.Fatal(err)
		}
		h.Done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after quit")
	}
	if !proxytest.Contains(h.Engine(0).Received(), "quit") {
		t.Fatal("engine did not get quit")
	}
}

func TestEOFStopsEngine(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	h.GUI.Close()
	select {
	case err := <-h.Done:
		if err != nil {
			t.Fatal(err)
		}
		h.Done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after EOF")
	}
	select {
	case <-h.Engine(0).Exited():
	default:
		t.Fatal("engine still running")
	}
}

// ended waits for the run to end and returns all the GUI got until then.
func ended(h *proxytest.Harness, within time.Duration) []string {
	h.T.Helper()
	var got []string
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-h.Out:
			if !ok {
				if err := <-h.Done; err != nil {
					h.T.Fatalf("run ended with %v; got %q", err, got)
				}
				h.Done <- nil
				return got
			}
			got = append(got, l)
		case <-deadline:
			h.T.Fatalf("still running after %v; got %q", within, got)
		}
	}
}

// withoutInfo drops info lines.
func withoutInfo(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "info") && !strings.HasPrefix(l, "book move ") {
			out = append(out, l)
		}
	}
	return out
}

// quit and the end of input are commands in the stream: everything asked
// before them is answered as the engine alone answers it (a readyok; the
// bestmove of a book answer; the bestmove of a running search, which the
// engine gives on quit), and the engine's output reaches the GUI until it
// has left.
func TestQuitAndEOFAnswerEverythingBefore(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input string // what the GUI writes, then it closes its end
		want  []string
	}{
		{"quit during a search", "isready\nposition startpos moves a2a3\ngo movetime 100000\nisready\nquit\n",
			[]string{"readyok", "readyok", "bestmove a7a6"}},
		{"end of input during a search", "isready\nposition startpos moves a2a3\ngo movetime 100000\nisready\n",
			[]string{"readyok", "readyok", "bestmove a7a6"}},
		{"book answer", "isready\nposition startpos\ngo movetime 100000\nisready\nquit\n",
			[]string{"readyok", "bestmove e2e4 ponder c7c5", "readyok"}},
		{"go infinite, stop, quit", "position startpos moves a2a3\ngo infinite\nstop\nquit\n", []string{"bestmove a7a6"}},
		{"book ponder at quit", "position startpos\ngo ponder\nquit\n", []string{"bestmove e2e4 ponder c7c5"}},
		{"isready, quit", "isready\nquit\n", []string{"readyok"}},
		{"last line without newline", "isready\nisready", []string{"readyok", "readyok"}},
		{"user command at the end", "position startpos moves a2a3\ngo perft 1\nxyzzy", []string{
			"a1a3: 1", "", "Nodes searched: 20", "", "Unknown command: 'xyzzy'. Type help for more information."}},
		{"lines after quit are not read", "isready\nquit\nisready\n", []string{"readyok"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), func(_ int, s *ucitest.Settings) {
				s.SearchTime = time.Hour // only stop (or quit) ends a timed search
			}, nil)
			h.Send("uci")
			h.Until("uciok")
			io.WriteString(h.GUI, tc.input)
			h.GUI.Close()
			if got := withoutInfo(h.Ended(5 * time.Second)); !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// An engine that stays after quit (and does not stop its search) has its
// grace, then is ended; the go it owed still gets a bestmove.
func TestQuitEngineThatStays(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) {
		s.IgnoreQuit, s.IgnoreStop = true, true
	}, nil, func(o *core.Options) { o.QuitGrace = 50 * time.Millisecond })
	h.Handshake()
	start := time.Now()
	h.Send("go infinite", "quit")
	if got := withoutInfo(h.Ended(5 * time.Second)); !slices.Equal(got, []string{"bestmove 0000"}) {
		t.Fatalf("got %q", got)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("quit took %v", d)
	}
}

// A quit during a slow handshake: with nothing before it to answer, the
// run ends at once; with a uci or an isready before it, they are answered
// first when the handshake comes in time, and the run ends at QuitWait
// when it does not.
func TestQuitDuringSlowHandshake(t *testing.T) {
	t.Run("nothing to answer", func(t *testing.T) {
		// QuitWait an hour: a quit that waited for the handshake would
		// not end.
		h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.StartDelay = time.Hour }, nil,
			func(o *core.Options) { o.QuitWait = time.Hour })
		h.Send("setoption name Hash value 1", "quit")
		if got := h.Ended(time.Minute); len(got) != 0 {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("answered", func(t *testing.T) {
		h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.StartDelay = 100 * time.Millisecond }, nil)
		h.Send("uci", "isready", "quit")
		got := h.Ended(5 * time.Second)
		if len(got) < 2 || got[len(got)-2] != "uciok" || got[len(got)-1] != "readyok" {
			t.Fatalf("got %q", got)
		}
	})
	t.Run("handshake never comes", func(t *testing.T) {
		h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.Mute = true }, nil,
			func(o *core.Options) { o.QuitWait = 300 * time.Millisecond })
		// The engine never answers: the run ends at QuitWait, unanswered.
		h.Send("uci", "isready", "quit")
		if got := h.Ended(time.Minute); len(got) != 0 {
			t.Fatalf("got %q", got)
		}
	})
}
