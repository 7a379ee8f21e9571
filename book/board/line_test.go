package board

import (
	"strings"
	"testing"
)

// Castling out of check, and through an attacked square, is refused.
func TestLineRefusesCastlingOutOfCheck(t *testing.T) {
	l := mustLine(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8")
	for _, m := range []string{"e8g8", "e8h8", "e8c8"} {
		mv, _ := ParseMove(m)
		if _, err := l.Play(mv); err == nil {
			t.Errorf("%s played out of check", m)
		}
	}
	for _, m := range l.Pos.LegalMoves() {
		if m == NewMove(60, 62, NoPromo) || m == NewMove(60, 58, NoPromo) {
			t.Errorf("castling %s listed as legal in check", m)
		}
	}
	if _, err := l.Pos.LegalMove(NewMove(60, 62, NoPromo)); err == nil {
		t.Error("castling judged legal in check")
	}
	// Castling through an attacked square (f8, by the rook on f1) is
	// refused; the other side is fine, in the king-takes-rook spelling too.
	l = mustLine(t, "r3k2r/8/8/8/8/8/8/R3KR2 b Qkq - 0 1", "")
	if _, err := l.Play(NewMove(60, 62, NoPromo)); err == nil {
		t.Error("castled through the attacked f8")
	}
	if m, err := l.Play(NewMove(60, 56, NoPromo)); err != nil || m.String() != "e8c8" {
		t.Errorf("e8a8: %s %v", m, err)
	}
}

func TestLinePlayMoves(t *testing.T) {
	l := mustLine(t, "", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1")
	if got := l.Pos.Key(); got != l.Pos.ComputeKey() || len(l.Keys) != 8 || l.Keys[7] != got {
		t.Errorf("key %s, %d keys", got, len(l.Keys))
	}
	if got := l.Pos.FEN(); got != "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4" {
		t.Errorf("castling e1h1 gave %s", got)
	}
	if !l.Seen(StartPosition().Key()) || l.Seen(0) {
		t.Error("Seen")
	}
	if _, err := NewLine("startpos"); err != nil {
		t.Error(err)
	}
	err := mustLine(t, "", "").PlayMoves(strings.Fields("e2e4 e7e5 e4e5"), 0)
	if err == nil || !strings.Contains(err.Error(), "move 3 (e4e5)") {
		t.Errorf("error %v", err)
	}
	err = mustLine(t, "", "e2e4").PlayMoves([]string{"e7e5", "e4e5"}, 1)
	if err == nil || !strings.Contains(err.Error(), "move 3 (e4e5)") {
		t.Errorf("error counting from 1: %v", err)
	}
}

// After forks a line without touching it: the two go separate ways.
func TestLineAfterForks(t *testing.T) {
	l := mustLine(t, StartFEN, "e2e4 e7e5 g1f3")
	before := l.Pos.FEN()
	d6, _ := ParseMove("d7d6")
	fork, err := l.After(d6)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.PlayMoves([]string{"b8c6", "f1b5"}, 3); err != nil {
		t.Fatal(err)
	}
	if len(fork.Keys) != 5 || fork.Keys[4] != fork.Pos.Key() || len(l.Keys) != 6 || l.Keys[4] == fork.Keys[4] {
		t.Errorf("the lines share keys: %v / %v", l.Keys, fork.Keys)
	}
	if got, want := fork.Pos.FEN(), mustLine(t, StartFEN, "e2e4 e7e5 g1f3 d7d6").Pos.FEN(); got != want {
		t.Errorf("fork %s, want %s", got, want)
	}
	if l.Pos.FEN() == before {
		t.Error("the line did not move on")
	}
	e2, _ := ParseMove("e1e2") // White's king, Black to move
	if _, err := l.After(e2); err == nil {
		t.Error("an illegal move played by After")
	}
}
