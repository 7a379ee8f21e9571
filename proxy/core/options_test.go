package core_test

// Tests of setoption: ours (Polyglot ...) and the engine's, at run time.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/config"
)

func TestSetOptionRouting(t *testing.T) {
	cfg := testConfig(t, smallBook(t))
	h := startHarness(t, cfg, nil, nil)
	h.Handshake()
	h.Send("setoption name Hash value 32", "setoption name Polyglot Book value false", "isready")
	h.Until("readyok")
	got := h.WaitReceived(0, "setoption name Hash")
	for _, l := range got {
		if strings.Contains(l, "Polyglot") {
			t.Errorf("our option reached the engine: %q", l)
		}
	}
	if !contains(got, "setoption name Hash value 32") {
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
	if l := h.Next(); !strings.HasPrefix(l, "info string setoption Polyglot BookDepth") {
		t.Fatalf("got %q", l)
	}
}

// Our options as the GUI sees them, and "<empty>", UCI's empty string,
// echoed back by a GUI.
func TestOurOptions(t *testing.T) {
	cfg := testConfig(t, smallBook(t))
	cfg.LogFile = ""
	h := startHarness(t, cfg, nil, nil)
	lines := h.Handshake()
	for _, name := range []string{"Book", "BookFile", "BookDepth", "BookTreshold", "BookRandom", "BookMode",
		"BookAvoidRepetition", "BookLearn", "BookLearnWeight", "BookSeed", "LearnResignScore", "LearnResignMoves", "Log", "LogFile"} {
		if !hasPrefix(lines, "option name Polyglot "+name+" type ") {
			t.Errorf("option Polyglot %s not announced", name)
		}
	}
	if !contains(lines, "option name Polyglot LogFile type string default <empty>") {
		t.Errorf("empty LogFile not announced as <empty>: %q", lines)
	}
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
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.Handshake()
	h.Send("setoption name UCI_Chess960 value true")
	if l := h.Next(); !strings.Contains(l, "Chess960") {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	if !contains(h.Engine(0).Received(), "setoption name UCI_Chess960 value true") {
		t.Fatal("UCI_Chess960 not forwarded")
	}
}

// UCI_Chess960 set by the ini's [Engine] section (or -uci) is followed as
// setoption's: castling is king takes rook until it is set false again.
func TestChess960FromConfig(t *testing.T) {
	cfg := testConfig(t, smallBook(t))
	cfg.EngineOptions = append(cfg.EngineOptions, config.Option{Name: "uci_chess960", Value: "true"})
	h := startHarness(t, cfg, nil, nil)
	lines := h.Handshake()
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "Chess960 is on") }) {
		t.Fatalf("no notice: %q", lines)
	}
	if !contains(h.Engine(0).Received(), "setoption name UCI_Chess960 value true") {
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
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.Handshake()
	other := writeBook(t, []bookEntry{{"", "g1f3", 5}})
	h.Send("setoption name Polyglot BookFile value "+other, "position startpos", "go")
	if l := h.Until("bestmove"); l[len(l)-1] != "bestmove g1f3" || !strings.HasPrefix(l[0], "info string book "+other+" opened (1 entries)") ||
		!strings.Contains(l[1], "(weight 5, chance 100.0%, share 100.0%, test.bin)") {
		t.Fatalf("got %q", l)
	}
}

func TestLogSwitchedOnAtRunTime(t *testing.T) {
	cfg := testConfig(t, "")
	h := startHarness(t, cfg, nil, nil)
	h.Handshake()
	logFile := filepath.Join(t.TempDir(), "late.log")
	h.Send("setoption name Polyglot LogFile value "+logFile, "setoption name Polyglot Log value true", "isready")
	h.Until("readyok")
	data, err := os.ReadFile(logFile)
	if err != nil || !strings.Contains(string(data), "gui> isready") {
		t.Fatalf("log %q, %v", data, err)
	}
}
