package core_test

// Tests of setoption: ours (Polyglot ...) and the engine's, at run time.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

func TestSetOptionRouting(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	h := start(t, cfg, nil, nil)
	h.Handshake()
	h.Send("setoption name Hash value 32", "setoption name Polyglot Book value false", "isready")
	h.Until("readyok")
	got := h.WaitReceived(0, "setoption name Hash")
	for _, l := range got {
		if strings.Contains(l, "Polyglot") {
			t.Errorf("our option reached the engine: %q", l)
		}
	}
	if !proxytest.Contains(got, "setoption name Hash value 32") {
		t.Errorf("engine got %q", got)
	}
	// Book now off: go goes to the engine.
	if l := h.BestmoveAfter("position startpos", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	// And on again.
	if l := h.BestmoveAfter("setoption name Polyglot Book value true", "position startpos", "go wtime 1000 btime 1000"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	// A bad value is reported, not applied.
	h.Send("setoption name Polyglot BookDepth value lots")
	if l := h.Next(); !strings.HasPrefix(l, "notice: setoption Polyglot BookDepth") {
		t.Fatalf("got %q", l)
	}
}

// "<empty>", UCI's empty string, echoed back by a GUI for an empty book
// list, is no error: the book is off. (How our options are announced: the
// UCI front's test.)
func TestEmptyBookListFromGUI(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("setoption name Polyglot BookFile value <empty>", "isready")
	if got := h.Until("readyok"); len(got) != 1 {
		t.Fatalf("an empty book list is no error: %q", got)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
		t.Fatalf("book still on: %q", l)
	}
}

// UCI_Chess960 goes to the engine, and a standard book still answers at
// the standard start, which is one of Chess960's.
func TestChess960KeepsBookOn(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("setoption name UCI_Chess960 value true")
	if l := h.Next(); !strings.Contains(l, "Chess960") {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	if !proxytest.Contains(h.Engine(0).Received(), "setoption name UCI_Chess960 value true") {
		t.Fatal("UCI_Chess960 not forwarded")
	}
}

// UCI_Chess960 set by the ini's [Engine] section (or -uci) is followed as
// setoption's: castling is king takes rook until it is set false again.
func TestChess960FromConfig(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.EngineOptions = append(cfg.EngineOptions, config.Option{Name: "uci_chess960", Value: "true"})
	h := start(t, cfg, nil, nil)
	lines := h.Handshake()
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "Chess960 is on") }) {
		t.Fatalf("no notice: %q", lines)
	}
	if !proxytest.Contains(h.Engine(0).Received(), "setoption name UCI_Chess960 value true") {
		t.Fatal("option not sent in the engine's spelling")
	}
	if l := h.BestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove c7c5" {
		t.Fatalf("no book answer in a Chess960 game: %q", l)
	}
	h.Send("setoption name UCI_Chess960 value false")
	if l := h.Next(); !strings.Contains(l, "Chess960 is off") {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("book not back: %q", l)
	}
}

func TestBookFileChangedAtRunTime(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	other := proxytest.WriteBook(t, []proxytest.BookEntry{{Moves: "", Move: "g1f3", Weight: 5}})
	h.Send("setoption name Polyglot BookFile value "+other, "position startpos", "go")
	if l := h.Until("bestmove"); l[len(l)-1] != "bestmove g1f3" || !strings.HasPrefix(l[0], "notice: book "+other+" opened (1 entries)") ||
		!strings.Contains(l[1], "(weight 5, chance 100.0%, share 100.0%, test.bin)") {
		t.Fatalf("got %q", l)
	}
}

func TestLogSwitchedOnAtRunTime(t *testing.T) {
	cfg := proxytest.Config(t, "")
	h := start(t, cfg, nil, nil)
	h.Handshake()
	logFile := filepath.Join(t.TempDir(), "late.log")
	h.Send("setoption name Polyglot LogFile value "+logFile, "setoption name Polyglot Log value true", "isready")
	h.Until("readyok")
	data, err := os.ReadFile(logFile)
	if err != nil || !strings.Contains(string(data), "gui> isready") {
		t.Fatalf("log %q, %v", data, err)
	}
}
