package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/ctg"
	"github.com/polyproxy/polyproxy/book/formats"
)

type infoBookResult struct {
	File   string `json:"file"`
	Format string `json:"format"` // the file's format: "Polyglot", "ABK", "CTG"
	*book.Stats
	ABK      *abk.Info  `json:"abk,omitempty"` // for an ABK book (Arena's format)
	CTG      *ctg.Info  `json:"ctg,omitempty"` // for a CTG book (ChessBase's format)
	Warnings []string   `json:"warnings"`
	Lines    *bookLines `json:"lines,omitempty"`
}

// bookLines are PolyGlot's info-book figures, from walking the lines that
// dump-book writes for each colour.
type bookLines struct {
	White          int `json:"white"`
	Black          int `json:"black"`
	WhitePositions int `json:"white_positions"` // book positions on White's lines, White to move
	BlackPositions int `json:"black_positions"`
	Isolated       int `json:"isolated"` // book positions on neither
}

var infoBookCommand = command{
	name: "info-book", summary: "summarise a book: entries, positions, header, weights, learn data, problems",
	usage: `usage: polyproxy info-book BOOK [-json] [-lines]
Reads the whole book once (a CTG book: its walk from the start position). Problems that do not stop
the book from being used are listed as warnings; the exit code is non-zero only when the file cannot
be read.
`,
	required: []string{"bin"},
	args:     []operand{{flag: "bin", name: "BOOK"}},
	new:      func() options { return &infoBookOptions{} },
}

type infoBookOptions struct {
	bin           string
	asJSON, lines bool
	read          readFlags
}

func (o *infoBookOptions) define(fs *flag.FlagSet) {
	fs.StringVar(&o.bin, "bin", "", "book `file` to read (or give it as the argument)")
	o.read.define(fs)
	fs.BoolVar(&o.asJSON, "json", false, "print one JSON object instead of text")
	fs.BoolVar(&o.lines, "lines", false, "also count the lines and positions dump-book reaches for each colour, and the isolated positions (PolyGlot's info-book figures; walks the whole book twice)")
}

func (o *infoBookOptions) validate(*commandLine) error        { return nil }
func (o *infoBookOptions) files() (inputs, outputs []fileArg) { return nil, nil }

func (o *infoBookOptions) run(e *env) error {
	b, err := formats.OpenWhole(o.bin, o.read.options(), 0)
	if err != nil {
		return err
	}
	defer b.Close()
	res, err := o.inspect(b)
	if err != nil {
		return err
	}
	if o.asJSON {
		return json.NewEncoder(e.stdout).Encode(res)
	}
	printInfo(e.stdout, res)
	return nil
}

// inspect reads the whole book: its figures, its problems, and with
// -lines the lines dump-book walks.
func (o *infoBookOptions) inspect(b *book.Book) (*infoBookResult, error) {
	s, err := b.Scan()
	if err != nil {
		return nil, err
	}
	res := &infoBookResult{File: o.bin, Format: b.Format().Name(), Stats: s, Warnings: s.Warnings(), ABK: abk.InfoOf(b), CTG: ctg.InfoOf(b)}
	if a := res.ABK; a != nil {
		if a.TrailingBytes != 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("ABK size is not a whole number of 28-byte records: the last %d byte(s) are ignored", a.TrailingBytes))
		}
		for _, p := range a.Problems {
			res.Warnings = append(res.Warnings, "ABK tree: "+p.Error()+"; the rest of the book is used")
		}
	}
	if c := res.CTG; c != nil && c.Walk != nil {
		for _, p := range c.Walk.Problems {
			res.Warnings = append(res.Warnings, "CTG "+p.Error()+"; the rest of the book is used")
		}
		if c.Walk.Unreached > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("CTG: %d of the book's %d positions are not reached by a line of book moves from the start position: not counted above", c.Walk.Unreached, c.Walk.InPages))
		}
	}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	if !o.lines {
		return res, nil
	}
	white, err := build.Dump(io.Discard, b, o.bin, true)
	if err != nil {
		return nil, err
	}
	black, err := build.Dump(io.Discard, b, o.bin, false)
	if err != nil {
		return nil, err
	}
	res.Lines = &bookLines{White: white.Lines, Black: black.Lines, WhitePositions: white.Positions, BlackPositions: black.Positions,
		Isolated: s.Positions - white.Positions - black.Positions}
	return res, nil
}

