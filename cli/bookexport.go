package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/build"
)

// Bounds of the engine check's flags.
const (
	maxMovetime = 3600 * 1000 // an hour a position, in ms
	maxCP       = 100000      // beyond any centipawn score an engine reports
)

// treeFlags are the flags book-to-pgn and book-to-openings share.
type treeFlags struct {
	bin, out, fen string
	chess960      bool
	opt           build.TreeOptions
}

func (t *treeFlags) define(fs *flag.FlagSet, depth int) {
	fs.StringVar(&t.bin, "bin", "", "book `file` to read")
	fs.StringVar(&t.out, "out", "", "write to `file` (replaced atomically; not an input) instead of stdout")
	fs.StringVar(&t.fen, "fen", "", "start from this `FEN` instead of the standard position (of a Chess960 book: each start it has); its castling field may be KQkq, Shredder-FEN or X-FEN")
	fs.BoolVar(&t.chess960, "chess960", false, "Chess960: from each Chess960 start the book has (without -fen), castling king takes rook; on by itself for a book whose @PG@ header names fischerandom, or a -fen only Chess960 has")
	intFlag(fs, &t.opt.MaxPly, "depth", depth, 0, maxGamePlies, "follow the book at most `N` plies (0: no limit)")
	percentFlag(fs, &t.opt.MinShare, "min-share", "follow only moves with at least `PCT` percent of their position's weight")
}

// starts are the positions the tree is walked from: -fen's; each
// Chess960 start the book has, for a Chess960 book; else the standard
// start.
func (t *treeFlags) starts(b *book.Book) []board.Position {
	h, err := b.Header()
	chess960 := t.chess960 || err == nil && h != nil && h.Chess960()
	if t.opt.Start != nil {
		if chess960 && !t.opt.Start.Chess960() {
			// A Chess960 book: -fen's castling is Chess960's (check read it).
			if p, err := board.ParseFENVariant(t.fen, true); err == nil {
				t.opt.Start = p
			}
		}
		return []board.Position{*t.opt.Start}
	}
	if chess960 {
		var out []board.Position
		for _, s := range build.BookStarts(b, false) {
			out = append(out, s.Pos)
		}
		return out
	}
	return []board.Position{*board.StartPosition()}
}

func (t *treeFlags) check() error {
	if err := checkOutputs([]fileArg{{"-bin", t.bin}}, []fileArg{{"-out", t.out}}); err != nil {
		return err
	}
	if t.fen != "" {
		p, err := board.ParseFENVariant(t.fen, t.chess960 || board.Chess960FEN(t.fen))
		if err != nil {
			return usageErrorf("-fen: %v", err)
		}
		t.opt.Start = p
	}
	return nil
}

