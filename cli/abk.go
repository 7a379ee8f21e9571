package cli

import (
	"fmt"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/formats"
)

// writeBookAs writes entries as a book at path in the format its name
// asks for: an ABK book (Arena's) for a .abk name, its tree to maxPly
// plies (see abk.Write), else a Polyglot book. It returns what it wrote:
// "N entries" or "N ABK records".
func writeBookAs(e *env, path string, entries []book.Entry, maxPly int) (string, error) {
	if formats.Claimed(path) != abk.Format {
		return fmt.Sprintf("%d entries", len(entries)), e.outs.WriteFile(path, entries)
	}
	records, err := writeABK(e, path, book.FromEntries(path, entries), maxPly)
	return fmt.Sprintf("%d ABK records", records), err
}

// writeABK writes src as an ABK book and says what the tree holds: a
// Polyglot book is a table of positions, an ABK book a tree from the start
// position, so what no line of book moves reaches is left out. It returns
// the records written.
func writeABK(e *env, path string, src *book.Book, maxPly int) (int, error) {
	maxPly = min(maxPly, abk.MaxPly)
	st, err := abk.WriteTo(e.outs, path, src, maxPly)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(e.stderr, "%s: ABK book %s: %d records, %d positions to ply %d", e.cmd, path, st.Records, st.Positions, maxPly)
	if st.Transposed > 0 {
		fmt.Fprintf(e.stderr, "; %d positions reached again by another move order have their moves under their first line only", st.Transposed)
	}
	fmt.Fprintln(e.stderr)
	if off := st.BookPositions - st.Positions; off > 0 {
		e.warnf("%d of the book's %d positions are not on the ABK tree: no line of book moves from the start position reaches them within %d plies (ABK holds lines from the start position only)", off, st.BookPositions, maxPly)
	}
	return st.Records, nil
}
