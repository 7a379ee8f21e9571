package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/paths"
)

var convertBookCommand = command{
	name: "convert-book", summary: "convert a book between Polyglot and ABK (Arena's format), a CTG book (ChessBase's) or a counts file into either",
	usage: `usage: polyproxy convert-book BOOK -out FILE [-max-ply N] [-threshold N] [-ctg-tournament-mode] [-ctg-prefer-main-lines]
The book written plays as the book read: each move's chance under -threshold (BookTreshold) is kept,
and the largest change of a move's chance over the book is printed.
Polyglot -> ABK: the tree from the start position through the book's legal moves; each move's games
are its chance in units of 32768 (the likeliest 65535 units, a move below the threshold none: never
played) plus the games of its learn field, the settings weigh by games alone, and the book is marked
so that the units are never shown as games played.
ABK -> Polyglot: every position of the tree keyed the Polyglot way (move orders that transpose
merged), weights from the ABK book's own settings, learn fields from its statistics (the games
played alone, of a book a conversion made).
CTG -> either: the positions lines of book moves from the start position reach (to -max-ply),
DroidFish's weights, learn fields from the statistics; the positions no line reaches are counted.
A counts file becomes a book with make-book's default move rules (make-book -from-counts has them all).
An existing FILE is replaced under the lock learners take (a learner's write waits, and this waits for it);
FILE may be BOOK, and is then written only if it is unchanged since it was read.
`,
	required: []string{"in", "out"},
	args:     []operand{{flag: "in", name: "BOOK"}},
	new:      func() options { return &convertBookOptions{} },
}

type convertBookOptions struct {
	in, out   string
	maxPly    int
	threshold int // per mille
	read      readFlags
}

func (o *convertBookOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.in, "in", "", "book `file` to read (or give it as the argument): Polyglot, ABK (Arena's), CTG (ChessBase's: any of its three files) or a counts file (make-book -counts), told by content")
	fs.StringVar(&o.out, "out", "", "book `file` to write: ABK for a .abk name, else Polyglot (replaced atomically under its lock; may be the input)")
	intFlag(fs, &o.maxPly, "max-ply", formats.MaxPly, 1, formats.MaxPly, "an ABK book's tree, and the walk reading a CTG book, go `N` plies deep from the start position")
	intFlag(fs, &o.threshold, "threshold", config.DefaultBookThreshold, 0, 1000, "keep the chances the book gives under a BookTreshold of `N` per mille (the moves below it are written never to be played where the format weighs by its own rules: ABK)")
	o.read.define(fs)
}

func (o *convertBookOptions) replacesInputs() {}

func (o *convertBookOptions) validate(*commandLine) error { return nil }

func (o *convertBookOptions) files() (inputs, outputs []fileArg) {
	return []fileArg{{"-in", o.in}}, []fileArg{{"-out", o.out}}
}

func (o *convertBookOptions) run(e *env) error {
	start := time.Now()
	out, err := lockOutput(e, o.out)
	if err != nil {
		return err
	}
	out.reading(o.in)
	src, err := o.open(e)
	if err != nil {
		return err
	}
	defer src.Close()
	if _, err := writeBook(e, formats.Keeping(formats.Claimed(o.out), o.threshold), o.out, src, o.maxPly); err != nil {
		return err
	}
	if err := e.commit(); err != nil {
		return err
	}
	if err := o.sayChanceChange(e, src); err != nil {
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
	if counts && paths.Same(o.in, o.out) {
		return nil, usageErrorf("-out %s is the input -in %s, a counts file: give another output file; nothing written", o.out, o.in)
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

// sayChanceChange reads the book written and says the largest change of
// a move's chance from the book read, under the threshold.
func (o *convertBookOptions) sayChanceChange(e *env, src *book.Book) error {
	dst, err := formats.OpenWhole(o.out, o.read.options(), o.maxPly)
	if err != nil {
		return fmt.Errorf("reading the book written: %w", err)
	}
	defer dst.Close()
	c := formats.CompareChances(src, dst, o.threshold, o.maxPly)
	if c.Largest == 0 {
		fmt.Fprintf(e.stderr, "convert-book: every move's chance kept exactly over %d positions (threshold %d per mille)\n", c.Positions, o.threshold)
		return nil
	}
	fmt.Fprintf(e.stderr, "convert-book: largest change of a move's chance over %d positions (threshold %d per mille): %s (%s: %s in %s, %s in %s)\n",
		c.Positions, o.threshold, percentPoints(c.Largest), sanLine(c.Line, c.Move), chancePercent(c.From), o.in, chancePercent(c.To), o.out)
	return nil
}

// chancePercent is a chance in per cent, to a precision that shows a change of
// a 65535th.
func chancePercent(x float64) string { return strconv.FormatFloat(100*x, 'f', 4, 64) + "%" }

// percentPoints is a change of chance in percentage points.
func percentPoints(x float64) string {
	return strconv.FormatFloat(100*x, 'f', 4, 64) + " percentage points"
}

// sanLine is the move m after the line of moves from the start position,
// in SAN with move numbers ("after 1.e4 e5: c3"; "at the start: e4").
func sanLine(line []board.Move, m board.Move) string {
	pos := board.StartPosition()
	var b strings.Builder
	for i, mv := range line {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d.", i/2+1)
		}
		b.WriteString(pos.SAN(mv))
		b.WriteByte(' ')
		pos = pos.Next(mv)
	}
	num := ""
	if len(line)%2 == 0 {
		num = fmt.Sprintf("%d.", len(line)/2+1)
	} else {
		num = fmt.Sprintf("%d...", len(line)/2+1)
	}
	if len(line) == 0 {
		return "at the start, " + num + pos.SAN(m)
	}
	return "after " + strings.TrimSpace(b.String()) + ", " + num + pos.SAN(m)
}
