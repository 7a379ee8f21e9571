package abk

import (
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/book"
)

// Format is Arena's ABK format: read whole into the Polyglot book it
// amounts to (Read), learned into and edited through the reader's walk
// (Learn, Edit), written as a tree from the start position (Write).
var Format interface {
	book.Editor
	book.Writer
} = format{DefaultWriteThreshold}

// format is the ABK format writing books that keep their source's
// chances under a threshold (per mille, Keeping).
type format struct{ threshold int }

func (format) Name() string                         { return "ABK" }
func (format) Ext() string                          { return ".abk" }
func (format) Open(path string) (*book.Book, error) { return Open(path) }
func (format) Chess960() bool                       { return false }
func (format) ReadWhole() bool                      { return true }

// Fits checks the facts an ABK book must have: a header, whole 28-byte
// records after it, and a first record (the root of the tree, when there
// is any move) holding one of the start position's moves.
func (format) Fits(f io.ReaderAt, size int64) error {
	switch {
	case size < HeaderSize:
		return fmt.Errorf("%d bytes is shorter than the header (%d bytes)", size, HeaderSize)
	case size%RecordSize != 0:
		return fmt.Errorf("size %d is not a whole number of %d-byte records", size, RecordSize)
	case size == HeaderSize:
		return nil // the header alone: a book without moves
	}
	var root [RecordSize]byte
	if _, err := f.ReadAt(root[:], HeaderSize); err != nil {
		return err
	}
	if r := DecodeRecord(root[:]); !startMove(r) {
		return fmt.Errorf("record %d is not a move of the start position (squares %d-%d, promotion %d)", FirstRecord, r.From, r.To, r.Promo)
	}
	return nil
}

// InfoOf is what reading found when b was opened from an ABK book, else
// nil: book.ReportOf, the one function for every format's report.
var InfoOf = book.ReportOf[*Info]
