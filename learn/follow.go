package learn

import (
	"slices"

	"github.com/polyproxy/polyproxy/book/board"
)

// The GUI sends positions, not the line between them: whether a position
// goes on from one seen before is told by the positions alone.

// follows reports that a legal move leads from before to after: a move
// between squares where they differ (two, or four when castling or
// taking en passant), or else, for a Chess960 castling whose king stays
// where it was, any legal move.
func follows(before, after *board.Position) bool {
	if before.WhiteToMove() == after.WhiteToMove() {
		return false
	}
	var changed [4]board.Square
	n := 0
	for sq := range board.Square(64) {
		if before.Piece(sq) != after.Piece(sq) {
			if n == len(changed) {
				return false
			}
			changed[n], n = sq, n+1
		}
	}
	k := after.Key()
	leads := func(m board.Move) bool {
		played, err := before.LegalMove(m)
		return err == nil && before.KeyAfter(played) == k
	}
	mover := func(pc board.Piece) bool { return pc != board.NoPiece && pc.White() == before.WhiteToMove() }
	for _, from := range changed[:n] {
		for _, to := range changed[:n] {
			// A move leaves its from-square and puts the mover's piece on
			// its to-square: the others would fail, at the cost of saying
			// why.
			if from == to || !mover(before.Piece(from)) || !mover(after.Piece(to)) {
				continue
			}
			for promo := board.NoPromo; promo <= board.PromoQueen; promo++ {
				if leads(board.NewMove(from, to, promo)) {
					return true
				}
			}
		}
	}
	return slices.ContainsFunc(before.LegalMoves(), func(m board.Move) bool { return before.KeyAfter(m) == k })
}

// mayFollow reports that after may come from before by some moves, as far
// as what moves cannot undo tells: castling rights are only lost, pieces
// only taken (or made from pawns), and a pawn only goes forward, a file
// aside for each capture. It is true of positions that do not follow one
// another too; false means after is in no game through before.
func mayFollow(before, after *board.Position) bool {
	if after.Castling()&^before.Castling() != 0 {
		return false
	}
	for _, white := range []bool{true, false} {
		var had, has [board.King + 1]int
		for sq := range board.Square(64) {
			if pc := before.Piece(sq); pc != board.NoPiece && pc.White() == white {
				had[pc.Type()]++
			}
			if pc := after.Piece(sq); pc != board.NoPiece && pc.White() == white {
				has[pc.Type()]++
				if pc.Type() == board.Pawn && !pawnFrom(before, sq, white) {
					return false
				}
			}
		}
		promoted := 0
		for t := board.Knight; t < board.King; t++ {
			promoted += max(0, has[t]-had[t])
		}
		if has[board.Pawn]+promoted > had[board.Pawn] {
			return false
		}
	}
	return true
}

// pawnFrom reports that before has a pawn of the side that could have
// gone to sq: on its file or, by as many captures as ranks, beside it, on
// sq's rank or behind it.
func pawnFrom(before *board.Position, sq board.Square, white bool) bool {
	for from := range board.Square(64) {
		pc := before.Piece(from)
		if pc == board.NoPiece || pc.Type() != board.Pawn || pc.White() != white {
			continue
		}
		ahead := sq.Row() - from.Row()
		if !white {
			ahead = -ahead
		}
		if d := sq.File() - from.File(); ahead >= 0 && max(d, -d) <= ahead {
			return true
		}
	}
	return false
}
