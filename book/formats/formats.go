// Package formats is where a book file's format is recognised: the one
// table of the formats polyproxy reads, and the ways to open a book of any
// of them (Open, OpenLearnFile) that every command and the proxy use. A
// format is a package of its own (the Polyglot format is package book's,
// Arena's ABK book/abk) exporting a book.Format; adding one is one line
// below.
package formats

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
)

// All are the formats, Polyglot first: the format of a file whose name
// claims no other.
var All = []book.Format{
	book.Polyglot,
	abk.Format,
}

// Claimed is the format a file's name claims: the one whose extension it
// has (any case), else Polyglot, as the tools write a book of any other
// name.
func Claimed(path string) book.Format {
	ext := filepath.Ext(path)
	for _, f := range All {
		if strings.EqualFold(ext, f.Ext()) {
			return f
		}
	}
	return All[0]
}

// Recognise tells the format of the book file at path: the format its
// name claims (Claimed) when that is another than Polyglot, else the first
// other format the file fits (Format.Fits), else Polyglot.
func Recognise(path string) (book.Format, error) {
	// The kind of file first: opening a FIFO would block.
	if st, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open book: %w", err)
	} else if st.IsDir() {
		return nil, fmt.Errorf("open book %s: is a directory", path)
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("open book %s: not a regular file", path)
	}
	if claimed := Claimed(path); claimed != book.Polyglot {
		return claimed, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open book: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open book %s: %w", path, err)
	}
	for _, format := range All[1:] {
		if format.Fits(f, st.Size()) == nil {
			return format, nil
		}
	}
	return book.Polyglot, nil
}

// Open opens the book at path in its format (Recognise).
func Open(path string) (*book.Book, error) {
	f, err := Recognise(path)
	if err != nil {
		return nil, err
	}
	return f.Open(path)
}

// OpenLearnFile opens the book at path, in its format, for counting game
// results into it (book.OpenLearnFile).
func OpenLearnFile(path string) (*book.LearnFile, error) {
	f, err := Recognise(path)
	if err != nil {
		return nil, err
	}
	return book.OpenLearnFile(path, f)
}

// OpenLearnFileReadOnly opens the book at path, in its format, to preview
// updates (book.OpenLearnFileReadOnly).
func OpenLearnFileReadOnly(path string) (*book.LearnFile, error) {
	f, err := Recognise(path)
	if err != nil {
		return nil, err
	}
	return book.OpenLearnFileReadOnly(path, f)
}
