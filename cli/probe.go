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
	side := "black"
	if line.Pos.WhiteToMove() {
		side = "white"
	}
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

	chooser := book.NewChooser(settings.ChooserOptions(learn.Weight), 1)
	// The book a game would use: the first with an eligible move; else the
	// first that has the position at all, to show why it is out.
	shown, cands := 0, []book.Candidate(nil)
	for i, b := range books {
		cs := chooser.Candidates(b, &line.Pos, nil)
		if anyEligible(cs) {
			shown, cands = i, cs
			break
		}
		if cands == nil && len(cs) > 0 {
			shown, cands = i, cs
		}
	}
	res := probeResult{Key: line.Pos.Key().String(), FEN: line.Pos.FEN(), Chess960: *chess960, NoKey: book.NoKeyReason(&line.Pos),
		Side: side, Books: paths, Book: paths[shown], Entries: []probeEntry{}}
	for _, cd := range cands {
		res.TotalWeight += cd.Weight
		e := probeEntry{
			Index: cd.Index, Move: cd.Move.String(), Raw: cd.Entry.Move.String(), Weight: cd.Entry.Weight,
			Share: cd.Share, Learn: uint32(cd.Entry.Learn), Games: cd.Entry.Learn.Games(), Points: cd.Entry.Learn.Points(),
			Legal: cd.Legal, Eligible: cd.Eligible, Out: cd.Out.String(), Note: cd.Why,
		}
		if settings.BookLearnWeight {
			w := cd.Weight
			e.Effective = &w
		}
		if cd.Out == book.RuleNone || cd.Out > book.RuleThreshold {
			res.PositionWeight += uint64(cd.Entry.Weight)
		}
		res.Entries = append(res.Entries, e)
	}
	res.Rules = probeRules(settings, cands)
	if *asJSON {
		return json.NewEncoder(stdout).Encode(res)
	}
	fmt.Fprintf(stdout, "book: %s\nfen:  %s\nkey:  %s\n", res.Book, res.FEN, res.Key)
	if len(res.Books) > 1 {
		fmt.Fprintf(stdout, "books for %s: %s\n", side, strings.Join(res.Books, config.BookFileSeparator))
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
