package cli

import (
	"fmt"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/formats"
)

// writeBookAs writes entries as a book at path in the format its name
// asks for (formats.Claimed): an ABK book (Arena's) for a .abk name, its
// tree to maxPly plies, else a Polyglot book, the entries as they are. It
// returns what it wrote: "N entries" or "N ABK records".
func writeBookAs(e *env, path string, entries []book.Entry, maxPly int) (string, error) {
	return writeBook(e, formats.Claimed(path), path, book.FromEntries(path, entries), maxPly)
}

// writeBook writes src as a book of format f at path and says what its
// writer says of it: a format of lines from the start position (ABK's
// tree) leaves out what no line of book moves reaches, and warns of it.
// It returns what it wrote ("N entries", "N ABK records").
func writeBook(e *env, f book.Format, path string, src *book.Book, maxPly int) (string, error) {
	w, err := formats.WriteAs(f, e.outs, path, src, maxPly)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(e.stderr, "%s: %s\n", e.cmd, w.Said)
	for _, warn := range w.Warnings {
		e.warnf("%s", warn)
	}
	return w.Count, nil
}
