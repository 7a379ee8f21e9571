package polyglot

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// Format is the Polyglot format (the package's doc describes it): read by
// mapping the file, learned into and edited entry by entry in place,
// written as a table of entries.
var Format interface {
	book.Editor
	book.Writer
} = format{}

type format struct{}

func (format) Name() string                         { return "Polyglot" }
func (format) Ext() string                          { return ".bin" }
func (format) Open(path string) (*book.Book, error) { return Open(path) }
func (format) Chess960() bool                       { return true }
func (format) ReadWhole() bool                      { return false }

// fitSpots are the entries whose keys Fits reads, as ranges [first,
// end): where another format's structure would show as keys out of order.
// An ABK book's header holds its settings in the bytes of entries 13 to 15
// (zero around them), and its first record starts at entry 1575, its
// 16-byte key followed by the record's flags, zero. Reading them costs
// three small reads, so that opening a book stays the same for any size;
// the whole order is Verify's to check.
var fitSpots = [][2]int64{{0, 17}, {1574, 1578}}

// Fits checks the facts a Polyglot book must have: a whole number of
// 16-byte entries, and keys in order (key 0, the header's, only at the
// start) where it reads them: fitSpots, and the last entry.
func (format) Fits(f io.ReaderAt, size int64) error {
	if size%EntrySize != 0 {
		return fmt.Errorf("size %d is not a multiple of %d", size, EntrySize)
	}
	n := size / EntrySize
	spots := append(fitSpots[:len(fitSpots):len(fitSpots)], [2]int64{n - 1, n})
	var buf [17 * EntrySize]byte
	var prev board.Key
	for _, s := range spots {
		first, end := max(s[0], 0), min(s[1], n)
		if first >= end {
			continue
		}
		b := buf[:(end-first)*EntrySize]
		if _, err := f.ReadAt(b, first*EntrySize); err != nil {
			return err
		}
		for i := range end - first {
			k := board.Key(binary.BigEndian.Uint64(b[i*EntrySize:]))
			if k < prev {
				return fmt.Errorf("keys out of order at entry %d", first+i)
			}
			prev = k
		}
	}
	return nil
}
