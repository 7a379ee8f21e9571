package ucifront_test

// Tests of the handshake: what the GUI sees of the engine, the options
// sent to it, and nothing before the GUI says uci.

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestUCIReplyWrapsEngine(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Send("uci")
	lines := h.Until("uciok")
	if lines[0] != "id name FakeEngine (polyproxy)" {
		t.Errorf("first line %q", lines[0])
	}
	for _, want := range []string{
		"id author polyproxy tests",
		"option name Hash type spin default 16 min 1 max 1024",
		"option name Polyglot Book type check default true",
		"option name Polyglot BookDepth type spin default 256 min 0 max 1000",
		"option name Polyglot BookTreshold type spin default 5 min 0 max 1000",
		"option name Polyglot BookMode type combo default best var weighted var best var uniform",
		"option name Polyglot BookLearn type check default false",
		"option name Polyglot BookAvoidRepetition type check default false",
	} {
		if !proxytest.Contains(lines, want) {
			t.Errorf("missing %q in %q", want, lines)
		}
	}
	if !proxytest.HasPrefix(lines, "option name Polyglot BookFile type string default /") {
		t.Errorf("no BookFile option in %q", lines)
	}
	if lines[len(lines)-1] != "uciok" {
		t.Errorf("last line %q", lines[len(lines)-1])
	}
	// A second uci is answered from what we know; the engine sees one.
	h.Send("uci")
	again := h.Until("uciok")
	if !slices.Equal(again, lines) {
		t.Errorf("second reply differs: %q", again)
	}
	n := 0
	for _, l := range h.Engine(0).Received() {
		if l == "uci" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("engine got uci %d times", n)
	}
}

func TestEngineNameOverride(t *testing.T) {
	cfg := proxytest.Config(t, "")
	cfg.EngineName = "My Engine"
	h := start(t, cfg, nil, nil)
	if l := h.Handshake()[0]; l != "id name My Engine" {
		t.Fatalf("got %q", l)
	}
}

func TestEngineOptionsFromConfig(t *testing.T) {
	cfg := proxytest.Config(t, "")
	cfg.EngineOptions = []config.Option{{Name: "hash", Value: "64"}, {Name: "Nope", Value: "1"}, {Name: "skill level", Value: "3"}}
	h := start(t, cfg, nil, nil)
	lines := h.Handshake()
	got := h.WaitReceived(0, "isready")
	want := []string{"uci", "setoption name Hash value 64", "setoption name Skill Level value 3", "isready"}
	if !slices.Equal(got, want) {
		t.Errorf("engine got %q, want %q", got, want)
	}
	// Announced with the configured values as defaults, as PolyGlot does.
	for _, want := range []string{
		"option name Hash type spin default 64 min 1 max 1024",
		"option name Skill Level type spin default 3 min 0 max 20",
		"option name UCI_Chess960 type check default false",
	} {
		if !proxytest.Contains(lines, want) {
			t.Errorf("no %q in %q", want, lines)
		}
	}
	if !proxytest.HasPrefix(lines, `info string [Engine] option "Nope" is not an option of the engine`) {
		t.Errorf("no info string about Nope in %q", lines)
	}
	if !strings.Contains(h.Stderr.String(), `"Nope"`) {
		t.Errorf("stderr: %q", h.Stderr.String())
	}
}

// Nothing reaches the GUI before it says uci, even when the engine talks
// at start-up (info strings, a banner).
func TestEngineStartupTalkNotRelayed(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) {
		s.Greeting = []string{"info string loading network", "Fake engine by testers", "info string ready"}
	}, nil)
	h.WaitReceived(0, "uci")
	time.Sleep(20 * time.Millisecond)
	h.Quiet(20 * time.Millisecond)
	h.Send("uci")
	if l := h.Next(); !strings.HasPrefix(l, "id name") {
		t.Fatalf("first line to the GUI %q", l)
	}
}
