package proxytest

import (
	"math/rand/v2"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

// LiveGame is a legal game of n plies, from a fixed seed, that no rule
// ends on the way (no mate, stalemate, dead position, fifty-move rule or
// threefold repetition: the CECP front would claim the end and play no
// more) and that keeps its pieces (captures only when nothing else goes,
// pawn moves only to keep the fifty-move rule away): its positions at ply
// 300 cost a move what those at ply 10 cost, so the game's length is the
// one difference between the two.
func LiveGame(tb testing.TB, n int) []string {
	r := rand.New(rand.NewPCG(24, 300))
	for range 1000 {
		l, _ := board.NewLine("startpos")
		seen := map[board.Key]int{l.Pos.Key(): 1}
		var moves []string
		for len(moves) < n {
			var quiet, pawn, capture []board.Move
			for _, m := range l.Pos.LegalMoves() {
				next := l.Pos
				next.Play(m)
				switch {
				case next.Status() != board.Playing || seen[next.Key()] >= 2:
				case l.Pos.Piece(m.To()) != board.NoPiece || next.HalfmoveClock() == 0 && l.Pos.Piece(m.From()).Type() != board.Pawn:
					capture = append(capture, m)
				case next.HalfmoveClock() == 0:
					pawn = append(pawn, m)
				default:
					quiet = append(quiet, m)
				}
			}
			pick := quiet
			if len(pick) == 0 || l.Pos.HalfmoveClock() > 40 && len(pawn) > 0 {
				pick = pawn
			}
			if len(pick) == 0 {
				pick = capture
			}
			if len(pick) == 0 || l.Pos.HalfmoveClock() > 90 {
				break
			}
			m := pick[r.IntN(len(pick))]
			l.Play(m)
			seen[l.Pos.Key()]++
			moves = append(moves, m.String())
		}
		if len(moves) == n {
			return moves
		}
	}
	tb.Fatal("no live game found")
	return nil
}
