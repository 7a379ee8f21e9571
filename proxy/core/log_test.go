package core_test

// Tests of the log: traffic and every decision with its reason.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/version"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

func TestLogRecordsTrafficAndDecisions(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.Log = true
	cfg.LogFile = filepath.Join(t.TempDir(), "polyproxy.log")
	h := start(t, cfg, nil, nil)
	h.Handshake()
	h.Send("position startpos", "go")
	h.Until("bestmove")
	h.Send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go")
	h.Until("bestmove")
	h.Send("quit")
	<-h.Done
	h.Done <- nil
	data, err := os.ReadFile(cfg.LogFile)
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, want := range []string{
		version.Get().String() + ": log started ",
		">engine uci", "engine> uciok", "gui> uci", ">gui uciok", "gui> position startpos",
		"book: " + cfg.BookFiles[0] + ": e2e4 chosen (best, weight 300 of 400, chance 100.0%, share 75.0%)",
		">gui bestmove e2e4 ponder c7c5",
		"book: no (" + cfg.BookFiles[0] + ": not in book)",
		">engine go", "engine> bestmove a7a6", ">gui bestmove a7a6",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		if _, err := time.Parse("15:04:05.000", l[:12]); err != nil {
			t.Fatalf("line without a millisecond time stamp: %q", l)
		}
	}
}

// Every reason the book gives no move, or skips an entry, is in the log.
func TestLogRecordsEveryBookReason(t *testing.T) {
	cfg := proxytest.Config(t, fixture.Path("oddities.bin"))
	cfg.BookThreshold = 5
	cfg.BookDepth = 50
	cfg.Log = true
	cfg.LogFile = filepath.Join(t.TempDir(), "polyproxy.log")
	h := start(t, cfg, nil, nil)
	h.Handshake()
	for _, l := range []string{
		"position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "go",
		"position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 90", "go",
		"position startpos moves e2e4", "go",
		"position startpos", "go infinite", "stop",
		"position startpos", "go mate 2",
		"position startpos moves e2e5", "go",
		"setoption name UCI_Chess960 value true", "position startpos", "go",
	} {
		h.Send(l)
		if strings.HasPrefix(l, "go") && l != "go infinite" || l == "stop" {
			h.Until("bestmove")
		}
	}
	h.Send("quit")
	<-h.Done
	h.Done <- nil
	data, err := os.ReadFile(cfg.LogFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"e2e4 chosen (best, weight 1000 of 1004, chance 100.0%, share 99.6%); not eligible: e2e3 below threshold (share 0.4%), e1e3 illegal here",
		"book: no (beyond BookDepth (move 90 > 50))",
		"all weights 0",
		"book: no (analysis (go infinite))",
		"book: no (mate search (go mate))",
		"book: no (position not followed)",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("log lacks %q\n%s", want, data)
		}
	}
}
