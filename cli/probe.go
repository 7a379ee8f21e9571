package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
)

// probeEntry is one entry in probe's JSON output.
type probeEntry struct {
	Index  int     `json:"index"` // entry number in the file
	Move   string  `json:"move"`  // as played (castling e1g1)
	Raw    string  `json:"raw"`   // as stored (castling e1h1)
	Weight uint16  `json:"weight"`
	Share  float64 `json:"share"` // of the legal entries' total weight, 0..1
	// Effective is the weight choosing uses with -learn-weight.
	Effective *uint64 `json:"effective_weight,omitempty"`
	Learn     uint32  `json:"learn"`
	Games     uint16  `json:"games"`
	Points    uint16  `json:"points"` // half points: win 2, draw 1
	Legal     bool    `json:"legal"`
	Eligible  bool    `json:"eligible"`      // could be chosen (weight, threshold, width, min weight)
	Out       string  `json:"out,omitempty"` // the rule that leaves it out: legal, weight, threshold, width, min_weight
	Note      string  `json:"note,omitempty"`
}

// probeRule is one rule of choosing and the moves it leaves eligible,
// applied after the rules before it.
type probeRule struct {
	Rule     string   `json:"rule"`  // threshold, width, min_weight
	Value    int      `json:"value"` // the setting; 0: off
	Eligible []string `json:"eligible"`
}

type probeResult struct {
	Key string `json:"key"`
	FEN string `json:"fen"`
	// Chess960: castling moves are king takes rook and the FEN is X-FEN.
	Chess960 bool `json:"chess960,omitempty"`
	// NoKey says why the position has no book key and so no book answer.
	NoKey string `json:"no_key,omitempty"`
	// Side is the side to move; Books are the books for it in priority
	// order (BookFile, or -book-white/-book-black), and Book the one whose
	// entries are listed: the first with an eligible move, as in a game.
	Side        string   `json:"side"`
	Books       []string `json:"books"`
	Book        string   `json:"book"`
	TotalWeight uint64   `json:"total_weight"` // of the legal entries
	// PositionWeight is the stored weight of the entries above the
	// threshold: what min_weight compares.
	PositionWeight uint64       `json:"position_weight"`
	Rules          []probeRule  `json:"rules"`
	Entries        []probeEntry `json:"entries"`
}

var probeCommand = command{
	name: "probe", summary: "show a position's key and every book entry for it",
	usage: `usage: polyproxy probe -book FILE[;FILE...] [-book-white FILES] [-book-black FILES] [-fen FEN] [-chess960] [-moves "e2e4 e7e5 ..."]
                      [-json] [-threshold N] [-width N] [-min-weight N] [-learn-weight]
Lists the position's entries in file order, and which moves each rule of choosing leaves eligible.
Shares are of the total weight of the legal entries; learn is the raw field, shown as games
(high 16 bits) / points (low 16 bits, half points).
`,
	required: []string{"book"},
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
	line     *board.Line // the position, once validated
}

func (o *probeOptions) define(fs *flag.FlagSet) {
	o.settings = config.Default("")
	o.settings.BookFiles = nil // only the books given
	o.settings.ToolFlags(fs)
	fs.StringVar(&o.fen, "fen", "", "start `position` (default: the standard start position); its castling field may be KQkq, Shredder-FEN (HAha) or X-FEN")
	fs.BoolVar(&o.chess960, "chess960", false, "Chess960: castling moves are king takes rook (b1a1); on by itself for a -fen whose castling rights only Chess960 has")
	fs.StringVar(&o.moves, "moves", "", "`UCI moves` to play from the start position, space-separated, e.g. \"e2e4 e7e5\"")
	fs.BoolVar(&o.asJSON, "json", false, "print exactly one JSON object: {\"key\":...,\"rules\":[...],\"entries\":[{\"move\":...,\"raw\":...,\"weight\":...,\"learn\":...,\"legal\":...},...]}")
}

