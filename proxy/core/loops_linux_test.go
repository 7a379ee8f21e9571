//go:build linux

package core_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// The poll loop spins only when an answer is due at once (answerDue):
// never while the engine searches and prints info lines.
func TestPollLoopSpinsOnlyWhenAnswerDue(t *testing.T) {
	if !proxytest.OnPollLoop {
		t.Skip("runs on the poll loop (TestSuiteOnPollLoop)")
	}
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	spins := h.Core.Spins
	time.Sleep(10 * time.Millisecond) // the loop has begun the wait after readyok
	before := spins()
	h.Send("position startpos", "go infinite")
	h.WaitReceived(0, "go infinite")
	for i := range 50 {
		h.Engine(0).Say("info depth " + strconv.Itoa(i+1) + " score cp 3 pv e2e4")
	}
	for range 50 {
		if l := h.Next(); !strings.HasPrefix(l, "info depth") {
			t.Fatalf("got %q", l)
		}
	}
	if got := spins(); got != before {
		t.Fatalf("%d busy-waits during a search", got-before)
	}
	h.Send("stop")
	h.Until("bestmove")
	h.Send("isready")
	h.Until("readyok")
	time.Sleep(10 * time.Millisecond) // the loop has begun the wait after readyok
	// After the bestmove (the GUI's turn), after isready (the engine's
	// readyok), after readyok (the GUI's turn).
	if got := spins() - before; got != 3 {
		t.Fatalf("%d busy-waits after bestmove, isready, readyok; want 3", got)
	}
}

// The harness runs the loop its mode asks for.
func TestHarnessLoop(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	if got := h.Core.Polling(); got != proxytest.OnPollLoop {
		t.Fatalf("poll loop running: %v, want %v", got, proxytest.OnPollLoop)
	}
}
