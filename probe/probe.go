// Package probe is what polyproxy says about a position in a set of books
// under the book settings: the book decision there (book.Chooser.Decide,
// which the proxy plays by too), every entry with its played move, share,
// chance, learn data, legality and the rule of choosing that leaves it
// out, the likeliest first, and which moves each rule leaves eligible.
// probe -json prints it and explore's /api/position serves it, both from
// Report: the proxy, probe and explore tell one story.
package probe

import (
	"slices"
	"strconv"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
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
	// CTG is what a CTG book holds of the move.
	CTG *CTGMove `json:"ctg,omitempty"`
}

// CTGMove is what a CTG book holds of a move: its annotation, and the
// statistics of the position it leads to, from the view of the side that
// plays the move (all 0 when the book has not got that position).
type CTGMove struct {
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

// CTGPosition is a CTG book's statistics of the position itself, from
// the view of its side to move.
type CTGPosition struct {
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
	// CTG is a CTG book's statistics of the position, when Book is one.
	CTG *CTGPosition `json:"ctg,omitempty"`
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
		res.Book = shown.Path()
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
		addCTG(&res, shown, pos)
	}
	return res
}

// addCTG adds what a CTG book holds of the position and its moves, when
// the book shown is one.
func addCTG(res *Result, b *book.Book, pos *board.Position) {
	r, opt := ctg.ReaderOf(b)
	if r == nil {
		return
	}
	p, err := r.Probe(pos, opt)
	if p == nil || err != nil {
		return
	}
	s := &p.Stats
	res.CTG = &CTGPosition{Games: s.Games, Won: s.Wins, Drawn: s.Draws, Lost: s.Losses, Rating: s.Rating(),
		Performance: s.Performance(), Recommendation: int(s.Recommendation), Mark: ctgMark(s),
		TournamentMode: opt.TournamentMode, PreferMainLines: opt.PreferMainLines}
	for i := range res.Entries {
		e := &res.Entries[i]
		for _, m := range p.Moves {
			if m.Move.String() != e.Move {
				continue
			}
			c := &CTGMove{Annotation: m.Annotation.String(), Weight: m.Weight}
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