// output runs write on stdout, or on -out's file written atomically.
func (t *treeFlags) output(stdout io.Writer, write func(io.Writer) error) error {
	if t.out == "" {
		bw := bufio.NewWriter(stdout)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return book.WriteFileFrom(t.out, write)
}

func runBookToPGN(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("book-to-pgn", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var tf treeFlags
	tf.define(fs, 20)
	lines := fs.Bool("lines", false, "write every line of the tree as its own game instead (no variations: for make-book and tools that read main lines)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy book-to-pgn -bin BOOK [-depth N] [-min-share PCT] [-fen FEN] [-chess960] [-lines] [-out FILE]")
		fmt.Fprintln(stderr, "The book's tree as one PGN game: the heaviest move is the main line, the others are")
		fmt.Fprintln(stderr, "variations by weight; comments give the share of the position's weight, the weight, learn")
		fmt.Fprintln(stderr, "counts, and 'transposes' where a position already written elsewhere is reached again.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "bin"); err != nil {
		return err
	}
	if err := tf.check(); err != nil {
		return err
	}
	b, err := openChecked(tf.bin, stderr, "book-to-pgn")
	if err != nil {
		return err
	}
	defer b.Close()
	starts := tf.starts(b)
	if *lines {
		n := 0
		err := tf.output(stdout, func(w io.Writer) error {
			for _, start := range starts {
				opt := tf.opt
				opt.Start = &start
				err := build.TreeLines(b, opt, func(line []board.Move) error {
					n++
					return build.WriteLineGame(w, "Book lines of "+filepath.Base(tf.bin), n, start, line)
				})
				if err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "book-to-pgn: %d lines\n", n)
		return nil
	}
	var st build.TreeStats
	err = tf.output(stdout, func(w io.Writer) error {
		for _, start := range starts {
			opt := tf.opt
			if len(starts) > 1 || start.Chess960() {
				opt.Start = &start
			}
			s, err := build.TreeToPGN(w, b, filepath.Base(tf.bin), opt)
			if err != nil {
				return err
			}
			st.Moves += s.Moves
			st.Positions += s.Positions
			st.Transpositions += s.Transpositions
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "book-to-pgn: %d moves from %d positions (%d transpositions not repeated)\n", st.Moves, st.Positions, st.Transpositions)
	return nil
}

func runBookToOpenings(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("book-to-openings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var tf treeFlags
	tf.define(fs, 0)
	var ply int
	intFlag(fs, &ply, "ply", 0, 1, maxGamePlies, "the positions reached by exactly `N` book moves (without -ply: the leaves of the tree)")
	var minLine float64
	percentFlag(fs, &minLine, "min-line-share", "(without -ply) end a line where its share, the product of its moves' shares, would fall below `PCT` percent")
	format := fs.String("format", "epd", "`epd` (one position a line: FEN's first four fields) or pgn (one game per position, its book line)")
	var eng engineCheck
	fs.StringVar(&eng.path, "engine", "", "UCI engine `program` to score each position (keeps those within -min-cp..-max-cp)")
	intFlag(fs, &eng.movetime, "movetime", 200, 1, maxMovetime, "engine time per position in `ms`")
	intFlag(fs, &eng.minCP, "min-cp", -50, -maxCP, maxCP, "keep positions the engine scores at least `CP` centipawns, from White's view")
	intFlag(fs, &eng.maxCP, "max-cp", 50, -maxCP, maxCP, "keep positions the engine scores at most `CP` centipawns, from White's view")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy book-to-openings -bin BOOK (-ply N | [-min-line-share PCT]) [-depth N] [-min-share PCT]")
		fmt.Fprintln(stderr, "         [-format epd|pgn] [-fen FEN] [-chess960] [-out FILE] [-engine PROGRAM [-movetime MS] [-min-cp CP] [-max-cp CP]]")
		fmt.Fprintln(stderr, "An opening suite from a book, for fastchess -openings file=F format=epd|pgn or cutechess-cli")
		fmt.Fprintln(stderr, "-openings file=F format=epd|pgn: each position once, heaviest line first. Without -ply, the")
		fmt.Fprintln(stderr, "leaves of the tree (where the book, -depth or -min-line-share ends a line).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "bin"); err != nil {
		return err
	}
	if err := tf.check(); err != nil {
		return err
	}
	if ply > 0 && minLine > 0 {
		return usageErrorf("-ply and -min-line-share do not go together")
	}
	if *format != "epd" && *format != "pgn" {
		return usageErrorf("-format must be epd or pgn, not %q", *format)
	}
	if eng.path != "" && eng.minCP > eng.maxCP {
		return usageErrorf("-min-cp must be at most -max-cp")
	}
	b, err := openChecked(tf.bin, stderr, "book-to-openings")
	if err != nil {
		return err
	}
	defer b.Close()
	var ops []build.Opening
	for _, start := range tf.starts(b) {
		opt := tf.opt
		opt.Start = &start
		ops = append(ops, build.Openings(b, opt, ply, minLine)...)
	}
	found := len(ops)
	if eng.path != "" {
		if ops, err = eng.filter(ops, stderr); err != nil {
			return err
		}
	}
	switch {
	case found == 0:
		return errors.New("no position to write: the book gives none with these flags; nothing written")
	case len(ops) == 0:
		return fmt.Errorf("no position to write: none of the %d found scored within %d..%d cp; nothing written", found, eng.minCP, eng.maxCP)
	}
	name := filepath.Base(tf.bin)
	err = tf.output(stdout, func(w io.Writer) error {
		for i, o := range ops {
			var err error
			if *format == "epd" {
				_, err = fmt.Fprintln(w, epd(&o.Pos))
			} else {
				err = build.WriteLineGame(w, "Openings from "+name, i+1, o.Start, o.Moves)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "book-to-openings: %d positions written", len(ops))
	if eng.path != "" {
		fmt.Fprintf(stderr, " (%d found, %d outside %d..%d cp)", found, found-len(ops), eng.minCP, eng.maxCP)
	}
	fmt.Fprintln(stderr)
	return nil
}

// epd is a position as EPD: the FEN's first four fields (placement, side,
// castling, en passant), what every opening-suite reader takes.
func epd(p *board.Position) string {
	f := strings.Fields(p.FEN())
	return strings.Join(f[:4], " ")
}
