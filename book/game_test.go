package book

import (
	"slices"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// Castling out of check is refused by Line.Play, and the rules position
// built for the line knows it is in check (notnil's Update only learns of
// check from the move's tag, which moves from ValidMoves carry).
func TestLineRefusesCastlingOutOfCheck(t *testing.T) {
	l := mustLine(t, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8")
	for _, m := range []string{"e8g8", "e8h8", "e8c8"} {
		mv, _ := ParseMove(m)
		if _, err := l.Play(mv); err == nil {
			t.Errorf("%s played out of check", m)
		}
	}
	if findLegal(l.Chess(), NewMove(60, 62, NoPromo)) != nil {
		t.Error("castling listed as legal in check")
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
	if got := l.Pos.Key(); got != FromChess(l.Chess()).Key() || len(l.Keys) != 8 || l.Keys[7] != got {
		t.Errorf("key %s, %d keys", got, len(l.Keys))
	}
	if !strings.HasPrefix(l.Chess().String(), "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq") {
		t.Errorf("castling e1h1 gave %s", l.Chess())
	}
	if !l.Seen(StartPosition().Key()) || l.Seen(0) {
		t.Error("Seen")
	}
	if _, err := NewLine("startpos"); err != nil {
		t.Error(err)
	}
	err := mustLine(t, "", "").PlayMoves("e2e4 e7e5 e4e5")
	if err == nil || !strings.Contains(err.Error(), "move 3 (e4e5)") {
		t.Errorf("error %v", err)
	}
}

// The rules position is built on demand; copies of a line that go separate
// ways each get their own, equal to replaying the moves with notnil.
func TestLineChessBuiltOnDemand(t *testing.T) {
	replay := func(moves string) string {
		g := chess.NewGame(chess.UseNotation(chess.UCINotation{}))
		for _, m := range strings.Fields(moves) {
			if err := g.MoveStr(m); err != nil {
				t.Fatal(err)
			}
		}
		return g.Position().String()
	}
	l := mustLine(t, StartFEN, "e2e4 e7e5 g1f3")
	fork := *l
	fork.Keys = slices.Clip(fork.Keys)
	if err := l.PlayMoves("b8c6 f1b5"); err != nil {
		t.Fatal(err)
	}
	if err := fork.PlayMoves("d7d6 d2d4 c8g4"); err != nil {
		t.Fatal(err)
	}
	if got, want := fork.Chess().String(), replay("e2e4 e7e5 g1f3 d7d6 d2d4 c8g4"); got != want {
		t.Errorf("fork: %s, want %s", got, want)
	}
	if got, want := l.Chess().String(), replay("e2e4 e7e5 g1f3 b8c6 f1b5"); got != want {
		t.Errorf("line: %s, want %s", got, want)
	}
	// Check comes from the rules library's own move: mate is seen.
	mate := mustLine(t, StartFEN, "f2f3 e7e5 g2g4 d8h4")
	if st := mate.Chess().Status(); st != chess.Checkmate {
		t.Errorf("fool's mate: status %v", st)
	}
}
