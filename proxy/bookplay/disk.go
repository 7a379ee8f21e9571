package bookplay

import (
	"fmt"
	"os"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
)

// Books that change on disk while polyproxy runs (a new version copied
// over the old one, or renamed onto its path) are noticed cheaply, with a
// stat of each configured book file at ucinewgame and when a probe finds
// no move, and read again beside the loop (Reading): the books open play
// on until the new ones are read, so no answer waits for a book read. The
// GUI is told whenever a book is reopened or dropped, and why.

// bookOnDisk is what a configured book file was on disk when the books
// were last opened.
type bookOnDisk struct {
	path string
	info os.FileInfo // nil: it could not be read
}

func statBook(path string) os.FileInfo {
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return st
}

// bookChange says how a book file changed on disk since was, or "". Only
// the file's identity and size count: learning (BookLearn) writes learn
// fields in place, which changes the time but not what is mapped, and a
// rewrite of the same size is seen through the shared mapping anyway.
func bookChange(was, now os.FileInfo) string {
	switch {
	case was == nil && now == nil:
		return ""
	case was == nil:
		return "the file is on disk now"
	case now == nil:
		return "the file is gone from disk"
	case !os.SameFile(was, now):
		return "the file was replaced on disk"
	case was.Size() != now.Size():
		return fmt.Sprintf("the file was rewritten on disk (%d bytes, was %d)", now.Size(), was.Size())
	}
	return ""
}

// CheckOnDisk looks whether a book file changed on disk, or an open book
// found its file shrunk under it, and if so has the books read again
// (ToRead gives the reading to start); it reports whether it did. Between
// games it also reads again an ABK book written since it was read
// (learning, or Arena editing it): it is held in memory, so nothing
// written in place reaches it. One reading at a time: a change seen
// while one is under way is seen again once its books are taken in.
func (s *Books) CheckOnDisk(betweenGames bool) bool {
	if !s.settings.Book || s.reading != nil {
		return false
	}
	why := map[string]string{}
	for _, d := range s.disk {
		now := statBook(d.path)
		if w := bookChange(d.info, now); w != "" {
			why[d.path] = w
		} else if betweenGames && now != nil && !now.ModTime().Equal(d.info.ModTime()) && s.heldInMemory(d.path) {
			why[d.path] = "the ABK book was written since it was read"
		}
	}
	for _, b := range s.open {
		if _, ok := why[b.Path()]; !ok && b.Err() != nil {
			why[b.Path()] = "the file shrank while open (rewritten in place)"
		}
	}
	if len(why) == 0 {
		return false
	}
	s.reading = &Reading{paths: slices.Clone(s.settings.BooksInUse()), options: s.settings.ReadOptions(), why: why}
	s.toStart = s.reading
	return true
}

// heldInMemory reports a book read whole when opened (an ABK book).
func (s *Books) heldInMemory(path string) bool {
	return slices.ContainsFunc(s.open, func(b *book.Book) bool { return b.Path() == path && b.Format().ReadWhole() })
}

// Reading is the books in use read again from their files, beside the
// loop: an ABK book is read whole, which took seconds on a loaded machine
// (a 4 MB book, 8 proxies learning into it), and the GUI's host kills an
// engine that long silent. Read runs on a goroutine of its own; the loop
// then hands the reading to TakeIn, which puts the books read in place of
// the open ones.
type Reading struct {
	paths   []string
	options formats.Options
	why     map[string]string // what changed, by path
	read    booksRead         // what Read read
}

// ToRead takes the reading CheckOnDisk found due, if any, for the caller
// to Read beside the loop and hand back to TakeIn on the loop.
func (s *Books) ToRead() *Reading {
	r := s.toStart
	s.toStart = nil
	return r
}

// Read opens the books of the reading. It touches nothing of the Books it
// came from: it may run on any goroutine.
func (r *Reading) Read() { r.read = readBooks(r.paths, r.options) }

// Discard closes the books read, when they are not taken in.
func (r *Reading) Discard() {
	for _, b := range r.read.open {
		b.Close()
	}
}

// TakeIn puts the books that r read in place of the open ones, and says
// what the user is to be told. A reading overtaken by the books being
// opened anew (a setoption) is discarded.
func (s *Books) TakeIn(r *Reading) []Notice {
	if r != s.reading {
		r.Discard()
		return nil
	}
	s.Close()
	s.gen++
	notices := s.install(r.read)
	return append(notices, s.opened(func(path string) string { return r.why[path] })...)
}

// Reopen closes and opens the configured books again, at once. why says,
// for each path, why it is opened again ("": it is not worth a word); the
// GUI is told of each such book opened, and Open reports each one that
// cannot be.
func (s *Books) Reopen(why func(path string) string) []Notice {
	notices := s.Open(config.ReopenBooks)
	return append(notices, s.opened(why)...)
}

// opened tells of each book in use opened again, and why ("": not worth
// a word).
func (s *Books) opened(why func(path string) string) []Notice {
	var notices []Notice
	for _, path := range s.settings.BooksInUse() {
		w := why(path)
		if w == "" {
			continue
		}
		i := slices.IndexFunc(s.open, func(b *book.Book) bool { return b.Path() == path })
		if i < 0 {
			s.log.Printf("book %s not opened again (%s)", path, w)
			continue
		}
		notices = append(notices, Notice{Msg: fmt.Sprintf("book %s opened (%s): %s", path, s.open[i].Size(), w)})
	}
	return notices
}
