package book

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
)

// Shelf is the books of a game for each side to move, in priority order:
// those for the positions where White is to move and those where Black
// is (BookFileWhite, BookFileBlack, else BookFile for both). A position's
// books answer for it, give the ponder reply after it and carry the
// look-ahead through it.
type Shelf struct {
	White, Black []*Book
}

// For is the books for the positions where White (white) or Black is to
// move.
func (s *Shelf) For(white bool) []*Book {
	if white {
		return s.White
	}
	return s.Black
}

// Both is a shelf of the same books for either side to move.
func Both(books ...*Book) *Shelf { return &Shelf{White: books, Black: books} }

// Game is the game a position is decided in, as the book's rules see it.
type Game struct {
	// Line is the game up to the position decided, its last: the
	// positions a move may not repeat (BookAvoidRepetition) and where a
	// line looked ahead along ends (BookMinLine).
	Line *board.Line
	// Played is how many book moves of ours the game holds (BookMaxMoves).
	Played int
	// Only, when not nil, are the moves allowed (the GUI's searchmoves,
	// played form): the others count as not legal.
	Only []board.Move
	// Lookahead measures the lines after the moves (BookMinLine), with
	// what it keeps of the game; nil: measured afresh.
	Lookahead *Lookahead
}

// At is a game known by its position alone: nothing to repeat, no book
// move played.
func At(pos *board.Position) Game { return Game{Line: &board.Line{Pos: *pos}} }

// Decision is the book's one answer for a position: the book that
// answers, its entries judged by every rule with each one's share and
// chance, the move a game plays, or why it plays none. The proxy (its
// answer, its log, what it tells a GUI that asks), probe and explore all
// show this answer and compute no other.
type Decision struct {
	// Book is the book whose entries are listed: the first of the side's
	// books with a move it would play (the one that answers), else the
	// first that has the position at all; nil when none has.
	Book *Book
	// Candidates are Book's entries for the position, each judged, the
	// likeliest first: by chance, then weight, then the book's order.
	// They are the Chooser's, valid until its next decision.
	Candidates []Candidate
	// Chosen is the index in Candidates of the move a game plays: drawn
	// by Choose (-1 from Decide, and when the book plays no move).
	Chosen int
	// Why says why the book plays no move here ("" when it plays one).
	Why string
	// Reason explains a choice for the log: the move chosen and what was
	// left out, or why there is no move, with the faults the probes of a
	// book found by position met (Choose while Explain is on; else "").
	Reason string
}

// Move is the move a game plays (Choose), with its share and chance.
func (d *Decision) Move() (Candidate, bool) {
	if d.Chosen < 0 {
		return Candidate{}, false
	}
	return d.Candidates[d.Chosen], true
}

// Likeliest is the move a game plays most often (the first of equals by
// weight, then in the book's order), for a hint.
func (d *Decision) Likeliest() (board.Move, bool) {
	if len(d.Candidates) == 0 || d.Candidates[0].Chance == 0 {
		return 0, false
	}
	return d.Candidates[0].Move, true
}

// Total is the effective weight of Book's legal entries for the
// position: what the shares are of.
func (d *Decision) Total() uint64 {
	var total uint64
	for _, cd := range d.Candidates {
		total += cd.Weight
	}
	return total
}

// Decide is the book's answer at the last position of g.Line from the
// books of shelf (its side's, in priority order, the first with a move it
// would play answering), under every rule of the chooser's options, with
// each move's chance under its policy. It draws nothing: asking never
// changes what a game plays.
func (c *Chooser) Decide(shelf *Shelf, g Game) Decision { return c.decide(shelf, g, false) }

// Choose is Decide with the move a game plays drawn by the decision's
// chances (Decision.Move), explained for the log while Explain is on.
func (c *Chooser) Choose(shelf *Shelf, g Game) Decision { return c.decide(shelf, g, true) }

// noMove is a decision without a move when nobody reads why (Choose with
// Explain off).
const noMove = "no book move"

