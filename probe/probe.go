// Package probe is what polyproxy says about a position in a set of books
// under the book settings: the book decision there (book.Chooser.Decide,
// which the proxy plays by too), every entry with its played move, share,
// chance, learn data, legality and the rule of choosing that leaves it
// out, the likeliest first, and which moves each rule leaves eligible.
// probe -json prints it and explore's /api/position serves it, both from
// Report: the proxy, probe and explore tell one story.
package probe

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
)

// Entry is one book entry of the position.
type Entry struct {
	Index  int     `json:"index"` // entry number in the file
	Move   string  `json:"move"`  // as played (castling e1g1)
	Raw    string  `json:"raw"`   // as stored (castling e1h1)
	Weight uint16  `json:"weight"`
	Share  float64 `json:"share"` // of the legal entries' total weight, 0..1
	// Chance is how likely a game is to play the move under the policy's
	// mode: 0 for a move no rule leaves eligible.
	Chance float64 `json:"chance"`
	// Effective is the weight choosing uses with BookLearnWeight.
	Effective *uint64 `json:"effective_weight,omitempty"`
	Learn     uint32  `json:"learn"`
	Games     uint16  `json:"games"`
	Points    uint16  `json:"points"` // half points: win 2, draw 1
	Legal     bool    `json:"legal"`
	Eligible  bool    `json:"eligible"`      // could be chosen (every rule of choosing leaves it in)
	Out       string  `json:"out,omitempty"` // the rule that leaves it out: legal, weight, threshold, width, min_weight, depth, max_moves, min_line
	Note      string  `json:"note,omitempty"`
	// Facts are what the book's format holds of the move beyond its
	// entry, under the format's name: "ctg" (ctg.MoveFacts: annotation,
	// the statistics and recommendation of the position after it), "abk"
	// (abk.MoveFacts: priority, games, won, lost); Said says them in
	// words, and Row as a table's row (Result.Columns), for probe's text.
	Facts formats.Named `json:"-"`
	Said  string        `json:"-"`
	Row   []string      `json:"-"`
}

// Rule is one rule of choosing and the moves it leaves eligible, applied
// after the rules before it.
type Rule struct {
	Rule     string   `json:"rule"`  // threshold, width, min_weight, depth, max_moves, min_line
	Value    int      `json:"value"` // the setting; 0: off
	Eligible []string `json:"eligible"`
}

// Result is the report of one position.
type Result struct {
	Key string `json:"key"`
	FEN string `json:"fen"`
	// Chess960: castling moves are king takes rook and the FEN is X-FEN.
	Chess960 bool `json:"chess960,omitempty"`
	// NoKey says why the position has no book key and so no book answer.
	NoKey string `json:"no_key,omitempty"`
	// Side is the side to move; Books are the books for it in priority
	// order, and Book the one whose entries are listed: the first with an
	// eligible move, as in a game.
	Side        string   `json:"side"`
	Books       []string `json:"books"`
	Book        string   `json:"book"`
	TotalWeight uint64   `json:"total_weight"` // of the legal entries
	// Why says why the book plays no move here ("" when it plays one).
	Why string `json:"why,omitempty"`
	// Played is how many book moves of ours the line holds, as
	// max_moves counts them: the moves of the side to move that the book
	// would have played where they were played.
	Played int `json:"played"`
	// PositionWeight is the stored weight of the entries above the
	// threshold: what min_weight compares.
	PositionWeight uint64 `json:"position_weight"`
	Rules          []Rule `json:"rules"`
	// Entries are the entries of Book, the likeliest first: by chance,
	// then weight, then the book's order.
	Entries []Entry `json:"entries"`
	// Facts are what Book's format holds of the position beyond its
	// entries, under the format's name: "ctg" (ctg.PositionFacts: the
	// position's statistics and the read options); Said says them in
	// words, for probe's text; Columns name the values of an entry's Row.
	Facts   formats.Named `json:"-"`
	Said    string        `json:"-"`
	Columns []string      `json:"-"`
	// Format is the format of Book ("Polyglot", "ABK", "CTG").
	Format string `json:"format,omitempty"`
}

// MarshalJSON writes the result with its facts among its fields.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	b, err := json.Marshal(plain(r))
	return r.Facts.AddTo(b), err
}

