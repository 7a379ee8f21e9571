package book

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/polyproxy/polyproxy/book/board"
)

// A Format is a book file format as the one book decision and the tools
// see it: recognised by the structure of a file, opened as the
// Polyglot-shaped book every policy reads (Book), and, a Learner, learned
// into in place where its reader reads. book/formats lists the formats and
// recognises a file among them.
type Format interface {
	// Name is what info-book and the log call the format ("Polyglot").
	Name() string
	// Ext is the file name extension, lower case with its dot, that claims
	// the format (".bin"): the tie-breaker between formats a file fits.
	Ext() string
	// Fits is nil when the file f of size bytes has every structural fact
	// a file of the format must have, else the first it lacks.
	Fits(f io.ReaderAt, size int64) error
	// Open opens a file of the format as the book the decision reads: its
	// positions' moves as Polyglot entries, found by key.
	Open(path string) (*Book, error)
	// Chess960 reports a format whose books can hold Chess960 positions.
	Chess960() bool
	// ReadWhole reports a format whose reader reads the whole file when it
	// opens it: what is written into the file later does not reach a book
	// already open.
	ReadWhole() bool
}

// A Learner is a format that results are learned into (a format without
// Learn is read only: OpenLearnFile refuses its books).
type Learner interface {
	Format
	// Learn counts updates into f, an open file of the format size bytes
	// long, in place: each into what the format's reader reads for its
	// position and move, found by the reader's own walk. LearnFile calls
	// it under the file's lock; with write false it only says what it
	// would do. The changes are in the order each place first appears in
	// updates.
	Learn(f *os.File, size int64, updates []LearnUpdate, write bool) ([]LearnChange, error)
}

// Polyglot is the Polyglot format (the package's doc describes it).
var Polyglot Learner = polyglot{}

type polyglot struct{}

func (polyglot) Name() string                    { return "Polyglot" }
func (polyglot) Ext() string                     { return ".bin" }
func (polyglot) Open(path string) (*Book, error) { return Open(path) }
func (polyglot) Chess960() bool                  { return true }
func (polyglot) ReadWhole() bool                 { return false }

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
func (polyglot) Fits(f io.ReaderAt, size int64) error {
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

// InMemory is a book of format f held in memory: what a format whose files
// are not Polyglot tables opens its files as. entries (sorted here, and
// the book's from now on) are its positions' moves; report is what the
// format's reader found (see Report), warnings what it warns of.
func InMemory(path string, f Format, entries []Entry, report any, warnings []string) *Book {
	b := newMemoryBook(path, entries)
	b.format, b.report, b.warnings = f, report, warnings
	return b
}

// Format is the format of the file the book was read from.
func (b *Book) Format() Format {
	if b.format == nil {
		return Polyglot
	}
	return b.format
}

// Report is what the format's reader found reading the file, of a type
// the format's package names (nil for a Polyglot book); printed with %v it
// is what the proxy's log says of the book read.
func (b *Book) Report() any { return b.report }

// NoChess960 reports a book whose format has no Chess960 (an ABK book:
// Arena's format is standard chess from the start position), which is
// never probed in a Chess960 game.
func (b *Book) NoChess960() bool { return !b.Format().Chess960() }

// NoChess960Reason is why a Chess960 game does not probe b, when
// NoChess960.
func (b *Book) NoChess960Reason() string {
	return "the " + b.Format().Name() + " format has no Chess960: not probed in a Chess960 game"
}
