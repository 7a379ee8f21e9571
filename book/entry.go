package book

import (
	"math"

	"github.com/polyproxy/polyproxy/book/board"
)

// Entry is one move of a position as every format gives it to the book
// decision: a Polyglot book's record (see book/polyglot for its 16 bytes
// on disk), or what another format's reader makes of its own.
type Entry struct {
	Key    board.Key
	Move   board.Move // as stored: castling king-to-rook
	Weight uint16
	Learn  Learn
}

// CompareEntries is the order of entries in a book file: key ascending,
// then weight descending. Writers sort with it stably, so entries of equal
// weight keep the order they were met in (as PolyGlot's make-book does).
func CompareEntries(x, y Entry) int {
	switch {
	case x.Key < y.Key:
		return -1
	case x.Key > y.Key:
		return 1
	}
	return int(y.Weight) - int(x.Weight)
}

// ScaleWeights appends to dst the Polyglot weights of a position's moves
// weighed w by another format: the heaviest 65535, the others in
// proportion (at least 1 when above 0); 0 or NaN (a move never played,
// still listed) gives 0.
func ScaleWeights(dst []uint16, w []float64) []uint16 {
	var top float64
	for _, x := range w {
		if x > top { // false for NaN
			top = x
		}
	}
	for _, x := range w {
		var v uint16
		if x > 0 {
			v = uint16(max(1, math.Round(x/top*65535)))
		}
		dst = append(dst, v)
	}
	return dst
}