// printInfo writes info-book's text report.
func printInfo(stdout io.Writer, res *infoBookResult) {
	w := func(label, format string, a ...any) {
		fmt.Fprintf(stdout, "%-28s "+format+"\n", append([]any{label + ":"}, a...)...)
	}
	s := res.Stats
	w("file", "%s", res.File)
	if a := res.ABK; a != nil {
		printABKInfo(w, a)
		w("entries", "%d (the tree's positions and moves to its max ply)", s.Entries)
	} else if c := res.CTG; c != nil && c.Walk != nil {
		printCTGInfo(w, c)
		w("entries", "%d (the moves of the positions the walk reached)", s.Entries)
	} else if res.Format != book.Polyglot.Name() {
		w("format", "%s, read as the Polyglot book below", res.Format)
		w("entries", "%d", s.Entries)
	} else {
		w("entries", "%d (%d bytes)", s.Entries, s.Entries*book.EntrySize+s.TrailingBytes)
	}
	w("positions", "%d", s.Positions)
	w("moves", "%d", s.Moves)
	w("most entries per key", "%d", s.MaxPerKey)
	switch {
	case s.Header != nil:
		w("header", "@PG@ version %s, variants %s, %d entries", s.Header.Version, strings.Join(s.Header.Variants, ","), s.Header.Entries)
		w("header comment", "%q", s.Header.Comment)
	case s.HeaderError != "":
		w("header", "none (see warnings)")
	default:
		w("header", "none")
	}
	avg := 0.0
	if s.Moves > 0 {
		avg = float64(s.WeightSum) / float64(s.Moves)
	}
	w("weights", "sum %d, max %d, mean %.1f, zero %d", s.WeightSum, s.WeightMax, avg, s.ZeroWeight)
	w("learn data", "%d entries, %d games, %d points (half points)", s.LearnNonZero, s.LearnGames, s.LearnPoints)
	if l := res.Lines; l != nil {
		w("lines for white", "%d", l.White)
		w("lines for black", "%d", l.Black)
		w("positions on white's lines", "%d", l.WhitePositions)
		w("positions on black's lines", "%d", l.BlackPositions)
		w("isolated positions", "%d", l.Isolated)
	}
	if len(res.Warnings) == 0 {
		w("warnings", "none")
	}
	for _, warn := range res.Warnings {
		fmt.Fprintf(stdout, "warning: %s\n", warn)
	}
}

// printCTGInfo writes what a CTG book's files hold and what reading it
// whole found.
func printCTGInfo(w func(label, format string, a ...any), c *ctg.Info) {
	w("format", "CTG (ChessBase's book), read as the Polyglot book below")
	w("CTG files", "%d pages, a table of %d entries, page bounds %d-%d; made from %d games", c.Pages, c.TableEntries, c.LowerBound, c.UpperBound, c.Games)
	wk := c.Walk
	w("CTG positions", "%d in its pages: %d reached by lines of book moves from the start position, %d not", wk.InPages, wk.Entries, wk.Unreached)
	w("CTG walk", "%d positions (mirror twins apart), %d plies deep", wk.Positions, wk.Depth)
	w("CTG weights", "DroidFish's: tournament mode %s, prefer main lines %s", onOff(c.Options.TournamentMode), onOff(c.Options.PreferMainLines))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// printABKInfo writes what an ABK book's header and tree hold.
func printABKInfo(w func(label, format string, a ...any), a *abk.Info) {
	e := a.Settings.Effective()
	w("format", "ABK (Arena's book), read as the Polyglot book below")
	w("ABK records", "%d after the header: %d on the tree, %d of them deleted; %d unreached", a.Records, a.Reached, a.Deleted, a.Unreached)
	w("ABK depth", "%d plies; %d moves met again under another move order (merged)", a.Depth, a.Merged)
	w("ABK filters", "min games %d, min won games %d, min win %% %d (White) %d (Black)", e.MinGames, e.MinWonGames, e.MinWinPercentWhite, e.MinWinPercentBlack)
	w("ABK importances", "priority %d, games %d, score %d", e.PriorityImportance, e.GamesImportance, e.ScoreImportance)
	w("ABK max ply", "%d", e.MaxPly)
	if e != a.Settings {
		st := a.Settings
		w("ABK settings as stored", "%d %d %d %d, %d %d %d, %d (out of range, or the filters are off with every importance 0)",
			st.MinGames, st.MinWonGames, st.MinWinPercentWhite, st.MinWinPercentBlack, st.PriorityImportance, st.GamesImportance, st.ScoreImportance, st.MaxPly)
	}
}
