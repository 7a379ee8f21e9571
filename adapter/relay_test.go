package adapter

// Tests of the relay: the GUI's unknown commands reach the engine, the
// engine's lines reach the GUI unchanged (UCI only).

import "testing"

func TestUnknownCommandsForwarded(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	h.send("debug on", "register later", "xyzzy  plugh", "ucinewgame", "", "isready")
	h.until("readyok")
	got := h.engine(0).Received()
	for _, want := range []string{"debug on", "register later", "xyzzy  plugh", "ucinewgame"} {
		if !contains(got, want) {
			t.Errorf("engine did not get %q: %q", want, got)
		}
	}
}

func TestEngineLinesRelayedByteForByte(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	odd := "info string 100% sure\t tabs  and %s %d é"
	// Lines that are not UCI (an empty line, "Unknown command: ...") are
	// logged, not relayed: stdout carries UCI only.
	h.engine(0).Say(odd, "info string crlf\r", "", "   ", "Unknown command: xyzzy", "info depth 3 score cp 5 pv e2e4")
	for _, want := range []string{odd, "info string crlf", "info depth 3 score cp 5 pv e2e4"} {
		if l := h.next(); l != want {
			t.Fatalf("got %q want %q", l, want)
		}
	}
}
