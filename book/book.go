package book

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/polyproxy/polyproxy/book/board"
)

// Found is an entry of a position with its place: its index in the
// book's table, or, for a book found by position, in the position's list.
type Found struct {
	Index int
	Entry Entry
}

// A Source is where a Book's moves come from: what a format's reader
// makes of its files. A source may also have
//
//	Verify() error                     // a check of the whole book (a Polyglot file's order)
//	Err() error                        // why it can no longer be read (a mapped file that shrank)
//	Whole(maxPly int) (*Book, error)   // the book read whole, for one found by position
//	Describe(pos *board.Position, moves []board.Move) (Facts, error) // see Facts
//
// which the Book's methods of those names ask.
type Source interface {
	// Probe appends to buf pos's entries, null moves included, each with
	// its place. An error is a failure to read the book; a fault passed
	// over is one of Warnings. pos is a copy: a pointer given to an
	// interface would put every position probed on the heap, the
	// look-ahead's thousands among them.
	Probe(pos board.Position, buf []Found) ([]Found, error)
	// Warnings are the problems met so far that do not stop the book
	// from being used, each once, in the order met.
	Warnings() []string
	// Close releases the source's files.
	Close() error
}

// A Table is a source that is one list of entries sorted by key (a
// Polyglot file, a book read whole into memory): the tools that read a
// whole book read it entry by entry.
type Table interface {
	Source
	// Len is the number of entries, header entries included.
	Len() int
	// Entry is the i-th entry.
	Entry(i int) Entry
	// Find appends to buf every entry of key k with its index, in the
	// table's order, null moves included.
	Find(k board.Key, buf []Found) []Found
}

// Book is a book file opened by its format: its moves, from the source
// its reader made of the file (a table of entries, or a reader that
// finds them by position), which every policy plays from and every tool
// reads.
type Book struct {
	path     string
	format   Format
	src      Source
	table    Table // src, when it is one; nil for a book found by position
	report   Report
	warnings []string              // found at open
	probeErr atomic.Pointer[error] // the last failure to probe
	mu       sync.Mutex
	told     int // the warnings the chooser has told (under mu)
	closed   bool
}

// ErrClosed is returned by a check of a book stopped because the book was
// closed.
var ErrClosed = errors.New("book closed")

// ErrUnsorted is wrapped by Verify's error for a table whose entries are
// out of key order: its moves are still found, each lookup reading the
// whole table.
var ErrUnsorted = errors.New("the book is not sorted")

// New is the book at path as format f's reader opened it: its moves from
// src, what the reader found (report; nil when there is nothing to say)
// and warned of.
func New(path string, f Format, src Source, report Report, warnings []string) *Book {
	t, _ := src.(Table)
	return &Book{path: path, format: f, src: src, table: t, report: report, warnings: warnings}
}

// Path is the file the book was opened from.
func (b *Book) Path() string { return b.path }

// Format is the format of the file the book was read from (nil for a book
// made in memory, FromEntries).
func (b *Book) Format() Format { return b.format }

// Source is where the book's moves come from, for its format's own tools.
func (b *Book) Source() Source { return b.src }

// Report is what the format's reader found reading the file (nil when
// there is nothing to say); printed with %v it is what the proxy's log
// says of the book read.
func (b *Book) Report() Report { return b.report }

// ReportOf is b's report when it is a T (a format's own report type),
// else T's zero value: one function for every format's report.
func ReportOf[T Report](b *Book) T {
	r, _ := b.report.(T)
	return r
}

// Warnings are the problems found so far that do not stop the book from
// being used: those found at open, and those its probes met since.
func (b *Book) Warnings() []string {
	if w := b.src.Warnings(); len(w) > 0 {
		return append(slices.Clip(b.warnings), w...)
	}
	return b.warnings
}

// newWarnings are the warnings the book's probes met since the last call:
// what a choice's reason tells the log.
func (b *Book) newWarnings() []string {
	w := b.src.Warnings()
	if len(w) == 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(w) <= b.told {
		return nil
	}
	told := b.told
	b.told = len(w)
	return w[told:]
}

