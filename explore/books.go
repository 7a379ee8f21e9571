package explore

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/formats"
)

// openBook is a book file the page shows, kept open, and opened again
// when the file changes under it: replaced (a rewrite by an edit, a book
// tool, another explore), or, for an ABK book read whole, written in
// place (learning, an edit).
type openBook struct {
	path string
	read formats.Options // how its format reads weights (a CTG book's settings)
	b    *book.Book
	st   os.FileInfo
	edit *book.LearnFile // with -edit
}

// open opens the book at path as probe does: mapped, read with the
// settings read, its warnings told, checked for order (a book out of order
// is still read exactly, slowly).
func open(path string, read formats.Options, warn func(string)) (*openBook, error) {
	ob := &openBook{path: path, read: read}
	if err := ob.reopen(warn, true); err != nil {
		return nil, err
	}
	return ob, nil
}

// reopen opens the file the path names now. The first time, the order
// check is made before the page is served, as probe makes it; later, in
// the background.
func (ob *openBook) reopen(warn func(string), first bool) error {
	st, err := os.Stat(ob.path)
	if err != nil {
		return fmt.Errorf("open book: %w", err)
	}
	b, err := formats.OpenWith(ob.path, ob.read)
	if err != nil {
		return err
	}
	for _, w := range b.Warnings() {
		warn(w)
	}
	if first {
		if err := b.Verify(); err != nil {
			warn(err.Error())
		}
	} else {
		go b.Verify() // Close stops it
	}
	if ob.b != nil {
		ob.b.Close()
	}
	ob.b, ob.st = b, st
	if ob.edit != nil {
		ob.edit.ReadAs(st) // an edit goes into the book the page shows, or none
	}
	return nil
}

// changed reports whether the file is no longer the one open: replaced,
// or resized; an ABK book also when written in place. A Polyglot book's
// in-place writes (learn fields, weights) are seen through the mapping.
func (ob *openBook) changed() bool {
	st, err := os.Stat(ob.path)
	if err != nil {
		return false // gone: keep showing what was read
	}
	if !os.SameFile(st, ob.st) || st.Size() != ob.st.Size() {
		return true
	}
	// Read into memory (ABK; every book on Windows): in-place writes too.
	inMemory := ob.b.Format().ReadWhole() || runtime.GOOS == "windows"
	return inMemory && !st.ModTime().Equal(ob.st.ModTime())
}

// refresh reopens the book when its file changed; a failure keeps the book
// open as it was, and is told.
func (ob *openBook) refresh(warn func(string)) {
	if !ob.changed() {
		return
	}
	if err := ob.reopen(warn, false); err != nil {
		warn(fmt.Sprintf("%s changed and cannot be read again: %v (showing it as it was)", ob.path, err))
	}
}

func (ob *openBook) close() {
	ob.b.Close()
	if ob.edit != nil {
		ob.edit.Close()
	}
}

// modTime is when the file was last written, for the page.
func (ob *openBook) modTime() time.Time { return ob.st.ModTime() }
