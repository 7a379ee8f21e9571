package proxy_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/proxy"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// The GUI's first line that says anything chooses the front: "xboard" or
// "protover" CECP, anything else UCI; what the core said before (a book it
// cannot open) reaches the GUI through the front chosen, in its protocol.
func TestFirstLineChoosesTheFront(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.bin")
	for _, tc := range []struct {
		first  []string
		until  string
		notice string // how the book's notice reaches the GUI
	}{
		{[]string{"", "  ", "uci"}, "uciok", "info string book " + missing + " not used"},
		{[]string{"", "xboard", "protover 2"}, "feature done=1", "# book " + missing + " not used"},
		{[]string{"protover 2"}, "feature done=1", "# book " + missing + " not used"},
	} {
		h := proxytest.Start(t, proxytest.Config(t, missing), proxy.NewFront, nil, nil)
		h.Send(tc.first...)
		lines := h.Until(tc.until)
		if tc.until == "uciok" {
			lines = append(lines, h.Next())
		}
		if !proxytest.HasPrefix(lines, tc.notice) {
			t.Errorf("%q: no %q in %q", tc.first, tc.notice, lines)
		}
		if uci := proxytest.HasPrefix(lines, "id name"); uci != (tc.until == "uciok") {
			t.Errorf("%q: the wrong front answered: %q", tc.first, lines)
		}
		for _, l := range lines {
			if strings.HasPrefix(l, "info string") && tc.until != "uciok" {
				t.Errorf("%q: %q to a CECP GUI", tc.first, l)
			}
		}
	}
}

// Every test of the package again, on the poll loop.
func TestSuiteOnPollLoop(t *testing.T) { proxytest.RunOnPollLoop(t) }
