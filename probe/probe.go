// Package probe is what polyproxy says about a position in a set of books
// under the book settings: every entry with its played move, share,
// chance, learn data, legality and the rule of choosing that leaves it
// out, and which moves each rule leaves eligible. probe -json prints it
// and explore's /api/position serves it, both from Report, so the two
// cannot tell different stories.
package probe

import (
	"slices"
	"strconv"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
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
	Eligible  bool    `json:"eligible"`      // could be chosen (weight, threshold, width, min weight)
	Out       string  `json:"out,omitempty"` // the rule that leaves it out: legal, weight, threshold, width, min_weight
	Note      string  `json:"note,omitempty"`
}

// Rule is one rule of choosing and the moves it leaves eligible, applied
// after the rules before it.
type Rule struct {
	Rule     string   `json:"rule"`  // threshold, width, min_weight
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
	// PositionWeight is the stored weight of the entries above the
	// threshold: what min_weight compares.
	PositionWeight uint64  `json:"position_weight"`
	Rules          []Rule  `json:"rules"`
	Entries        []Entry `json:"entries"`
}

// Report describes pos in books, the books for its side to move in
// priority order (settings.BooksFor), under the settings' rules of
// choosing and mode.
func Report(books []*book.Book, pos *board.Position, settings *config.Config) Result {
	chooser := book.NewChooser(settings.ChooserOptions(learn.Weight), 1)
	// The book a game would use: the first with an eligible move; else the
	// first that has the position at all, to show why it is out.
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
	res := Result{Key: pos.Key().String(), FEN: pos.FEN(), Chess960: pos.Chess960(), NoKey: book.NoKeyReason(pos),
		Side: side, Books: []string{}, Entries: []Entry{}}
	for _, b := range books {
		res.Books = append(res.Books, b.Path())
	}
	if len(books) > 0 {
		res.Book = books[shown].Path()
	}
	chances := chooser.Chances(cands)
	for i, cd := range cands {
		res.TotalWeight += cd.Weight
		e := Entry{
			Index: cd.Index, Move: cd.Move.String(), Raw: cd.Entry.Move.String(), Weight: cd.Entry.Weight,
			Share: cd.Share, Chance: chances[i], Learn: uint32(cd.Entry.Learn), Games: cd.Entry.Learn.Games(), Points: cd.Entry.Learn.Points(),
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
	res.Rules = rules(settings, cands)
	return res
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

func anyEligible(cands []book.Candidate) bool {
	for _, cd := range cands {
		if cd.Eligible {
			return true
		}
	}
	return false
}
