package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
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
	read          readFlags
}

func (t *treeFlags) define(fs *flag.FlagSet, depth int) {
	fs.StringVar(&t.bin, "bin", "", "book `file` to read (or give it as the argument)")
	t.read.define(fs)
	fs.StringVar(&t.out, "out", "", "write to `file` (replaced atomically; not an input) instead of stdout")
	fs.StringVar(&t.fen, "fen", "", "start from this `FEN` instead of the standard position (of a Chess960 book: each start it has); its castling field may be KQkq, Shredder-FEN or X-FEN")
	fs.BoolVar(&t.chess960, "chess960", false, "Chess960: from each Chess960 start the book has (without -fen), castling king takes rook; on by itself for a book whose @PG@ header names fischerandom, or a -fen only Chess960 has")
	intFlag(fs, &t.opt.MaxPly, "depth", depth, 0, build.MaxGamePlies, "follow the book at most `N` plies (0: no limit)")
	percentFlag(fs, &t.opt.MinShare, "min-share", "follow only moves with at least `PCT` percent of their position's weight")
}

// starts are the positions the tree is walked from: -fen's; each
// Chess960 start the book has, for a Chess960 book; else the standard
// start.
func (t *treeFlags) starts(b *book.Book) []board.Position {
	chess960 := t.chess960 || formats.Chess960(b)
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

// validate reads -fen.
func (t *treeFlags) validate() error {
	if t.fen != "" {
		p, err := board.ParseFENVariant(t.fen, t.chess960 || board.Chess960FEN(t.fen))
		if err != nil {
			return usageErrorf("-fen: %v", err)
		}
		t.opt.Start = p
	}
	return nil
}

func (t *treeFlags) files() (inputs, outputs []fileArg) {
	return []fileArg{{"-bin", t.bin}}, []fileArg{{"-out", t.out}}
}

var bookToPGNCommand = command{
	name: "book-to-pgn", summary: "write a book's tree as one PGN game with variations (shares, weights, learn counts)",
	usage: `usage: polyproxy book-to-pgn BOOK [-depth N] [-min-share PCT] [-fen FEN] [-chess960] [-lines] [-out FILE]
The book's tree as one PGN game: the heaviest move is the main line, the others are
variations by weight; comments give the share of the position's weight, the weight, learn
counts, and 'transposes' where a position already written elsewhere is reached again.
`,
	required: []string{"bin"},
	args:     []operand{{flag: "bin", name: "BOOK"}},
	new:      func() options { return &bookToPGNOptions{} },
}

type bookToPGNOptions struct {
	treeFlags
	lines bool
}

func (o *bookToPGNOptions) define(fs *flag.FlagSet) {
	o.treeFlags.define(fs, 20)
	fs.BoolVar(&o.lines, "lines", false, "write every line of the tree as its own game instead (no variations: for make-book and tools that read main lines)")
}

func (o *bookToPGNOptions) validate(*commandLine) error { return o.treeFlags.validate() }

func (o *bookToPGNOptions) run(e *env) error {
	b, err := openChecked(e, o.bin, o.read.options())
	if err != nil {
		return err
	}
	defer b.Close()
	starts := o.starts(b)
	if o.lines {
		return o.writeLines(e, b, starts)
	}
	var st build.TreeStats
	err = writeOutput(e, o.out, func(w io.Writer) error {
		for _, start := range starts {
			opt := o.opt
			if len(starts) > 1 || start.Chess960() {
				opt.Start = &start
			}
			s, err := build.TreeToPGN(w, b, filepath.Base(o.bin), opt)
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
	fmt.Fprintf(e.stderr, "book-to-pgn: %d moves from %d positions (%d transpositions not repeated)\n", st.Moves, st.Positions, st.Transpositions)
	return nil
}

// writeLines is -lines: every line of the tree as a game of its own.
func (o *bookToPGNOptions) writeLines(e *env, b *book.Book, starts []board.Position) error {
	n := 0
	err := writeOutput(e, o.out, func(w io.Writer) error {
		for _, start := range starts {
			opt := o.opt
			opt.Start = &start
			err := build.TreeLines(b, opt, func(line []board.Move) error {
				n++
				return build.WriteLineGame(w, "Book lines of "+filepath.Base(o.bin), n, start, line)
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
	fmt.Fprintf(e.stderr, "book-to-pgn: %d lines\n", n)
	return nil
}

var bookToOpeningsCommand = command{
	name: "book-to-openings", summary: "write the positions of a book's tree as an EPD or PGN opening suite (fastchess, cutechess-cli)",
	usage: `usage: polyproxy book-to-openings BOOK (-ply N | [-min-line-share PCT]) [-depth N] [-min-share PCT]
         [-format epd|pgn] [-fen FEN] [-chess960] [-out FILE] [-engine PROGRAM [-movetime MS] [-min-cp CP] [-max-cp CP]]
An opening suite from a book, for fastchess -openings file=F format=epd|pgn or cutechess-cli
-openings file=F format=epd|pgn: each position once, heaviest line first. Without -ply, the
leaves of the tree (where the book, -depth or -min-line-share ends a line).
`,
	required: []string{"bin"},
	args:     []operand{{flag: "bin", name: "BOOK"}},
	new:      func() options { return &bookToOpeningsOptions{} },
}

type bookToOpeningsOptions struct {
	treeFlags
	ply     int
	minLine float64
	format  string
	eng     engineCheck
}

func (o *bookToOpeningsOptions) define(fs *flag.FlagSet) {
	o.treeFlags.define(fs, 0)
	intFlag(fs, &o.ply, "ply", 0, 1, build.MaxGamePlies, "the positions reached by exactly `N` book moves (without -ply: the leaves of the tree)")
	percentFlag(fs, &o.minLine, "min-line-share", "(without -ply) end a line where its share, the product of its moves' shares, would fall below `PCT` percent")
	fs.StringVar(&o.format, "format", "epd", "`epd` (one position a line: FEN's first four fields) or pgn (one game per position, its book line)")
	fs.StringVar(&o.eng.path, "engine", "", "UCI engine `program` to score each position (keeps those within -min-cp..-max-cp)")
	intFlag(fs, &o.eng.movetime, "movetime", 200, 1, maxMovetime, "engine time per position in `ms`")
	intFlag(fs, &o.eng.minCP, "min-cp", -50, -maxCP, maxCP, "keep positions the engine scores at least `CP` centipawns, from White's view")
	intFlag(fs, &o.eng.maxCP, "max-cp", 50, -maxCP, maxCP, "keep positions the engine scores at most `CP` centipawns, from White's view")
}

func (o *bookToOpeningsOptions) validate(*commandLine) error {
	if err := o.treeFlags.validate(); err != nil {
		return err
	}
	switch {
	case o.ply > 0 && o.minLine > 0:
		return usageErrorf("-ply and -min-line-share do not go together")
	case o.format != "epd" && o.format != "pgn":
		return usageErrorf("-format must be epd or pgn, not %q", o.format)
	case o.eng.path != "" && o.eng.minCP > o.eng.maxCP:
		return usageErrorf("-min-cp must be at most -max-cp")
	}
	return nil
}

func (o *bookToOpeningsOptions) run(e *env) error {
	b, err := openChecked(e, o.bin, o.read.options())
	if err != nil {
		return err
	}
	defer b.Close()
	var ops []build.Opening
	for _, start := range o.starts(b) {
		opt := o.opt
		opt.Start = &start
		ops = append(ops, build.Openings(b, opt, o.ply, o.minLine)...)
	}
	found := len(ops)
	if o.eng.path != "" {
		if ops, err = o.eng.filter(e, ops); err != nil {
			return err
		}
	}
	switch {
	case found == 0:
		return errors.New("no position to write: the book gives none with these flags; nothing written")
	case len(ops) == 0:
		return fmt.Errorf("no position to write: none of the %d found scored within %d..%d cp; nothing written", found, o.eng.minCP, o.eng.maxCP)
	}
	name := filepath.Base(o.bin)
	err = writeOutput(e, o.out, func(w io.Writer) error {
		for i, op := range ops {
			var err error
			if o.format == "epd" {
				_, err = fmt.Fprintln(w, epd(&op.Pos))
			} else {
				err = build.WriteLineGame(w, "Openings from "+name, i+1, op.Start, op.Moves)
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
	fmt.Fprintf(e.stderr, "book-to-openings: %d positions written", len(ops))
	if o.eng.path != "" {
		fmt.Fprintf(e.stderr, " (%d found, %d outside %d..%d cp)", found, found-len(ops), o.eng.minCP, o.eng.maxCP)
	}
	fmt.Fprintln(e.stderr)
	return nil
}

// epd is a position as EPD: the FEN's first four fields (placement, side,
// castling, en passant), what every opening-suite reader takes.
func epd(p *board.Position) string {
	f := strings.Fields(p.FEN())
	return strings.Join(f[:4], " ")
}