// Err is why the book can no longer be read (a mapped file that shrank),
// or the last failure to probe it; else nil.
func (b *Book) Err() error {
	if s, ok := b.src.(interface{ Err() error }); ok {
		if err := s.Err(); err != nil {
			return err
		}
	}
	if err := b.probeErr.Load(); err != nil {
		return *err
	}
	return nil
}

// Close closes the book's files; a second Close is a no-op. It must not
// run concurrently with the book's probes (the proxy loop owns those
// calls); a check running on another goroutine (Verify) is stopped.
func (b *Book) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	b.mu.Unlock()
	return b.src.Close()
}

// At appends to buf pos's entries with their places, null moves included:
// those of its key in a table, those the source finds for the position
// otherwise. It is how the Chooser finds a position's moves. A failure to
// read leaves the position without entries and is the book's Err.
func (b *Book) At(pos *board.Position, buf []Found) []Found {
	found, err := b.src.Probe(*pos, buf)
	if err != nil {
		failed := fmt.Errorf("%s: %w", b.path, err) // its own variable: err is on the stack of every probe
		b.probeErr.Store(&failed)
		return buf
	}
	return found
}

// FoundByPosition reports a book whose source finds its moves by position
// (a CTG book): it has no entries by key.
func (b *Book) FoundByPosition() bool { return b.table == nil }

// Len is the number of entries, header entries included; 0 for a book
// found by position.
func (b *Book) Len() int {
	if b.table == nil {
		return 0
	}
	return b.table.Len()
}

// Entry returns the i-th entry.
func (b *Book) Entry(i int) Entry { return b.table.Entry(i) }

// Each calls fn with the index and entry of every entry of key k in the
// book's order, null moves included; none for key 0 (header entries), nor
// in a book found by position.
func (b *Book) Each(k board.Key, fn func(i int, e Entry)) {
	for _, f := range b.find(k) {
		fn(f.Index, f.Entry)
	}
}

// find is every entry of key k with its index, none for key 0 nor in a
// book found by position. The table is given no buffer: one of ours would
// go to the heap at every call, through the interface.
func (b *Book) find(k board.Key) []Found {
	if k == 0 || b.table == nil {
		return nil
	}
	return b.table.Find(k, nil)
}

// Entries returns the entries of key k in the book's order, without null
// moves.
func (b *Book) Entries(k board.Key) []Entry {
	found := b.find(k)
	if len(found) == 0 {
		return nil
	}
	out := make([]Entry, 0, len(found))
	for _, f := range found {
		if !f.Entry.Move.IsNull() {
			out = append(out, f.Entry)
		}
	}
	return out
}

// Verify checks the whole book as its format checks it (a Polyglot file's
// key order), nil when there is nothing to check. It may run on its own
// goroutine while the book is in use; Close stops it with ErrClosed.
func (b *Book) Verify() error {
	if s, ok := b.src.(interface{ Verify() error }); ok {
		return s.Verify()
	}
	return nil
}

// Whole is the book as the tools that read every entry need it: b itself
// for a book of entries; for a book found by position, its walk from the
// start position up to maxPly plies of moves (0: no limit), held in
// memory (a book of its own: closing one leaves the other open).
func (b *Book) Whole(maxPly int) (*Book, error) {
	if s, ok := b.src.(interface {
		Whole(maxPly int) (*Book, error)
	}); ok {
		return s.Whole(maxPly)
	}
	return b, nil
}

// Size says how big the book is, for a log line or a page: its entries,
// or for a book found a position at a time, which holds no count of them,
// what its format reports.
func (b *Book) Size() string {
	if b.FoundByPosition() {
		return fmt.Sprintf("%s book, found a position at a time: %v", b.format.Name(), b.report)
	}
	return fmt.Sprintf("%d entries", b.Len())
}

// NoChess960 reports a book whose format has no Chess960 (an ABK book:
// Arena's format is standard chess from the start position), which is
// never probed in a Chess960 game.
func (b *Book) NoChess960() bool { return b.format != nil && !b.format.Chess960() }

// NoChess960Reason is why a Chess960 game does not probe b, when
// NoChess960.
func (b *Book) NoChess960Reason() string {
	return "the " + b.format.Name() + " format has no Chess960: not probed in a Chess960 game"
}
