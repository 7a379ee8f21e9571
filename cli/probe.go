package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/probe"
)

var probeCommand = command{
	name: "probe", summary: "show a position's key and every book entry for it",
	usage: `usage: polyproxy probe BOOK... [-moves "e4 e5 ..."] [-fen FEN] [-chess960] [-book-white FILES] [-book-black FILES]
                      [-json] [-mode MODE] [-threshold N] [-width N] [-min-weight N] [-learn-weight]
                      [-book-depth N] [-max-moves N] [-min-line N]
The BOOKs are read in priority order, as the proxy reads BookFile (also -book "a.bin;b.bin").
Lists the position's entries, the likeliest first, and which moves each rule of choosing leaves
eligible. A chance is how likely a game is to play the move (the book decision the proxy plays by);
a share is of the total weight of the legal entries; learn is the raw field, shown as games
(high 16 bits) / points (low 16 bits, half points). A CTG book's moves also show their annotation
and the statistics and recommendation of the position each leads to.
`,
	required: []string{"book"},
	args:     []operand{{flag: "book", name: "BOOK", many: true, join: config.BookFileSeparator}},
	new:      func() options { return &probeOptions{} },
}

type probeOptions struct {
	// settings are the book settings, as the proxy's: the same names,
	// bounds and defaults (BookFile and the rest, from the option table).
	settings *config.Config
	fen      string
	chess960 bool
	moves    string
	asJSON   bool
	// The position, once validated: the line played to it, from start.
	start, line *board.Line
	played      []board.Move
}

func (o *probeOptions) define(fs *flag.FlagSet) {
	o.settings = config.Default("")
	o.settings.BookFiles = nil // only the books given
	o.settings.ToolFlags(fs)
	fs.StringVar(&o.fen, "fen", "", "start `position` (default: the standard start position); its castling field may be KQkq, Shredder-FEN (HAha) or X-FEN")
	fs.BoolVar(&o.chess960, "chess960", false, "Chess960: castling moves are king takes rook (b1a1); on by itself for a -fen whose castling rights only Chess960 has")
	fs.StringVar(&o.moves, "moves", "", "`moves` to play from the start position (or -fen), UCI or SAN, move numbers allowed: \"e4 e5 Nf3\", \"1.e4 e5 2.Nf3\", \"e2e4 e7e5\"")
	fs.BoolVar(&o.asJSON, "json", false, "print exactly one JSON object: {\"key\":...,\"rules\":[...],\"entries\":[{\"move\":...,\"raw\":...,\"weight\":...,\"learn\":...,\"legal\":...},...]}")
}

func (o *probeOptions) validate(*commandLine) error {
	o.chess960 = o.chess960 || board.Chess960FEN(o.fen)
	start, err := board.NewLineVariant(o.fen, o.chess960)
	if err != nil {
		return usageErrorf("-fen: %v", err)
	}
	line := &board.Line{Pos: start.Pos, Keys: slices.Clone(start.Keys)}
	if o.played, err = line.PlayText(o.moves); err != nil {
		return usageErrorf("-moves: %v", err)
	}
	o.start, o.line = start, line
	if len(o.books()) == 0 {
		return usageErrorf("-book names no file")
	}
	return o.movesNotBooks()
}

// movesNotBooks refuses a book that is no file but a move of the
// position: "probe book.bin -moves e4 e5" meant the moves "e4 e5".
func (o *probeOptions) movesNotBooks() error {
	for _, p := range o.settings.BooksInUse() {
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if _, err := o.line.Pos.ReadMove(filepath.Base(p)); err == nil {
			return usageErrorf("%q is a move, not a book: quote the moves, as in -moves \"e4 e5\"", p)
		}
	}
	return nil
}

func (o *probeOptions) files() (inputs, outputs []fileArg) { return nil, nil }

// books are the books for the side to move, in priority order.
func (o *probeOptions) books() []string { return o.settings.BooksFor(o.line.Pos.WhiteToMove()) }

