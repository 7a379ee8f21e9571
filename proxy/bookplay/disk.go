package bookplay

import (
	"fmt"
	"os"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/config"
)

// Books that change on disk while polyproxy runs (a new version copied
// over the old one, or renamed onto its path) are noticed cheaply, with a
// stat of each configured book file at ucinewgame and when a probe finds
// no move, and reopened; the GUI is told whenever a book is reopened or
// dropped, and why.

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

// CheckOnDisk reopens the books when a book file changed on disk, or
// an open book found its file shrunk under it; it reports whether it did.
// Between games it also reopens an ABK book written since it was read
// (learning, or Arena editing it): it is held in memory, so nothing written
// in place reaches it, and reading it again takes a while (a second for a
// big book), which is for between games, not for a move's time.
func (s *Books) CheckOnDisk(betweenGames bool) (reopened bool, notices []Notice) {
	if !s.settings.Book {
		return false, nil
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
		return false, nil
	}
	return true, s.Reopen(func(path string) string { return why[path] })
}

// heldInMemory reports a book read whole when opened (an ABK book).
func (s *Books) heldInMemory(path string) bool {
	return slices.ContainsFunc(s.open, func(b *book.Book) bool { return b.Path() == path && b.Format().ReadWhole() })
}

// Reopen closes and opens the configured books again. why says, for each
// path, why it is opened again ("": it is not worth a word); the GUI is
// told of each such book opened, and Open reports each one that cannot
// be.
func (s *Books) Reopen(why func(path string) string) []Notice {
	notices := s.Open(config.ReopenBooks)
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
