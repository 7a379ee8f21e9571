package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
)

type infoBookResult struct {
	File   string `json:"file"`
	Format string `json:"format"` // the file's format: "Polyglot", "ABK", "CTG"
	*formats.Stats
	Warnings []string   `json:"warnings"`
	Lines    *bookLines `json:"lines,omitempty"`
	// report is what the format's reader found, given in JSON under the
	// format's name ("abk", "ctg": Named).
	report book.Report
	named  formats.Named
}

// MarshalJSON writes the result with the format's report among its
// fields.
func (r *infoBookResult) MarshalJSON() ([]byte, error) {
	type plain infoBookResult
	b, err := json.Marshal((*plain)(r))
	return r.named.AddTo(b), err
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
	s, err := formats.Scan(b)
	if err != nil {
		return nil, err
	}
	res := &infoBookResult{File: o.bin, Format: b.Format().Name(), Stats: s, Warnings: s.Warnings(), report: b.Report()}
	if r := res.report; r != nil {
		if err := res.named.Add(b.Format(), r); err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, r.Faults()...)
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
	if r := res.report; r != nil {
		for _, l := range r.Lines() {
			w(l[0], "%s", l[1])
		}
		w("entries", "%d (%s)", s.Entries, r.EntriesAre())
	} else {
		w("entries", "%d (%d bytes)", s.Entries, s.Bytes())
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
