package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/probe"
)

func runProbe(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	// The book settings are the proxy's: the same names, bounds and
	// defaults (BookFile and the rest, from the option table).
	settings := config.Default("")
	settings.BookFiles = nil // only the books given
	settings.ToolFlags(fs)
	fen := fs.String("fen", "", "start `position` (default: the standard start position); its castling field may be KQkq, Shredder-FEN (HAha) or X-FEN")
	chess960 := fs.Bool("chess960", false, "Chess960: castling moves are king takes rook (b1a1); on by itself for a -fen whose castling rights only Chess960 has")
	moves := fs.String("moves", "", "`UCI moves` to play from the start position, space-separated, e.g. \"e2e4 e7e5\"")
	asJSON := fs.Bool("json", false, "print exactly one JSON object: {\"key\":...,\"rules\":[...],\"entries\":[{\"move\":...,\"raw\":...,\"weight\":...,\"learn\":...,\"legal\":...},...]}")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: polyproxy probe -book FILE[;FILE...] [-book-white FILES] [-book-black FILES] [-fen FEN] [-chess960] [-moves \"e2e4 e7e5 ...\"]")
		fmt.Fprintln(stderr, "                      [-json] [-threshold N] [-width N] [-min-weight N] [-learn-weight]")
		fmt.Fprintln(stderr, "Lists the position's entries in file order, and which moves each rule of choosing leaves eligible.")
		fmt.Fprintln(stderr, "Shares are of the total weight of the legal entries; learn is the raw field, shown as games")
		fmt.Fprintln(stderr, "(high 16 bits) / points (low 16 bits, half points).")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, "book"); err != nil {
		return err
	}
	*chess960 = *chess960 || board.Chess960FEN(*fen)
	line, err := board.NewLineVariant(*fen, *chess960)
	if err != nil {
		return usageErrorf("-fen: %v", err)
	}
	if err := line.PlayMoves(strings.Fields(*moves), 0); err != nil {
		return usageErrorf("-moves: %v", err)
	}
	paths := settings.BooksFor(line.Pos.WhiteToMove())
	if len(paths) == 0 {
		return usageErrorf("-book names no file")
	}
	var books []*book.Book
	defer func() {
		for _, b := range books {
			b.Close()
		}
	}()
	for _, p := range paths {
		b, err := openChecked(p, stderr, "probe")
		if err != nil {
			return err
		}
		books = append(books, b)
	}

	res := probe.Report(books, &line.Pos, settings)
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
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
	fmt.Fprintln(tw, "move\traw\tweight\tshare\tlearn\tgames\tpoints\tlegal\t\tnote")
	for _, e := range res.Entries {
		share, legal := "-", "no"
		if e.Legal {
			share, legal = fmt.Sprintf("%.2f%%", 100*e.Share), "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%#08x\t%d\t%d\t%s\t\t%s\n", e.Move, e.Raw, e.Weight, share, e.Learn, e.Games, e.Points, legal, e.Note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
	for _, r := range res.Rules {
		var name string
		switch {
		case r.Rule == "threshold":
			name = "threshold " + strconv.Itoa(r.Value) + " per mille"
		case r.Value == 0:
			continue // off: changes nothing
		case r.Rule == "width":
			name = "width " + strconv.Itoa(r.Value)
		default:
			name = fmt.Sprintf("min weight %d (position weight %d)", r.Value, res.PositionWeight)
		}
		moves := strings.Join(r.Eligible, " ")
		if moves == "" {
			moves = "(none: out of book)"
		}
		fmt.Fprintf(stdout, "eligible after %s: %s\n", name, moves)
	}
	return nil
}