func (o *probeOptions) run(e *env) error {
	var books []*book.Book
	defer func() {
		for _, b := range books {
			b.Close()
		}
	}()
	told := map[*book.Book]int{}
	byPath := map[string]*book.Book{}
	for _, p := range o.settings.BooksInUse() {
		// As the proxy opens it: a CTG book found a position at a time.
		b, err := formats.OpenWith(p, o.settings.ReadOptions())
		if err != nil {
			return err
		}
		books = append(books, checked(e, b))
		told[b] = len(b.Warnings())
		byPath[p] = b
	}
	// Each side's books, as the proxy shelves them: the line's book moves
	// (max moves) and the lines ahead (min line) are the other side's too.
	shelf := &book.Shelf{}
	for _, p := range o.settings.BooksFor(true) {
		shelf.White = append(shelf.White, byPath[p])
	}
	for _, p := range o.settings.BooksFor(false) {
		shelf.Black = append(shelf.Black, byPath[p])
	}
	res := probe.Report(shelf, o.start, o.played, o.settings)
	for _, b := range books {
		// The faults the probe met in a book found by position.
		warnBook(e, b, b.Warnings()[told[b]:])
	}
	if o.asJSON {
		return json.NewEncoder(e.stdout).Encode(res)
	}
	return printProbe(e.stdout, res)
}

// printProbe writes probe's text report.
func printProbe(stdout io.Writer, res probe.Result) error {
	fmt.Fprintf(stdout, "book: %s\nfen:  %s\nkey:  %s\n", res.Book, res.FEN, res.Key)
	if len(res.Books) > 1 {
		fmt.Fprintf(stdout, "books for %s: %s\n", res.Side, strings.Join(res.Books, config.BookFileSeparator))
	}
	if res.NoKey != "" {
		fmt.Fprintln(stdout, "not in book:", res.NoKey)
		return nil
	}
	if len(res.Entries) == 0 {
		fmt.Fprintln(stdout, "not in book")
		return nil
	}
	fmt.Fprintf(stdout, "%d entries, total weight of the legal ones %d\n\n", len(res.Entries), res.TotalWeight)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "move\traw\tweight\tchance\tshare\tlearn\tgames\tpoints\tlegal\t\tnote")
	for _, e := range res.Entries {
		chance, share, legal := "-", "-", "no"
		if e.Legal {
			share, legal = string(book.AppendPercent(nil, e.Share)), "yes"
		}
		if e.Eligible {
			chance = string(book.AppendPercent(nil, e.Chance))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%#08x\t%d\t%d\t%s\t\t%s\n", e.Move, e.Raw, e.Weight, chance, share, e.Learn, e.Games, e.Points, legal, e.Note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	if res.Why != "" {
		fmt.Fprintf(stdout, "no book move: %s\n\n", res.Why)
	}
	if err := printProbeFacts(stdout, res); err != nil {
		return err
	}
	before := -1 // how many moves the rules before left eligible
	for _, r := range res.Rules {
		var name string
		left := before
		before = len(r.Eligible)
		switch {
		case r.Rule == "threshold":
			name = "threshold " + strconv.Itoa(r.Value) + " per mille"
		case r.Rule == "depth" && len(r.Eligible) == left:
			continue // a position within the book's depth
		case r.Value == 0 && r.Rule != "depth":
			continue // off: changes nothing
		case r.Rule == "width":
			name = "width " + strconv.Itoa(r.Value)
		case r.Rule == "min_weight":
			name = fmt.Sprintf("min weight %d (position weight %d)", r.Value, res.PositionWeight)
		case r.Rule == "depth":
			name = fmt.Sprintf("book depth %d (full moves)", r.Value)
		case r.Rule == "max_moves":
			name = fmt.Sprintf("max moves %d (%d book moves of ours in the line)", r.Value, res.Played)
		default:
			name = fmt.Sprintf("min line %d (plies after the move)", r.Value)
		}
		moves := strings.Join(r.Eligible, " ")
		if moves == "" {
			moves = "(none: out of book)"
		}
		fmt.Fprintf(stdout, "eligible after %s: %s\n", name, moves)
	}
	return nil
}

// printProbeFacts writes what the book's format holds of the position
// and its moves beyond their entries (a CTG book's statistics and
// annotations, an ABK book's priorities and totals): the position's in
// words, the moves' as a table.
func printProbeFacts(stdout io.Writer, res probe.Result) error {
	if res.Said != "" {
		fmt.Fprintf(stdout, "%s position: %s\n", res.Format, res.Said)
	}
	if !slices.ContainsFunc(res.Entries, func(e probe.Entry) bool { return e.Row != nil }) {
		if res.Said != "" {
			fmt.Fprintln(stdout)
		}
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "move\t"+strings.Join(res.Columns, "\t")+"\t")
	for _, e := range res.Entries {
		if e.Row != nil {
			fmt.Fprintln(tw, e.Move+"\t"+strings.Join(e.Row, "\t")+"\t")
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	return nil
}
