package book

import (
	"encoding/binary"
	"math"

	"github.com/polyproxy/polyproxy/book/board"
)

// EntrySize is the size of one book entry on disk.
const EntrySize = 16

// Where each field lies inside an entry.
const (
	keyOffset    = 0
	moveOffset   = 8
	weightOffset = 10
	learnOffset  = 12
)

// Entry is one 16-byte book record: all fields big-endian.
type Entry struct {
	Key    board.Key
	Move   board.Move // as stored: castling king-to-rook
	Weight uint16
	Learn  Learn
}

// DecodeEntry reads an entry from the first 16 bytes of b.
func DecodeEntry(b []byte) Entry {
	_ = b[EntrySize-1]
	return Entry{
		Key:    board.Key(binary.BigEndian.Uint64(b[keyOffset:])),
		Move:   board.Move(binary.BigEndian.Uint16(b[moveOffset:])),
		Weight: binary.BigEndian.Uint16(b[weightOffset:]),
		Learn:  Learn(binary.BigEndian.Uint32(b[learnOffset:])),
	}
}

// Encode writes the entry into the first 16 bytes of b.
func (e Entry) Encode(b []byte) {
	_ = b[EntrySize-1]
	binary.BigEndian.PutUint64(b[keyOffset:], uint64(e.Key))
	binary.BigEndian.PutUint16(b[moveOffset:], uint16(e.Move))
	binary.BigEndian.PutUint16(b[weightOffset:], e.Weight)
	binary.BigEndian.PutUint32(b[learnOffset:], uint32(e.Learn))
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
