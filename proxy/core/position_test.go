package core_test

// Tests of following the game: positions we cannot follow or cannot
// read, and long games.

import (
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"strings"
	"testing"
)

func TestIllegalMoveTurnsBookOffUntilNextGoodPosition(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	bad := "position startpos moves e2e5"
	h.Send(bad)
	if l := h.Next(); !strings.HasPrefix(l, "notice: position not followed") || !strings.Contains(l, "e2e5") {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("go"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	rec := h.Engine(0).Received()
	if !proxytest.Contains(rec, bad) {
		t.Fatalf("engine did not get the GUI's line: %q", rec)
	}
	h.Send("position startpos moves e2e4 zz")
	if l := h.Next(); !strings.HasPrefix(l, "notice: position not followed") {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("book not back: %q", l)
	}
}

// A position we cannot read never reaches the engine (Stockfish crashes on
// a bad FEN, and a restart would replay it into a fatal second crash): a
// go on it gets bestmove 0000 at once, and the next good position plays
// on as usual.
func TestUnreadablePositionNotSentToEngine(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	for _, bad := range []string{
		"position fen bad fen x y",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1",
		"position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1 moves g1g2", // Black in check, White to move
		"position",
	} {
		h.Send(bad)
		if l := h.Next(); !strings.HasPrefix(l, "notice: position not sent to the engine") {
			t.Fatalf("%s: got %q", bad, l)
		}
		if l := h.BestmoveAfter("go wtime 1000 btime 1000"); l != "bestmove 0000" {
			t.Fatalf("%s: got %q", bad, l)
		}
		for _, got := range h.Engine(0).Received() {
			if got == bad || strings.HasPrefix(got, "go") {
				t.Fatalf("%s: the engine got %q", bad, got)
			}
		}
	}
	// Out of book: the engine searches the good position.
	if l := h.BestmoveAfter("position startpos moves a2a3", "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	if !proxytest.Contains(h.Engine(0).Received(), "position startpos moves a2a3") {
		t.Fatal("good position not forwarded")
	}
}

// A long game (2,000 plies, 10 KB of moves) is followed and reaches the
// engine unchanged.
func TestLongPositionLine(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	moves := strings.Repeat(" g1f3 g8f6 f3g1 f6g8", 500)
	line := "position startpos moves" + moves
	if l := h.BestmoveAfter(line, "go"); l != "bestmove a7a6" { // move 1001: beyond BookDepth
		t.Fatalf("got %q", l)
	}
	if !proxytest.Contains(h.Engine(0).Received(), line) {
		t.Fatal("engine did not get the long line")
	}
	// One more ply on top: followed incrementally, still no complaint.
	h.Send(line+" e2e4", "isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}

// FENs that engines and python-chess accept are played, not refused: the
// engine gets each one normalised, so a castling right without its rook or
// an en-passant square no pawn can take (which crash Stockfish) never
// reaches it.
func TestLenientFENsReachEngineNormalised(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	for _, tc := range []struct{ fen, sent string }{
		{"4k3/8/8/8/8/8/8/4K2R w K - 0", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},               // 5 fields
		{"4k3/8/8/8/8/8/8/4K2R w K - 3 0", "4k3/8/8/8/8/8/8/4K2R w K - 3 1"},             // move number 0
		{"4k3/8/8/8/8/8/8/4K2R w K - - -", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},             // counters as "-"
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1 x", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"},           // 7 fields
		{"4k3/8/8/8/8/8/8/4K2R w K - -5 9", "4k3/8/8/8/8/8/8/4K2R w K - 0 9"},            // negative counter
		{"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"}, // Shredder letters
		{"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"},       // rights without rooks
		{"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"},          // no pawn to take e.p.
		{"4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},                         // placement only
	} {
		line := "position fen " + tc.fen + " moves e1e2"
		if l := h.BestmoveAfter(line, "go wtime 1000 btime 1000"); l != "bestmove a7a6" {
			t.Fatalf("%s: got %q", tc.fen, l)
		}
		rec := h.Engine(0).Received()
		if want := "position fen " + tc.sent + " moves e1e2"; rec[len(rec)-2] != want {
			t.Fatalf("%s: engine got %q, want %q", tc.fen, rec[len(rec)-2], want)
		}
	}
}

// A position that cannot be played is answered bestmove 0000, and the info
// string says why.
func TestRefusedPositionSaysWhy(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), nil, nil)
	h.Handshake()
	h.Send("position fen 4k3/8/8/8/8/8/8/8 w - - 0 1")
	h.Next() // the notice about the position
	h.Send("go depth 1")
	got := h.Until("bestmove")
	if len(got) != 2 || !strings.HasPrefix(got[0], "no move: bad FEN") || !strings.Contains(got[0], "exactly one king") || got[1] != "bestmove 0000" {
		t.Fatalf("got %q", got)
	}
}
