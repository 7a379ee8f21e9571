package bookplay

import (
	"fmt"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/uci"
)

// Game is the game the book is asked about.
type Game struct {
	// Line is the game so far (its last position is the one asked about);
	// nil: the game given is not followed.
	Line *board.Line
	// Problem (Line nil) is why the game given is not followed ("": no
	// game was given).
	Problem string
	// Number is which game it is: the policies count over a game.
	Number   int
	Chess960 bool
}

// Move decides whether the book answers search g in game, and with what
// (analyse: the engine was set to UCI_AnalyseMode). Every decision is
// logged with its reason. When the books have no move it looks whether a
// book file changed on disk, and asks them again after opening it again:
// what the user is to be told of that comes back too.
func (s *Books) Move(g *uci.Go, game Game, analyse bool) (choice book.Choice, notices []Notice, ok bool) {
	if why := s.noMove(g, game, analyse); why != "" {
		s.log.Printf("book: no (%s)", why)
		return book.Choice{}, nil, false
	}
	var only []board.Move
	if len(g.SearchMoves) > 0 {
		only = searchMoves(g.SearchMoves)
	}
	d := s.decide(choose, game, only)
	if d.why == "" && !d.ok && d.short == "" { // no move in the books as they were opened
		var reopened bool
		if reopened, notices = s.CheckOnDisk(false); reopened {
			d = s.decide(choose, game, only)
		}
	}
	list := ""
	if s.ownList != [2]bool{} {
		list = " (" + s.listName(game.Line.Pos.WhiteToMove()) + ")"
	}
	switch {
	case d.why != "":
		s.log.Printf("book: no (%s)", d.why)
	case !d.ok && d.short != "":
		s.log.Printf("book%s: no (%s; %s)", list, d.short, d.reason)
	case !d.ok:
		s.log.Printf("book%s: no (%s)", list, d.reason)
	default:
		s.log.Printf("book%s: %s", list, d.reason)
	}
	return d.choice, notices, d.ok
}

// noMove is why the book may not answer search g in game whatever the
// book holds, or "".
func (s *Books) noMove(g *uci.Go, game Game, analyse bool) string {
	if why := s.noBook(); why != "" {
		return why
	}
	switch {
	case game.Line == nil && game.Problem != "":
		return "position not followed"
	case game.Line == nil:
		return "no position"
	case g.Infinite:
		return "analysis (go infinite)"
	case analyse:
		return "analysis (UCI_AnalyseMode)"
	case g.HasMate:
		return "mate search (go mate)"
	}
	return ""
}

// noBook is why no book may answer at all, or "".
func (s *Books) noBook() string {
	switch {
	case !s.settings.Book:
		return "book off"
	case len(s.open) == 0:
		return "no usable book"
	}
	return ""
}

// Reply is the book's reply in the last position of after (its likeliest
// move there), announced as the move to ponder on after a book move.
func (s *Books) Reply(after *board.Line, chess960 bool) (board.Move, bool) {
	d := s.decide(reply, Game{Line: after, Chess960: chess960}, nil)
	return d.choice.Move, d.ok
}

// View is the book decision's view of a position, for a GUI that asks
// what the book holds (CECP's bk and hint): the book that would answer
// there and its entries as the chooser judges them (policies, per-side
// books and Width included), or why the book has no move.
type View struct {
	Book       *book.Book       // nil: no book has an entry here
	Candidates []book.Candidate // the book's entries for the position
	Why        string           // why the book would not answer ("": it would)
}

// View is the book decision's view of game. It draws no random number
// and touches no search: asking never changes what the book or the engine
// plays.
func (s *Books) View(game Game) View {
	if why := s.noBook(); why != "" {
		return View{Why: why}
	}
	return s.decide(look, game, nil).view
}

// Likeliest is the eligible move of the highest weight (the first of
// equals), the one the book plays most often.
func (v *View) Likeliest() (board.Move, bool) {
	best := -1
	for i, cd := range v.Candidates {
		if cd.Eligible && (best < 0 || cd.Weight > v.Candidates[best].Weight) {
			best = i
		}
	}
	if best < 0 {
		return 0, false
	}
	return v.Candidates[best].Move, true
}

// Asked notes a search asked at ply in game number game: the policies
// count what the book answers from there on anew (bookPolicy.asked).
func (s *Books) Asked(game, ply int) { s.policy.asked(game, ply) }

// Played notes a book move sent to the GUI as played in game number game,
// at ply, from the position keyed before to after.
func (s *Books) Played(game, ply int, before, after board.Key) {
	s.policy.played(game, ply, before, after)
}