func (o *probeOptions) validate(*commandLine) error {
	o.chess960 = o.chess960 || board.Chess960FEN(o.fen)
	line, err := board.NewLineVariant(o.fen, o.chess960)
	if err != nil {
		return usageErrorf("-fen: %v", err)
	}
	if err := line.PlayMoves(strings.Fields(o.moves), 0); err != nil {
		return usageErrorf("-moves: %v", err)
	}
	o.line = line
	if len(o.books()) == 0 {
		return usageErrorf("-book names no file")
	}
	return nil
}

func (o *probeOptions) files() (inputs, outputs []fileArg) { return nil, nil }

// books are the books for the side to move, in priority order.
func (o *probeOptions) books() []string { return o.settings.BooksFor(o.line.Pos.WhiteToMove()) }

func (o *probeOptions) run(e *env) error {
	paths := o.books()
	var books []*book.Book
	defer func() {
		for _, b := range books {
			b.Close()
		}
	}()
	for _, p := range paths {
		b, err := openChecked(e, p)
		if err != nil {
			return err
		}
		books = append(books, b)
	}
	res := o.report(paths, books)
	if o.asJSON {
		return json.NewEncoder(e.stdout).Encode(res)
	}
	return printProbe(e.stdout, res)
}

// report judges the position's entries in the book a game would use:
// the first with an eligible move; else the first that has the position
// at all, to show why it is out.
func (o *probeOptions) report(paths []string, books []*book.Book) probeResult {
	pos := &o.line.Pos
	chooser := book.NewChooser(o.settings.ChooserOptions(learn.Weight), 1)
	shown, cands := 0, []book.Candidate(nil)
	for i, b := range books {
		cs := chooser.Candidates(b, pos, nil)
		if anyEligible(cs) {
			shown, cands = i, cs
			break
		}
		if cands == nil && len(cs) > 0 {
			shown, cands = i, cs
		}
	}
	side := "black"
	if pos.WhiteToMove() {
		side = "white"
	}
	res := probeResult{Key: pos.Key().String(), FEN: pos.FEN(), Chess960: o.chess960, NoKey: book.NoKeyReason(pos),
		Side: side, Books: paths, Book: paths[shown], Entries: []probeEntry{}}
	for _, cd := range cands {
		res.TotalWeight += cd.Weight
		e := probeEntry{
			Index: cd.Index, Move: cd.Move.String(), Raw: cd.Entry.Move.String(), Weight: cd.Entry.Weight,
			Share: cd.Share, Learn: uint32(cd.Entry.Learn), Games: cd.Entry.Learn.Games(), Points: cd.Entry.Learn.Points(),
			Legal: cd.Legal, Eligible: cd.Eligible, Out: cd.Out.String(), Note: cd.Why,
		}
		if o.settings.BookLearnWeight {
			w := cd.Weight
			e.Effective = &w
		}
		if cd.Out == book.RuleNone || cd.Out > book.RuleThreshold {
			res.PositionWeight += uint64(cd.Entry.Weight)
		}
		res.Entries = append(res.Entries, e)
	}
	res.Rules = probeRules(o.settings, cands)
	return res
}

// printProbe writes probe's text report.
func printProbe(stdout io.Writer, res probeResult) error {
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

// probeRules are the rules of choosing probe's flags set, in the order
// they apply, each with the moves it leaves eligible: an entry stays
// eligible after a rule when no rule up to it left it out.
func probeRules(settings *config.Config, cands []book.Candidate) []probeRule {
	var rules []config.Setting
	for _, s := range config.Settings() {
		if s.Rule != book.RuleNone && s.ToolFlag != "" {
			rules = append(rules, s)
		}
	}
	slices.SortFunc(rules, func(a, b config.Setting) int { return int(a.Rule) - int(b.Rule) })
	var out []probeRule
	for _, s := range rules {
		value, _ := strconv.Atoi(s.Value(settings))
		pr := probeRule{Rule: s.Rule.String(), Value: value, Eligible: []string{}}
		for _, cd := range cands {
			if cd.Out == book.RuleNone || cd.Out > s.Rule {
				pr.Eligible = append(pr.Eligible, cd.Move.String())
			}
		}
		out = append(out, pr)
	}
	return out
}

func anyEligible(cands []book.Candidate) bool {
	for _, cd := range cands {
		if cd.Eligible {
			return true
		}
	}
	return false
}
