package book

import (
	"fmt"

	"github.com/polyproxy/polyproxy/book/board"
)

// A Prober finds a book's moves by the position itself: the reader of a
// format that looks a position up by a key of its own, not by the Polyglot
// key (a CTG book hashes its own encoding of the board). A book opened
// with one (ByPosition) reads nothing at open and a few pages a probe,
// however big its files, and finds every position its files hold, those
// no line from the start position reaches too. The tools that read every
// entry read it whole, through its walk (Whole).
type Prober interface {
	// Probe appends to buf pos's moves as Polyglot entries: key
	// pos.Key(), the move as stored, the weight polyproxy plays it by,
	// learn fields from the book's statistics. An error is a failure to
	// read the files; a fault of the book is passed over and told by
	// Warnings.
	Probe(pos *board.Position, buf []Entry) ([]Entry, error)
	// Whole is the book read whole into memory: the entries of the
	// positions that lines of book moves from the start position reach,
	// up to maxPly plies of moves (0: no limit), its warnings counting the
	// positions no such line reaches.
	Whole(maxPly int) (*Book, error)
	// Warnings are the faults met so far, each once, in the order met.
	Warnings() []string
	Close() error
}

// ByPosition is a book of format f whose moves p finds by position:
// what a format opens its books as when its files are found by a key of
// their own. report and warnings are as for InMemory. The book has no
// entries by key (Len is 0, Each finds nothing): At and the Chooser ask p.
func ByPosition(path string, f Format, p Prober, report any, warnings []string) *Book {
	return &Book{path: path, format: f, prober: p, report: report, warnings: warnings}
}

// FoundByPosition reports a book made by ByPosition.
func (b *Book) FoundByPosition() bool { return b.prober != nil }

// Size says how big the book is, for a log line or a page: its entries,
// or for a book found a position at a time, which holds no count of them,
// what its format reports.
func (b *Book) Size() string {
	if b.FoundByPosition() {
		return fmt.Sprintf("%s book, found a position at a time: %v", b.Format().Name(), b.Report())
	}
	return fmt.Sprintf("%d entries", b.Len())
}

// At calls fn with the index and entry of each of pos's entries, null
// moves included: those of its Polyglot key (Each), or those the book's
// Prober finds for the position (the index is then the move's place in
// the position's list). It is how the Chooser finds a position's moves.
// A failure to read a book found by position leaves it without entries
// and is its Err.
func (b *Book) At(pos *board.Position, fn func(i int, e Entry)) {
	if b.prober == nil {
		b.Each(pos.Key(), fn)
		return
	}
	var buf [16]Entry
	found, err := b.prober.Probe(pos, buf[:0])
	if err != nil {
		err = fmt.Errorf("%s: %w", b.path, err)
		b.probeErr.Store(&err)
		return
	}
	for i, e := range found {
		fn(i, e)
	}
}

// Whole is the book as the tools that read every entry need it: b itself
// for a book of entries; for a book found by position, its Prober's walk
// from the start position up to maxPly plies of moves (0: no limit),
// held in memory (a
// book of its own: closing one leaves the other open).
func (b *Book) Whole(maxPly int) (*Book, error) {
	if b.prober == nil {
		return b, nil
	}
	return b.prober.Whole(maxPly)
}

// newWarnings are the warnings of a book found by position that its
// probes met since the last call: what a choice's reason tells the log.
func (b *Book) newWarnings() []string {
	if b.prober == nil {
		return nil
	}
	w := b.prober.Warnings()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(w) <= b.told {
		return nil
	}
	told := b.told
	b.told = len(w)
	return w[told:]
}