func (c *Chooser) decide(shelf *Shelf, g Game, draw bool) Decision {
	pos := &g.Line.Pos
	explain := !draw || !c.quiet
	d := Decision{Chosen: -1}
	if why := pos.NoKeyReason(); why != "" {
		d.Why, d.Reason = why, why
		return d
	}
	rule, ruleWhy := c.gameRule(pos, g.Played)
	if rule != RuleNone && !explain {
		d.Why = ruleWhy
		return d
	}
	var whys, faults, notes []string
	answered := false
	for _, b := range shelf.For(pos.WhiteToMove()) {
		// A choice's reason gives shares beside the moves left out: the
		// threshold's margin is for a view's reader alone.
		cands := c.candidates(c.buf, b, pos, g.Line.Seen, g.Only, !draw, true)
		c.buf = cands
		c.leaveOut(cands, rule, ruleWhy)
		if c.opts.MinLine > 0 {
			notes = append(notes, c.markShortLines(shelf, &g, cands)...)
		}
		answered = anyEligible(cands)
		if !answered && !explain {
			continue
		}
		if draw {
			if f := b.newWarnings(); len(f) > 0 {
				// Met by this probe: told once, where the choice is logged.
				faults = append(faults, b.Path()+": "+strings.Join(f, "; "))
			}
		}
		if answered {
			d.Book, d.Candidates = b, cands
			break
		}
		if d.Book == nil && len(cands) > 0 {
			// Shown if no book answers: kept from the next book's judging.
			d.Book, d.Candidates = b, cands
			c.buf, c.shown = c.shown, cands
		}
		whys = append(whys, noMoveIn(b, pos, cands))
	}
	if rule != RuleNone {
		whys = nil // the game's rule, not the books'
	}
	if answered {
		c.answer(&d, draw)
	} else {
		d.Why = noMove
		switch {
		case rule != RuleNone:
			d.Why = ruleWhy
		case explain:
			d.Why = whyNone(whys, d.Book != nil, len(shelf.For(pos.WhiteToMove())))
		}
		sortLikeliest(d.Candidates)
	}
	if draw && explain {
		d.Reason = withFaults(c.reason(&d, whys), faults)
		if len(notes) > 0 {
			d.Reason += "; " + strings.Join(notes, "; ")
		}
	}
	return d
}

// Replay is the game of moves (played form, legal) from start, as the
// book's rules see its last position: its line, and the book moves of
// ours it holds (BookMaxMoves), taken to be the moves of the side to move
// there that the book would have played where they were played (eligible
// in the decision there), as when polyproxy plays that side from the
// book. It is how a tool that shows a line (probe, explore) counts them.
func (c *Chooser) Replay(shelf *Shelf, start *board.Line, moves []board.Move) Game {
	line := &board.Line{Pos: start.Pos, Keys: slices.Clone(start.Keys)}
	g := Game{Line: line, Lookahead: &Lookahead{}}
	ours := start.Pos.WhiteToMove() == (len(moves)%2 == 0)
	for _, m := range moves {
		if c.opts.MaxMoves > 0 && g.Played < c.opts.MaxMoves && line.Pos.WhiteToMove() == ours {
			d := c.Decide(shelf, g)
			if slices.ContainsFunc(d.Candidates, func(cd Candidate) bool { return cd.Eligible && cd.Move == m }) {
				g.Played++
			}
		}
		line.Play(m)
	}
	return g
}

// answer sets the chances of a decision with a move, draws the move with
// draw, and lists the candidates the likeliest first.
func (c *Chooser) answer(d *Decision, draw bool) {
	cands := d.Candidates
	c.policy.Chances(cands)
	chosen := -1
	if draw {
		chosen = cands[c.policy.Pick(cands, c.rng)].Index
	}
	sortLikeliest(cands)
	for i := range cands {
		if chosen >= 0 && cands[i].Index == chosen {
			d.Chosen = i
		}
	}
}

// anyEligible reports whether a rule leaves a move of cands eligible.
func anyEligible(cands []Candidate) bool {
	for i := range cands {
		if cands[i].Eligible {
			return true
		}
	}
	return false
}

