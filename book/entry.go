package book

import "encoding/binary"

// EntrySize is the size of one book entry on disk.
const EntrySize = 16

// Entry is one 16-byte book record: all fields big-endian.
type Entry struct {
	Key    Key
	Move   Move // as stored: castling king-to-rook
	Weight uint16
	Learn  uint32
}

// DecodeEntry reads an entry from the first 16 bytes of b.
func DecodeEntry(b []byte) Entry {
	_ = b[15]
	return Entry{
		Key:    Key(binary.BigEndian.Uint64(b[0:8])),
		Move:   Move(binary.BigEndian.Uint16(b[8:10])),
		Weight: binary.BigEndian.Uint16(b[10:12]),
		Learn:  binary.BigEndian.Uint32(b[12:16]),
	}
}

// Encode writes the entry into the first 16 bytes of b.
func (e Entry) Encode(b []byte) {
	_ = b[15]
	binary.BigEndian.PutUint64(b[0:8], uint64(e.Key))
	binary.BigEndian.PutUint16(b[8:10], uint16(e.Move))
	binary.BigEndian.PutUint16(b[10:12], e.Weight)
	binary.BigEndian.PutUint32(b[12:16], e.Learn)
}

// AppendEntry appends the entry's 16 bytes to b.
func AppendEntry(b []byte, e Entry) []byte {
	var buf [EntrySize]byte
	e.Encode(buf[:])
	return append(b, buf[:]...)
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
