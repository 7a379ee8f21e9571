package bookplay

import (
	"cmp"
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
// (analyse: the engine was set to UCI_AnalyseMode): the decision, whose
// Move is the one drawn. Every decision is logged with its reason. When
// the books have no move it looks whether a book file changed on disk
// (CheckOnDisk): the books read again answer the searches after they are
// taken in, never this one, which must not wait for a read.
func (s *Books) Move(g *uci.Go, game Game, analyse bool) (d book.Decision, ok bool) {
	if why := s.noMove(g, game, analyse); why != "" {
		s.log.Printf("book: no (%s)", why)
		return book.Decision{Chosen: -1, Why: why}, false
	}
	var only []board.Move
	if len(g.SearchMoves) > 0 {
		only = searchMoves(g.SearchMoves)
	}
	d = s.decide(game, only, true)
	if d.Chosen < 0 && s.noBookAt(game.Line, game.Chess960) == "" {
		// No move in the books as they were opened.
		s.CheckOnDisk(false)
	}
	list := ""
	if s.ownList != [2]bool{} {
		list = " (" + s.listName(game.Line.Pos.WhiteToMove()) + ")"
	}
	_, ok = d.Move()
	switch {
	case ok:
		s.log.Printf("book%s: %s", list, d.Reason)
	default:
		s.log.Printf("book%s: no (%s)", list, cmp.Or(d.Reason, d.Why))
	}
	return d, ok
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

// View is the book decision's view of a position, for a GUI that asks
// what the book holds (CECP's bk and hint): the book that would answer
// there and its entries judged, each with its chance (policies, per-side
// books and Width included), or why the book has no move.
type View = book.Decision

// View is the book decision's view of game. It draws no random number
// and touches no search: asking never changes what the book or the engine
// plays.
func (s *Books) View(game Game) View {
	if why := s.noBook(); why != "" {
		return View{Chosen: -1, Why: why}
	}
	return s.decide(game, nil, false)
}

// Asked notes a search asked at ply in game number game: the policies
// count what the book answers from there on anew (bookPolicy.asked).
func (s *Books) Asked(game, ply int) { s.policy.asked(game, ply) }

// Played notes a book move sent to the GUI as played in game number game,
// at ply, from the position keyed before to after.
func (s *Books) Played(game, ply int, before, after board.Key) {
	s.policy.played(game, ply, before, after)
}

// decide is the one place this room asks the book what it would play: in
// the last position of game.Line, with the settings (per-side books,
// BookDepth, BookMaxMoves counted in game.Number, the policy, BookMinLine's
// look-ahead), among only when given; book.Chooser's decision with what
// the game holds. Everything the proxy plays from a book or shows of one
// is decided here. draw: the move played is drawn by the policy (Choose);
// else the entries are judged and nothing is drawn (Decide).
func (s *Books) decide(game Game, only []board.Move, draw bool) book.Decision {
	cur := game.Line
	if why := s.noBookAt(cur, game.Chess960); why != "" {
		return book.Decision{Chosen: -1, Why: why, Reason: why}
	}
	// The shelf is kept in s: a local one would go to the heap with
	// every decision, as the chooser keeps what it is given.
	s.asked = book.Shelf{White: s.probed(true, game.Chess960), Black: s.probed(false, game.Chess960)}
	g := book.Game{Line: cur, Played: s.policy.count(game.Number, cur), Only: only,
		Lookahead: s.policy.look.For(game.Number, s.gen)}
	if !draw {
		return s.chooser.Decide(&s.asked, g)
	}
	s.chooser.Explain(s.log.On()) // the reasons are for the log alone
	return s.chooser.Choose(&s.asked, g)
}

// Reply is the book's reply in the last position of after (its likeliest
// move there), announced as the move to ponder on after a book move.
func (s *Books) Reply(after *board.Line, chess960 bool) (board.Move, bool) {
	return s.chooser.BestReply(s.probed(after.Pos.WhiteToMove(), chess960), &after.Pos)
}

// noBookAt is why no book of the side to move in the game cur may answer,
// or "": the decision's rules (BookDepth, BookMaxMoves, ...) are its own.
func (s *Books) noBookAt(cur *board.Line, chess960 bool) string {
	white := cur.Pos.WhiteToMove()
	switch {
	case len(s.forSide(white)) == 0:
		return "no usable book in " + s.listName(white)
	case len(s.probed(white, chess960)) == 0:
		return "no book for Chess960 in " + s.listName(white) + " (ABK books have none)"
	}
	return ""
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
