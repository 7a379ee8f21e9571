package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
)

var convertBookCommand = command{
	name: "convert-book", summary: "convert a book between Polyglot and ABK (Arena's format), a CTG book (ChessBase's) or a counts file into either",
	usage: `usage: polyproxy convert-book BOOK -out FILE [-max-ply N] [-ctg-tournament-mode] [-ctg-prefer-main-lines]
Polyglot -> ABK: the tree from the start position through the book's legal moves, priority from
the weight (9 for a position's heaviest), games/wins/losses from the learn fields.
ABK -> Polyglot: every position of the tree keyed the Polyglot way (move orders that transpose
merged), weights from the ABK book's own settings, learn fields from its statistics.
CTG -> either: the positions lines of book moves from the start position reach (to -max-ply),
DroidFish's weights, learn fields from the statistics; the positions no line reaches are counted.
A counts file becomes a book with make-book's default move rules (make-book -from-counts has them all).
`,
	required: []string{"in", "out"},
	args:     []operand{{flag: "in", name: "BOOK"}},
	new:      func() options { return &convertBookOptions{} },
}

type convertBookOptions struct {
	in, out string
	maxPly  int
	read    readFlags
}

func (o *convertBookOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.in, "in", "", "book `file` to read (or give it as the argument): Polyglot, ABK (Arena's), CTG (ChessBase's: any of its three files) or a counts file (make-book -counts), told by content")
	fs.StringVar(&o.out, "out", "", "book `file` to write: ABK for a .abk name, else Polyglot (replaced atomically; not the input)")
	intFlag(fs, &o.maxPly, "max-ply", formats.MaxPly, 1, formats.MaxPly, "an ABK book's tree, and the walk reading a CTG book, go `N` plies deep from the start position")
	o.read.define(fs)
}

func (o *convertBookOptions) validate(*commandLine) error { return nil }

func (o *convertBookOptions) files() (inputs, outputs []fileArg) {
	return []fileArg{{"-in", o.in}}, []fileArg{{"-out", o.out}}
}

func (o *convertBookOptions) run(e *env) error {
	start := time.Now()
	src, err := o.open(e)
	if err != nil {
		return err
	}
	defer src.Close()
	if _, err := writeBook(e, formats.Claimed(o.out), o.out, src, o.maxPly); err != nil {
		return err
	}
	if err := e.commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "convert-book: %s -> %s in %.2fs\n", o.in, o.out, time.Since(start).Seconds())
	return nil
}

// open reads -in: a book, or a counts file made into one with
// make-book's default move rules.
func (o *convertBookOptions) open(e *env) (*book.Book, error) {
	counts, err := isCountsFile(o.in)
	if err != nil {
		return nil, err
	}
	if !counts {
		src, err := formats.OpenWhole(o.in, o.read.options(), o.maxPly)
		if err != nil {
			return nil, err
		}
		warnBook(e, src, src.Warnings())
		return src, nil
	}
	readers, ins, err := openCounts([]string{o.in})
	if err != nil {
		return nil, err
	}
	defer ins.Close()
	entries, _, err := build.FromCounts(readers, build.DefaultOptions())
	if err != nil {
		return nil, fmt.Errorf("%w; nothing written", err)
	}
	ins.warn(e)
	return book.FromEntries(o.in, entries), nil
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