// UnmarshalJSON reads a result with its facts.
func (r *Result) UnmarshalJSON(b []byte) error {
	type plain Result
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	var err error
	r.Facts, err = formats.NamedIn(b)
	return err
}

// MarshalJSON writes the entry with its facts among its fields.
func (e Entry) MarshalJSON() ([]byte, error) {
	type plain Entry
	b, err := json.Marshal(plain(e))
	return e.Facts.AddTo(b), err
}

// UnmarshalJSON reads an entry with its facts.
func (e *Entry) UnmarshalJSON(b []byte) error {
	type plain Entry
	if err := json.Unmarshal(b, (*plain)(e)); err != nil {
		return err
	}
	var err error
	e.Facts, err = formats.NamedIn(b)
	return err
}

// Report describes the position reached by moves (played form, legal)
// from start in the books of shelf, under the settings' rules of choosing
// and mode: the book decision there, as a game that followed the line
// would meet it.
func Report(shelf *book.Shelf, start *board.Line, moves []board.Move, settings *config.Config) Result {
	chooser := book.NewChooser(settings.ChooserOptions(learn.Weight), 1)
	game := chooser.Replay(shelf, start, moves)
	d := chooser.Decide(shelf, game)
	pos := &game.Line.Pos
	books := shelf.For(pos.WhiteToMove())
	side := "black"
	if pos.WhiteToMove() {
		side = "white"
	}
	res := Result{Key: pos.Key().String(), FEN: pos.FEN(), Chess960: pos.Chess960(), NoKey: pos.NoKeyReason(),
		Side: side, Books: []string{}, Entries: []Entry{}, Why: d.Why, Played: game.Played}
	for _, b := range books {
		res.Books = append(res.Books, b.Path())
	}
	shown := d.Book
	if shown == nil && len(books) > 0 {
		shown = books[0]
	}
	if shown != nil {
		res.Book, res.Format = shown.Path(), shown.Format().Name()
	}
	for _, cd := range d.Candidates {
		res.TotalWeight += cd.Weight
		e := Entry{
			Index: cd.Index, Move: cd.Move.String(), Raw: cd.Entry.Move.String(), Weight: cd.Entry.Weight,
			Share: cd.Share, Chance: cd.Chance, Learn: uint32(cd.Entry.Learn), Games: cd.Entry.Learn.Games(), Points: cd.Entry.Learn.Points(),
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
	res.Rules = rules(settings, d.Candidates)
	if shown != nil {
		addFacts(&res, shown, pos, d.Candidates)
	}
	return res
}

// addFacts adds what the format of b, the book shown, holds of the
// position and its moves cands beyond their entries. A failure to read
// them is the book's own to tell (its warnings): the report stands
// without them.
func addFacts(res *Result, b *book.Book, pos *board.Position, cands []book.Candidate) {
	moves := make([]board.Move, len(cands))
	for i, cd := range cands {
		moves[i] = cd.Move
	}
	facts, err := b.Describe(pos, moves)
	if err != nil {
		return
	}
	if facts.Position != nil {
		res.Facts.Add(b.Format(), facts.Position)
		res.Said = facts.Position.String()
	}
	res.Columns = facts.Columns
	for i, f := range facts.Moves {
		if f != nil {
			e := &res.Entries[i]
			e.Facts.Add(b.Format(), f)
			e.Said, e.Row = f.String(), f.Row()
		}
	}
}

// rules are the rules of choosing the book tools take flags for, in the
// order they apply, each with the moves it leaves eligible: an entry stays
// eligible after a rule when no rule up to it left it out.
func rules(settings *config.Config, cands []book.Candidate) []Rule {
	var table []config.Setting
	for _, s := range config.Settings() {
		if s.Rule != book.RuleNone && s.ToolFlag != "" {
			table = append(table, s)
		}
	}
	slices.SortFunc(table, func(a, b config.Setting) int { return int(a.Rule) - int(b.Rule) })
	var out []Rule
	for _, s := range table {
		value, _ := strconv.Atoi(s.Value(settings))
		pr := Rule{Rule: s.Rule.String(), Value: value, Eligible: []string{}}
		for _, cd := range cands {
			if cd.Out == book.RuleNone || cd.Out > s.Rule {
				pr.Eligible = append(pr.Eligible, cd.Move.String())
			}
		}
		out = append(out, pr)
	}
	return out
}
