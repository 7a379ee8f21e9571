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
	"github.com/polyproxy/polyproxy/book/ctg"
	"github.com/polyproxy/polyproxy/book/formats"
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
	// CTG is what a CTG book holds of the move.
	CTG *probeCTGMove `json:"ctg,omitempty"`
}

// probeCTGMove is what a CTG book holds of a move: its annotation, and the
// statistics of the position it leads to, from the view of the side that
// plays the move (all 0 when the book has not got that position).
type probeCTGMove struct {
	Annotation string `json:"annotation"` // "!", "?!", "only move", ...; "" for none
	// Recommendation is the byte of the position after the move: 64-127
	// marks it to avoid in tournaments, 128 and up a main line (Mark).
	Recommendation int     `json:"recommendation"`
	Mark           string  `json:"mark,omitempty"` // "avoid", "main line"
	InBook         bool    `json:"in_book"`        // the book has the position after the move
	Games          int     `json:"games"`
	Won            int     `json:"won"`
	Drawn          int     `json:"drawn"`
	Lost           int     `json:"lost"`
	Weight         float64 `json:"droidfish_weight"` // DroidFish's weight, under the read options
}

// probeCTGPosition is a CTG book's statistics of the position itself,
// from the view of its side to move.
type probeCTGPosition struct {
	Games          int    `json:"games"`
	Won            int    `json:"won"`
	Drawn          int    `json:"drawn"`
	Lost           int    `json:"lost"`
	Rating         int    `json:"rating"`      // the players' average (0: none rated)
	Performance    int    `json:"performance"` // their average performance
	Recommendation int    `json:"recommendation"`
	Mark           string `json:"mark,omitempty"`
	// TournamentMode and PreferMainLines are the read options the weights
	// follow.
	TournamentMode  bool `json:"tournament_mode"`
	PreferMainLines bool `json:"prefer_main_lines"`
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
	// CTG is a CTG book's statistics of the position, when Book is one.
	CTG *probeCTGPosition `json:"ctg,omitempty"`
}

var probeCommand = command{
	name: "probe", summary: "show a position's key and every book entry for it",
	usage: `usage: polyproxy probe -book FILE[;FILE...] [-book-white FILES] [-book-black FILES] [-fen FEN] [-chess960] [-moves "e2e4 e7e5 ..."]
                      [-json] [-threshold N] [-width N] [-min-weight N] [-learn-weight]
Lists the position's entries in file order, and which moves each rule of choosing leaves eligible.
Shares are of the total weight of the legal entries; learn is the raw field, shown as games
(high 16 bits) / points (low 16 bits, half points). A CTG book's moves also show their annotation
and the statistics and recommendation of the position each leads to.
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
	told := map[*book.Book]int{}
	for _, p := range paths {
		// As the proxy opens it: a CTG book found a position at a time.
		b, err := formats.OpenWith(p, o.settings.ReadOptions())
		if err != nil {
			return err
		}
		books = append(books, checked(e, b))
		told[b] = len(b.Warnings())
	}
	res := o.report(paths, books)
	for _, b := range books {
		// The faults the probe met in a book found by position.
		for _, w := range b.Warnings()[told[b]:] {
			e.warnf("%s: %s", b.Path(), w)
		}
	}
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
	if len(books) > 0 {
		addCTG(&res, books[shown], pos)
	}
	return res
}

// addCTG adds what a CTG book holds of the position and its moves, when
// the book shown is one.
func addCTG(res *probeResult, b *book.Book, pos *board.Position) {
	r, opt := ctg.ReaderOf(b)
	if r == nil {
		return
	}
	p, err := r.Probe(pos, opt)
	if p == nil || err != nil {
		return
	}
	s := &p.Stats
	res.CTG = &probeCTGPosition{Games: s.Games, Won: s.Wins, Drawn: s.Draws, Lost: s.Losses, Rating: s.Rating(),
		Performance: s.Performance(), Recommendation: int(s.Recommendation), Mark: ctgMark(s),
		TournamentMode: opt.TournamentMode, PreferMainLines: opt.PreferMainLines}
	for i := range res.Entries {
		e := &res.Entries[i]
		for _, m := range p.Moves {
			if m.Move.String() != e.Move {
				continue
			}
			c := &probeCTGMove{Annotation: m.Annotation.String(), Weight: m.Weight}
			if n := m.Next; n != nil {
				// The next position's figures are its side to move's.
				c.InBook, c.Recommendation, c.Mark = true, int(n.Recommendation), ctgMark(n)
				c.Games, c.Won, c.Drawn, c.Lost = n.Games, n.Losses, n.Draws, n.Wins
			}
			e.CTG = c
		}
	}
}

func ctgMark(s *ctg.Stats) string {
	switch {
	case s.Avoid():
		return "avoid"
	case s.MainLine():
		return "main line"
	}
	return ""
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
	if res.CTG != nil {
		if err := printProbeCTG(stdout, res); err != nil {
			return err
		}
	}
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

// printProbeCTG writes what a CTG book holds of the position and its
// moves.
func printProbeCTG(stdout io.Writer, res probeResult) error {
	c := res.CTG
	fmt.Fprintf(stdout, "CTG position: %d games, +%d =%d -%d for the side to move, rating %d, performance %d, recommendation %d %s\n",
		c.Games, c.Won, c.Drawn, c.Lost, c.Rating, c.Performance, c.Recommendation, c.Mark)
	var opts []string
	if c.TournamentMode {
		opts = append(opts, "tournament mode")
	}
	if c.PreferMainLines {
		opts = append(opts, "main lines preferred")
	}
	if len(opts) > 0 {
		fmt.Fprintf(stdout, "CTG weights with %s\n", strings.Join(opts, " and "))
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "move\tannotation\tgames after\twon\tdrawn\tlost\trecommendation\tdroidfish weight\t\t")
	for _, e := range res.Entries {
		m := e.CTG
		if m == nil {
			continue
		}
		if !m.InBook {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\t%.6g\t\tleads out of the book\n", e.Move, m.Annotation, m.Weight)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%.6g\t\t%s\n", e.Move, m.Annotation, m.Games, m.Won, m.Drawn, m.Lost, m.Recommendation, m.Weight, m.Mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout)
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
