// Package bookplay is the proxy's book play: the books of a run, opened
// from the settings, opened again when they change (on disk, or through
// the GUI's options) and checked beside the game; the policies that count
// over a game (BookMaxMoves, BookMinLine); and the decision, made in one
// place (decide.go): does the book answer this search, and with what.
// What the user is to be told comes back as Notices; the decisions are
// logged with their reasons.
package bookplay

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/plainerr"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/logfile"
)

// Books is the open books, in priority order, the chooser, and what the
// book's policies keep of the game. One goroutine uses it: the proxy's
// loop.
type Books struct {
	settings *config.Config // the run's, read only here
	log      *logfile.Log

	open []*book.Book // every open book, once
	// unverified are books opened and not yet given to Unverified.
	unverified []*book.Book
	// side are the books for the positions with Black ([0]) or White
	// ([1]) to move, in priority order (config.BooksFor); ownList tells
	// that the side has a list of its own (BookFileWhite, BookFileBlack).
	side    [2][]*book.Book
	asked   book.Shelf // the books of the decision being made (decide)
	ownList [2]bool
	disk    []bookOnDisk // each book file in use as it was on disk when opened
	// reading is the books being read again beside the loop (CheckOnDisk),
	// until TakeIn; toStart is it until ToRead hands it out.
	reading, toStart *Reading
	chooser          *book.Chooser
	// gen changes whenever the books or the chooser are made anew: what
	// was measured with them (the look-ahead's cache) is stale.
	gen            int
	policy         bookPolicy // what the book policies remember of the game
	saidNoChess960 bool       // the log has said that Chess960 games skip the ABK books
}

// Notice is something the user is told, besides the log: the GUI, and
// with Warn stderr too.
type Notice struct {
	Msg  string
	Warn bool
}

// New is the book play of a run with settings (which the run changes,
// and Open follows), logging to log; no book is open until Open.
func New(settings *config.Config, log *logfile.Log) *Books {
	return &Books{settings: settings, log: log}
}

// forSide is the books for the positions where White (or Black) is to
// move: the side polyproxy plays there. A position's books answer for it,
// give the ponder reply after it and carry the look-ahead through it.
func (s *Books) forSide(white bool) []*book.Book { return s.side[sideIndex(white)] }

func sideIndex(white bool) int {
	if white {
		return 1
	}
	return 0
}

// probed is the books probed for the side to move in a game (chess960: a
// Chess960 one): those for the side, less the ABK books in a Chess960
// game (Arena's format has no Chess960), which the log says once.
func (s *Books) probed(white, chess960 bool) []*book.Book {
	books := s.forSide(white)
	if !chess960 || !slices.ContainsFunc(books, (*book.Book).NoChess960) {
		return books
	}
	var kept []*book.Book
	for _, b := range books {
		if !b.NoChess960() {
			kept = append(kept, b)
		} else if !s.saidNoChess960 {
			s.log.Printf("book %s: %s", b.Path(), b.NoChess960Reason())
		}
	}
	s.saidNoChess960 = true
	return kept
}

// listName is the setting the books for a side come from, for the log.
func (s *Books) listName(white bool) string {
	switch {
	case white && s.ownList[1]:
		return "BookFileWhite"
	case !white && s.ownList[0]:
		return "BookFileBlack"
	}
	return "BookFile"
}

// Open makes anew what a change of settings invalidated: the chooser
// (RebuildChooser), the open books (ReopenBooks). A book that cannot be
// opened is reported and skipped: polyproxy plays on without it.
func (s *Books) Open(changed config.Invalidates) []Notice {
	if changed&config.RebuildChooser != 0 || s.chooser == nil {
		// BookLearnWeight prefers moves that did well (see docs/learning.md).
		s.chooser = book.NewChooser(s.settings.ChooserOptions(learn.Weight), s.settings.BookSeed)
		s.gen++
	}
	if changed&config.ReopenBooks == 0 {
		return nil
	}
	s.Close()
	s.gen++
	if !s.settings.Book {
		s.log.Printf("book off")
		return nil
	}
	return s.install(readBooks(s.settings.BooksInUse(), s.settings.ReadOptions()))
}