// question is what the book is asked (decide).
type question int

const (
	choose question = iota // the move it plays, drawn by the policy
	look                   // its entries and how the policy judges each, nothing drawn
	reply                  // its likeliest move, for the ponder reply after a book move
)

// decision is the book's answer to a question.
type decision struct {
	why    string      // choose, look: why the rules keep the book from answering ("": they do not)
	choice book.Choice // choose: the move played; reply: its Move
	ok     bool        // choose, reply: there is a move
	reason string      // choose: the chooser's reason, for the log
	short  string      // choose: why BookMinLine refused the move drawn
	view   View        // look
}

// decide is the one place this room asks the book what it would play: in
// the last position of game.Line, with the settings (per-side books,
// BookDepth, BookMaxMoves counted in game.Number, the policy, BookMinLine's
// look-ahead), among only when given. Everything the proxy plays from a
// book, shows of one, or announces as the reply to ponder on, is decided
// here.
func (s *Books) decide(q question, game Game, only []board.Move) decision {
	cur := game.Line
	white := cur.Pos.WhiteToMove()
	if q == reply {
		m, ok := s.chooser.BestReply(s.probed(white, game.Chess960), &cur.Pos)
		return decision{choice: book.Choice{Move: m}, ok: ok}
	}
	if why := s.noBookAt(cur, game.Number, game.Chess960); why != "" {
		return decision{why: why, view: View{Why: why}}
	}
	if q == look {
		return decision{view: s.look(cur, game)}
	}
	s.chooser.Explain(s.log.On()) // the reasons are for the log alone
	choice, ok, reason := s.chooser.Choose(s.probed(white, game.Chess960), &cur.Pos, cur.Seen, only)
	d := decision{choice: choice, ok: ok, reason: reason}
	if ok {
		if d.short = s.shortLine(cur, game.Number, choice.Move); d.short != "" {
			d.ok = false
		}
	}
	return d
}

// noBookAt is why the book may not answer in the game cur (number game)
// whatever the search asked, or "": the books of the side, BookDepth,
// BookMaxMoves.
func (s *Books) noBookAt(cur *board.Line, game int, chess960 bool) string {
	white := cur.Pos.WhiteToMove()
	switch {
	case len(s.forSide(white)) == 0:
		return "no usable book in " + s.listName(white)
	case len(s.probed(white, chess960)) == 0:
		return "no book for Chess960 in " + s.listName(white) + " (ABK books have none)"
	case cur.Pos.FullMove() > s.settings.BookDepth:
		return fmt.Sprintf("beyond BookDepth (move %d > %d)", cur.Pos.FullMove(), s.settings.BookDepth)
	}
	return s.maxMovesReason(cur, game)
}

// look is the view of the book that would answer in the game cur: the
// first whose entries hold a move it would play, less the moves
// BookMinLine refuses.
func (s *Books) look(cur *board.Line, game Game) View {
	var v View
	for _, b := range s.probed(cur.Pos.WhiteToMove(), game.Chess960) {
		cands := s.chooser.Candidates(b, &cur.Pos, cur.Seen)
		if len(cands) > 0 && v.Book == nil {
			v.Book, v.Candidates = b, cands
		}
		for _, cd := range cands {
			if cd.Eligible {
				v.Book, v.Candidates = b, cands
				s.markShortLines(cur, game.Number, &v)
				return v
			}
		}
	}
	v.Why = "no book has a move it would play here"
	if v.Book == nil {
		v.Why = "not in book"
	}
	return v
}

// markShortLines leaves out the eligible moves BookMinLine refuses.
func (s *Books) markShortLines(cur *board.Line, game int, v *View) {
	eligible := 0
	for i := range v.Candidates {
		cd := &v.Candidates[i]
		if !cd.Eligible {
			continue
		}
		if why := s.shortLine(cur, game, cd.Move); why != "" {
			cd.Eligible, cd.Why = false, why
			continue
		}
		eligible++
	}
	if eligible == 0 {
		v.Why = "every move it would play ends its line too soon (BookMinLine)"
	}
}

// searchMoves reads the moves the GUI allows with searchmoves. An unreadable
// one is skipped; when none is readable the book has no allowed move.
func searchMoves(moves []string) []board.Move {
	out := make([]board.Move, 0, len(moves))
	for _, s := range moves {
		if m, err := board.ParseMove(s); err == nil {
			out = append(out, m)
		}
	}
	return out
}
