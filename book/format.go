package book

import (
	"fmt"
	"io"
	"os"

	"github.com/polyproxy/polyproxy/book/board"
)

// A Format is a book file format as the one book decision and the tools
// see it: recognised by the structure of a file, opened as the Book every
// policy reads, and, a Learner, learned into in place where its reader
// reads; an Editor is edited move by move, a Writer written. book/formats
// lists the formats and recognises a file among them.
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
	// positions' moves as entries.
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

// A Writer is a format books are written in.
type Writer interface {
	Format
	// Write writes src's entries, in its order, as a book of the format at
	// path into the batch b; maxPly bounds the lines of a format that
	// holds lines from the start position (ABK's tree).
	Write(b *Batch, path string, src *Book, maxPly int) (Written, error)
}

// Written is what a Writer wrote.
type Written struct {
	Count string // "1234 entries", "1234 ABK records"
	// Said is the writer's account of the book written, for the tool's
	// log ("ABK book out.abk: 1234 records, 567 positions to ply 40").
	Said string
	// Warnings are what the book could not hold of the entries.
	Warnings []string
}

// A Report is what a format's reader found reading a book (Book.Report):
// the proxy's log prints it (String), info-book lists it.
type Report interface {
	fmt.Stringer
	// Lines are info-book's lines of it, each a label and a value.
	Lines() [][2]string
	// EntriesAre says what the book's entries are, beside their count
	// ("the tree's positions and moves to its max ply").
	EntriesAre() string
	// Faults are every fault the reader met, in words (Book.Warnings
	// names a few).
	Faults() []string
}

// Facts are what a book's format knows of a position and its moves
// beyond their entries (a CTG book's statistics, annotations and
// recommendations; an ABK book's priorities and totals), shown by probe
// and explore under the format's name. Each encodes as JSON and says
// itself in words (String) for probe's text; nil where the format knows
// nothing.
type Facts struct {
	Position fmt.Stringer
	Moves    []Row // one for each move asked
	// Columns name the values of a move's Row, for a table of them.
	Columns []string
}

// A Row is what a format knows of a move: in words, and as the values of
// a table's row (Facts.Columns).
type Row interface {
	fmt.Stringer
	Row() []string
}

// Describe is what b's format knows of pos and of each of moves (played
// form) beyond their entries; none when the format knows nothing more.
func (b *Book) Describe(pos *board.Position, moves []board.Move) (Facts, error) {
	s, ok := b.src.(interface {
		Describe(pos *board.Position, moves []board.Move) (Facts, error)
	})
	if !ok {
		return Facts{}, nil
	}
	return s.Describe(pos, moves)
}