// booksRead is the books in use read from their files (readBooks), to be
// installed on the loop: what the reading found and would log comes
// with them.
type booksRead struct {
	disk    []bookOnDisk // each file as it was on disk before it was read
	open    []*book.Book // those that could be opened, in the order of paths
	notices []Notice
	logs    []string
}

// readBooks opens the book files at paths with options. It touches no
// state of the proxy: it may run beside the loop.
func readBooks(paths []string, options formats.Options) booksRead {
	var r booksRead
	for _, path := range paths {
		r.disk = append(r.disk, bookOnDisk{path, statBook(path)}) // before: a change after it is seen
		if b := r.openBook(path, options); b != nil {
			r.open = append(r.open, b)
		}
	}
	return r
}

// openBook opens one book file and says what is wrong with it; nil: it
// cannot be used.
func (r *booksRead) openBook(path string, options formats.Options) *book.Book {
	warn := func(format string, args ...any) {
		r.notices = append(r.notices, Notice{Msg: fmt.Sprintf(format, args...), Warn: true})
	}
	opening := time.Now()
	b, err := formats.OpenWith(path, options)
	if err != nil {
		warn("book %s not used: %s; playing on without it", path, plainerr.About(path, plainerr.Text(err)))
		return nil
	}
	if f := b.Format(); f.ReadWhole() {
		// Read whole, unlike a mapped book: the log shows what it cost.
		r.logs = append(r.logs, fmt.Sprintf("book %s: %s book read in %v (%v)", path, f.Name(), time.Since(opening).Round(time.Millisecond), b.Report()))
	}
	for _, w := range b.Warnings() {
		warn("book %s: %s", path, plainerr.About(path, w))
	}
	if b.Len() == 0 && !b.FoundByPosition() {
		// Kept open: a rewrite is noticed and reopened as for any book.
		warn("book %s has no entries: no move comes from it until it is written", path)
	}
	r.logs = append(r.logs, fmt.Sprintf("book %s opened (%s)", path, b.Size()))
	return b
}

// install makes the books read the open ones (none is open), each side's
// by the settings, and says what the user is to be told.
func (s *Books) install(r booksRead) []Notice {
	for _, l := range r.logs {
		s.log.Printf("%s", l)
	}
	s.open, s.disk = r.open, r.disk
	s.unverified = slices.Clone(r.open)
	for i, white := range []bool{false, true} {
		for _, p := range s.settings.BooksFor(white) {
			if j := slices.IndexFunc(r.open, func(b *book.Book) bool { return b.Path() == p }); j >= 0 {
				s.side[i] = append(s.side[i], r.open[j])
			}
		}
	}
	s.ownList = [2]bool{len(s.settings.BookFilesBlack) > 0, len(s.settings.BookFilesWhite) > 0}
	return r.notices
}

// Unverified takes the books opened since it was last asked, for a check
// that they are sorted, as lookups need: beside the game, since a big
// book takes a while (a second for 10 million entries). Verdict says
// what the check found.
func (s *Books) Unverified() []*book.Book {
	u := s.unverified
	s.unverified = nil
	return u
}

// Verdict is what the check of b found wrong (err), to be told, if
// anything.
func Verdict(b *book.Book, err error) (Notice, bool) {
	if err == nil || errors.Is(err, book.ErrClosed) {
		return Notice{}, false
	}
	if errors.Is(err, book.ErrUnsorted) {
		return Notice{Msg: fmt.Sprintf("book %s is not sorted (%v): its moves are still found, but every lookup reads the whole file (a Polyglot book must be sorted by key)", b.Path(), err), Warn: true}, true
	}
	return Notice{Msg: fmt.Sprintf("book %s: %s", b.Path(), plainerr.About(b.Path(), plainerr.Text(err))), Warn: true}, true
}

// Close closes the open books.
func (s *Books) Close() {
	for _, b := range s.open {
		b.Close()
	}
	s.open, s.disk, s.side, s.unverified = nil, nil, [2][]*book.Book{}, nil
	s.reading, s.toStart = nil, nil // a reading under way is discarded when it is done
	s.ownList = [2]bool{}
	s.saidNoChess960 = false
}