// sortLikeliest orders candidates the likeliest first: by chance, then
// effective weight, both descending, the book's order kept among equals.
// An insertion sort through pointers: a position has a few dozen entries
// at most, nearly in order already (a book orders them by weight), and
// the library's sort, comparing copies of a candidate, was a tenth of a
// decision.
func sortLikeliest(cands []Candidate) {
	for i := 1; i < len(cands); i++ {
		for j := i; j > 0 && likelier(&cands[j], &cands[j-1]); j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
}

// likelier reports a more likely than b: a higher chance, or an equal one
// and a higher effective weight.
func likelier(a, b *Candidate) bool {
	return a.Chance > b.Chance || a.Chance == b.Chance && a.Weight > b.Weight
}

// gameRule is the rule of the game that puts its position out of book
// (BookDepth, BookMaxMoves with played book moves of ours), and why;
// RuleNone when none does.
func (c *Chooser) gameRule(pos *board.Position, played int) (Rule, string) {
	o := c.opts
	switch depth := max(o.Depth, 0); {
	case o.Depth != 0 && pos.FullMove() > depth:
		return RuleDepth, fmt.Sprintf("beyond BookDepth (move %d > %d)", pos.FullMove(), depth)
	case o.MaxMoves > 0 && played >= o.MaxMoves:
		return RuleMaxMoves, fmt.Sprintf("BookMaxMoves reached (%d book moves of ours in this game, at most %d)", played, o.MaxMoves)
	}
	return RuleNone, ""
}

// leaveOut leaves out every move still eligible by rule, for why.
func (c *Chooser) leaveOut(cands []Candidate, rule Rule, why string) {
	if rule == RuleNone {
		return
	}
	for i := range cands {
		if cd := &cands[i]; cd.Eligible {
			cd.Eligible, cd.Out, cd.Why = false, rule, why
		}
	}
}

// markShortLines leaves out the moves still eligible after which the
// book's longest line goes on fewer than MinLine plies. It returns what
// the log should know: a line too bushy to measure, taken as long enough.
func (c *Chooser) markShortLines(shelf *Shelf, g *Game, cands []Candidate) (notes []string) {
	need := c.opts.MinLine
	look := g.Lookahead
	if look == nil {
		look = &Lookahead{}
		g.Lookahead = look // one game: the other candidates' lines share it
	}
	for i := range cands {
		cd := &cands[i]
		if !cd.Eligible {
			continue
		}
		plies, complete := look.Longest(c, shelf, g.Line.Keys, &g.Line.Pos, cd.Move, need)
		switch {
		case !complete:
			notes = append(notes, fmt.Sprintf("the line after %s was not measured to the end within %d positions: taken as long enough", cd.Move, lineBudget))
		case plies < need:
			cd.Eligible, cd.Out = false, RuleMinLine
			cd.Why = fmt.Sprintf("short line: the book goes on %d plies after %s, BookMinLine %d", plies, cd.Move, need)
		}
	}
	return notes
}

// noMoveIn says why book b plays no move at pos, its candidates cands.
func noMoveIn(b *Book, pos *board.Position, cands []Candidate) string {
	switch {
	case b.NoChess960() && pos.Chess960():
		return b.Path() + ": " + b.NoChess960Reason()
	case b.Err() != nil:
		return b.Err().Error()
	}
	return b.Path() + ": " + noMoveReason(cands)
}

// whyNone is why no book of n has a move, each book's reason in whys:
// "not in book" when none has the position, else every reason.
func whyNone(whys []string, someHas bool, n int) string {
	switch {
	case n == 0:
		return "no book"
	case !someHas && len(whys) == n && !slices.ContainsFunc(whys, func(w string) bool { return !strings.HasSuffix(w, ": not in book") }):
		return "not in book"
	}
	return strings.Join(whys, "; ")
}

// reason explains a decision for the log: the move chosen, with its
// chance and share, and the moves left out; or why there is none, whys
// (each book's reason).
func (c *Chooser) reason(d *Decision, whys []string) string {
	m, ok := d.Move()
	if !ok {
		if len(whys) == 0 {
			return d.Why
		}
		return strings.Join(whys, "; ")
	}
	r := append([]byte(d.Book.Path()), ": "...)
	r = append(m.Move.AppendTo(r), " chosen ("...)
	r = append(r, c.policy.String()...)
	if c.opts.Width > 0 {
		r = strconv.AppendInt(append(r, ", width "...), int64(c.opts.Width), 10)
	}
	r = strconv.AppendUint(append(r, ", weight "...), m.Weight, 10)
	r = strconv.AppendUint(append(r, " of "...), d.Total(), 10)
	r = AppendPercent(append(r, ", chance "...), m.Chance)
	r = append(AppendPercent(append(r, ", share "...), m.Share), ')')
	sep := "; not eligible: "
	for _, x := range d.Candidates {
		if x.Eligible {
			continue
		}
		r = append(x.Move.AppendTo(append(r, sep...)), ' ')
		r = append(r, x.Why...)
		if x.Legal {
			r = append(AppendPercent(append(r, " (share "...), x.Share), ')')
		}
		sep = ", "
	}
	return string(r)
}

// withFaults is a choice's reason followed by the faults of books found by
// position that its probes met.
func withFaults(reason string, faults []string) string {
	if len(faults) == 0 {
		return reason
	}
	return reason + "; faults met: " + strings.Join(faults, "; ")
}
