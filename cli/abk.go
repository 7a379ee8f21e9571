package cli

import (
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/formats"
)

// writeBookAs writes entries as a book at path in the format its name
// asks for: an ABK book (Arena's) for a .abk name, its tree to maxPly
// plies (see abk.Write), else a Polyglot book. who names the command for
// its note on stderr. It returns what it wrote: "N entries" or "N ABK
// records".
func writeBookAs(who, path string, entries []book.Entry, maxPly int, stderr io.Writer) (string, error) {
	if formats.Claimed(path) != abk.Format {
		return fmt.Sprintf("%d entries", len(entries)), book.WriteFile(path, entries)
	}
	records, err := writeABK(who, path, book.FromEntries(path, entries), maxPly, stderr)
	return fmt.Sprintf("%d ABK records", records), err
}

// writeABK writes src as an ABK book and says what the tree holds: a
// Polyglot book is a table of positions, an ABK book a tree from the start
// position, so what no line of book moves reaches is left out. It returns
// the records written.
func writeABK(who, path string, src *book.Book, maxPly int, stderr io.Writer) (int, error) {
	maxPly = min(maxPly, abk.MaxPly)
	st, err := abk.Write(path, src, maxPly)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(stderr, "%s: ABK book %s: %d records, %d positions to ply %d", who, path, st.Records, st.Positions, maxPly)
	if st.Transposed > 0 {
		fmt.Fprintf(stderr, "; %d positions reached again by another move order have their moves under their first line only", st.Transposed)
	}
	fmt.Fprintln(stderr)
	if off := st.BookPositions - st.Positions; off > 0 {
		warnf(stderr, who, "%d of the book's %d positions are not on the ABK tree: no line of book moves from the start position reaches them within %d plies (ABK holds lines from the start position only)", off, st.BookPositions, maxPly)
	}
	return st.Records, nil
}
