package core_test

import (
	"testing"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// harness is the shared one (proxytest), with this package's helpers on it.
type harness struct{ *proxytest.Harness }

func startHarness(t testing.TB, cfg *config.Config, setup func(n int, s *ucitest.Settings), obs core.GameObserver, adjust ...func(*core.Options)) *harness {
	return &harness{proxytest.Start(t, cfg, setup, obs, adjust...)}
}

func startXboard(t testing.TB, cfg *config.Config, obs core.GameObserver) (*harness, []string) {
	h, features := proxytest.StartXboard(t, cfg, obs)
	return &harness{h}, features
}

var (
	testConfig  = proxytest.Config
	smallBook   = proxytest.SmallBook
	contains    = proxytest.Contains
	hasPrefix   = proxytest.HasPrefix
	legalEngine = proxytest.LegalEngine
)

// bookEntry is a move and its weight after a line of moves from the start.
type bookEntry struct {
	moves, move string
	weight      uint16
}

// writeBook writes a small sorted Polyglot book (proxytest.WriteBook).
func writeBook(t testing.TB, entries []bookEntry) string {
	var es []proxytest.BookEntry
	for _, e := range entries {
		es = append(es, proxytest.BookEntry{Moves: e.moves, Move: e.move, Weight: e.weight})
	}
	return proxytest.WriteBook(t, es)
}

// Every test of the package again, on the poll loop.
func TestSuiteOnPollLoop(t *testing.T) { proxytest.RunOnPollLoop(t) }
