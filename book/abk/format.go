package abk

import (
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/book"
)

// Format is Arena's ABK format: read whole into the Polyglot book it
// amounts to (Read), learned into through the reader's walk (Learn).
var Format book.Format = format{}

type format struct{}

func (format) Name() string                         { return "ABK" }
func (format) Ext() string                          { return ".abk" }
func (format) Open(path string) (*book.Book, error) { return Open(path) }
func (format) Chess960() bool                       { return false }
func (format) ReadWhole() bool                      { return true }

// Fits tells an ABK file by its content: its first record holds one of
// the start position's moves.
func (format) Fits(f io.ReaderAt, size int64) error {
	if size < HeaderSize+RecordSize {
		return fmt.Errorf("%d bytes is too short for an ABK book with moves", size)
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
// nil.
func InfoOf(b *book.Book) *Info {
	info, _ := b.Report().(*Info)
	return info
}
