package polyglot

import (
	"encoding/binary"

	"github.com/polyproxy/polyproxy/book"
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

// DecodeEntry reads an entry from the first 16 bytes of b.
func DecodeEntry(b []byte) book.Entry {
	_ = b[EntrySize-1]
	return book.Entry{
		Key:    board.Key(binary.BigEndian.Uint64(b[keyOffset:])),
		Move:   board.Move(binary.BigEndian.Uint16(b[moveOffset:])),
		Weight: binary.BigEndian.Uint16(b[weightOffset:]),
		Learn:  book.Learn(binary.BigEndian.Uint32(b[learnOffset:])),
	}
}

// PutEntry writes e into the first 16 bytes of b.
func PutEntry(b []byte, e book.Entry) {
	_ = b[EntrySize-1]
	binary.BigEndian.PutUint64(b[keyOffset:], uint64(e.Key))
	binary.BigEndian.PutUint16(b[moveOffset:], uint16(e.Move))
	binary.BigEndian.PutUint16(b[weightOffset:], e.Weight)
	binary.BigEndian.PutUint32(b[learnOffset:], uint32(e.Learn))
}

// AppendEntry appends e's 16 bytes to b.
func AppendEntry(b []byte, e book.Entry) []byte {
	var buf [EntrySize]byte
	PutEntry(buf[:], e)
	return append(b, buf[:]...)
}
