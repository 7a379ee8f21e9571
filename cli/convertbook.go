package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
)

func runConvertBook(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("convert-book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "book `file` to read: Polyglot, ABK (Arena's) or a counts file (make-book -counts), told by content")
	out := fs.String("out", "", "book `file` to write: ABK for a .abk name, else Polyglot (replaced atomically; not the input)")
	maxPly := abk.MaxPly
	intFlag(fs, &maxPly, "max-ply", maxPly, 1, abk.MaxPly, "an ABK book's tree goes `N` plies deep from the start position")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy convert-book -in FILE -out FILE [-max-ply N]")
		fmt.Fprintln(stderr, "Polyglot -> ABK: the tree from the start position through the book's legal moves, priority from")
		fmt.Fprintln(stderr, "the weight (9 for a position's heaviest), games/wins/losses from the learn fields.")
		fmt.Fprintln(stderr, "ABK -> Polyglot: every position of the tree keyed the Polyglot way (move orders that transpose")
		fmt.Fprintln(stderr, "merged), weights from the ABK book's own settings, learn fields from its statistics.")
		fmt.Fprintln(stderr, "A counts file becomes a book with make-book's default move rules (make-book -from-counts has them all).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "in", "out"); err != nil {
		return err
	}
	if err := checkOutputs([]fileArg{{"-in", *in}}, []fileArg{{"-out", *out}}); err != nil {
		return err
	}
	start := time.Now()
	counts, err := isCountsFile(*in)
	if err != nil {
		return err
	}
	var src *book.Book
	if counts {
		readers, ins, err := openCounts([]string{*in})
		if err != nil {
			return err
		}
		defer ins.Close()
		entries, _, err := build.FromCounts(readers, build.DefaultOptions())
		if err != nil {
			return fmt.Errorf("%v; nothing written", err)
		}
		ins.warn(stderr, "convert-book")
		src = book.FromEntries(*in, entries)
	} else {
		if src, err = formats.Open(*in); err != nil {
			return err
		}
		for _, w := range src.Warnings() {
			warnf(stderr, "convert-book", "%s", w)
		}
	}
	defer src.Close()
	if formats.Claimed(*out) == abk.Format {
		if _, err := writeABK("convert-book", *out, src, maxPly, stderr); err != nil {
			return err
		}
	} else {
		entries := make([]book.Entry, src.Len())
		for i := range entries {
			entries[i] = src.Entry(i)
		}
		if err := src.Err(); err != nil {
			return err
		}
		if err := book.WriteFile(*out, entries); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "convert-book: Polyglot book %s: %d entries\n", *out, len(entries))
	}
	fmt.Fprintf(stderr, "convert-book: %s -> %s in %.2fs\n", *in, *out, time.Since(start).Seconds())
	return nil
}

// isCountsFile reports a counts file, by its first bytes. Anything but a
// regular file is left to formats.Open to refuse (opening a FIFO would block).
func isCountsFile(path string) (bool, error) {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, len(build.CountsMagic))
	n, _ := io.ReadFull(f, head)
	return bytes.Equal(head[:n], []byte(build.CountsMagic)), nil
}
