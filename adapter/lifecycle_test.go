package adapter

// Tests of a run's start and end: an engine that cannot start, dies or
// never answers uci; quit and the end of the GUI's input.

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestMissingEngineIsFatal(t *testing.T) {
	var stderr strings.Builder
	a := New(testConfig(t, ""), Options{
		StartEngine: func() (Engine, error) { return nil, errors.New("no such file") },
		Stderr:      &stderr,
	})
	err := a.Run(strings.NewReader("uci\n"), &strings.Builder{})
	if err == nil || !strings.Contains(stderr.String(), "cannot start the engine: no such file") {
		t.Fatalf("err %v, stderr %q", err, stderr.String())
	}
}

func TestEngineDeathDuringHandshakeIsFatal(t *testing.T) {
	// It ends at the first line it gets: the adapter's uci.
	h := startHarness(t, testConfig(t, ""), func(_ int, s *ucitest.Settings) { s.ExitOn = "uci" }, nil)
	select {
	case err := <-h.done:
		if !errors.Is(err, ErrEngineDied) {
			t.Fatalf("err %v", err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("still running")
	}
}

// An engine that never answers uci (not a UCI engine) is reported on
// stderr, where the operator looks when the GUI says the engine hangs.
func TestSlowHandshakeReported(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), func(_ int, s *ucitest.Settings) { s.Mute = true }, nil)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(h.stderr.String(), "has not answered uci") {
		if time.Now().After(deadline) {
			t.Fatalf("no warning on stderr: %q", h.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(h.stderr.String(), `is "fake" a UCI engine?`) {
		t.Fatalf("the warning does not name the command: %q", h.stderr.String())
	}
	h.engine(0).Kill() // a death before the handshake ends the run
	if err := <-h.done; !errors.Is(err, ErrEngineDied) {
		t.Fatalf("err %v", err)
	}
	h.done <- nil
}

func TestQuitStopsEngine(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	h.send("quit")
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatal(err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after quit")
	}
	if !contains(h.engine(0).Received(), "quit") {
		t.Fatal("engine did not get quit")
	}
}

func TestEOFStopsEngine(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	h.guiW.Close()
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatal(err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after EOF")
	}
	select {
	case <-h.engine(0).Exited():
	default:
		t.Fatal("engine still running")
	}
}
