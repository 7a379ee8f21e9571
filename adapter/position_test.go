package adapter

// Tests of following the game: positions we cannot follow or cannot
// read, and long games.

import (
	"strings"
	"testing"
)

func TestIllegalMoveTurnsBookOffUntilNextGoodPosition(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	bad := "position startpos moves e2e5"
	h.send(bad)
	if l := h.next(); !strings.HasPrefix(l, "info string position not followed") || !strings.Contains(l, "e2e5") {
		t.Fatalf("got %q", l)
	}
	if l := h.bestmoveAfter("go"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	rec := h.engine(0).Received()
	if !contains(rec, bad) {
		t.Fatalf("engine did not get the GUI's line: %q", rec)
	}
	h.send("position startpos moves e2e4 zz")
	if l := h.next(); !strings.HasPrefix(l, "info string position not followed") {
		t.Fatalf("got %q", l)
	}
	if l := h.bestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("book not back: %q", l)
	}
}

// A position we cannot read never reaches the engine (Stockfish crashes on
// a bad FEN, and a restart would replay it into a fatal second crash): a
// go on it gets bestmove 0000 at once, and the next good position plays
// on as usual.
func TestUnreadablePositionNotSentToEngine(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	for _, bad := range []string{
		"position fen bad fen x y",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1",
		"position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 moves g1g2", // Black in check, White to move
		"position",
	} {
		h.send(bad)
		if l := h.next(); !strings.HasPrefix(l, "info string position not sent to the engine") {
			t.Fatalf("%s: got %q", bad, l)
		}
		if l := h.bestmoveAfter("go wtime 1000 btime 1000"); l != "bestmove 0000" {
			t.Fatalf("%s: got %q", bad, l)
		}
		for _, got := range h.engine(0).Received() {
			if got == bad || strings.HasPrefix(got, "go") {
				t.Fatalf("%s: the engine got %q", bad, got)
			}
		}
	}
	// Out of book: the engine searches the good position.
	if l := h.bestmoveAfter("position startpos moves a2a3", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if !contains(h.engine(0).Received(), "position startpos moves a2a3") {
		t.Fatal("good position not forwarded")
	}
}

// A long game (2,000 plies, 10 KB of moves) is followed and reaches the
// engine unchanged.
func TestLongPositionLine(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), nil, nil)
	h.handshake()
	moves := strings.Repeat(" g1f3 g8f6 f3g1 f6g8", 500)
	line := "position startpos moves" + moves
	if l := h.bestmoveAfter(line, "go"); l != "bestmove a7a6" { // move 1001: beyond BookDepth
		t.Fatalf("got %q", l)
	}
	if !contains(h.engine(0).Received(), line) {
		t.Fatal("engine did not get the long line")
	}
	// One more ply on top: followed incrementally, still no complaint.
	h.send(line+" e2e4", "isready")
	if l := h.next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}
