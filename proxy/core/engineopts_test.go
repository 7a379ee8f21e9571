package core_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

func TestConfiguredOptionsFitted(t *testing.T) {
	cfg := proxytest.Config(t, "")
	cfg.EngineOptions = []config.Option{{Name: "Hash", Value: "0"}, {Name: "skill level", Value: "99"},
		{Name: "Ponder", Value: "maybe"}, {Name: "Style", Value: "risky"}}
	h := start(t, cfg, nil, nil)
	lines := h.Handshake()
	got := h.WaitReceived(0, "isready")
	want := []string{"uci", "setoption name Hash value 1", "setoption name Skill Level value 20", "setoption name Style value Risky", "isready"}
	if !slices.Equal(got, want) {
		t.Errorf("engine got %q, want %q", got, want)
	}
	for _, want := range []string{
		"option name Hash type spin default 1 min 1 max 1024",
		"option name Skill Level type spin default 20 min 0 max 20",
		"option name Ponder type check default false",
		"option name Style type combo default Risky var Solid var Normal var Risky",
		"notice: [Engine] option Hash: 0 is below the option's minimum: 1 sent",
		"notice: [Engine] option Skill Level: 99 is above the option's maximum: 20 sent",
		`notice: [Engine] option Ponder: "maybe" is not true or false: not sent`,
	} {
		if !proxytest.Contains(lines, want) {
			t.Errorf("no %q in %q", want, lines)
		}
	}
	if !strings.Contains(h.Stderr.String(), "0 is below the option's minimum") {
		t.Errorf("stderr %q", h.Stderr.String())
	}
}
