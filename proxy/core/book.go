package core

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/loop"
	"github.com/polyproxy/polyproxy/uci"
)

// bookAnswer is a chosen book move and how the GUI is told it.
type bookAnswer struct {
	move    string
	ponder  string // "" when the book has no reply
	forGame int    // the game given it answers (game.seq)
	bm      BestMove
	book    BookChoice // what bm.Book points to
	choice  book.Choice
	key     board.Key // the position the move was chosen for
	white   bool      // White made the book move
	ply     int       // of the position it was chosen for, counted from the game's start
	after   *board.Line
}

// bookSet is the open books, in priority order, the chooser, and what the
// book's policies keep: the game's book moves and lines, the warm engine.
type bookSet struct {
	open []*book.Book // every open book, once
	// unverified are books opened and not yet given to verifyBooks.
	unverified []*book.Book
	// side are the books for the positions with Black ([0]) or White
	// ([1]) to move, in priority order (config.BooksFor); ownList tells
	// that the side has a list of its own (BookFileWhite, BookFileBlack).
	side    [2][]*book.Book
	ownList [2]bool
	disk    []bookOnDisk // each book file in use as it was on disk when opened
	chooser *book.Chooser
	// gen changes whenever the books or the chooser are made anew: what
	// was measured with them (the look-ahead's cache) is stale.
	gen            int
	policy         bookPolicy // what the book policies remember of the game
	saidNoChess960 bool       // the log has said that Chess960 games skip the ABK books
}

// forSide is the books for the positions where White (or Black) is to
// move: the side polyproxy plays there. A position's books answer for it,
// give the ponder reply after it and carry the look-ahead through it.
func (s *bookSet) forSide(white bool) []*book.Book { return s.side[sideIndex(white)] }

func sideIndex(white bool) int {
	if white {
		return 1
	}
	return 0
}

// probed is the books probed for the side to move in this game: those for
// the side, less the ABK books in a Chess960 game (Arena's format has no
// Chess960), which the log says once.
func (c *Core) probed(white bool) []*book.Book {
	books := c.books.forSide(white)
	if !c.game.Chess960() || !slices.ContainsFunc(books, (*book.Book).NoChess960) {
		return books
	}
	var kept []*book.Book
	for _, b := range books {
		if !b.NoChess960() {
			kept = append(kept, b)
		} else if !c.books.saidNoChess960 {
			c.log.Printf("book %s: %s", b.Path(), b.NoChess960Reason())
		}
	}
	c.books.saidNoChess960 = true
	return kept
}

// listName is the setting the books for a side come from, for the log.
func (s *bookSet) listName(white bool) string {
	switch {
	case white && s.ownList[1]:
		return "BookFileWhite"
	case !white && s.ownList[0]:
		return "BookFileBlack"
	}
	return "BookFile"
}

// openBooks makes anew what a change of settings invalidated: the chooser
// (RebuildChooser), the open books (ReopenBooks). A book that cannot be
// opened is reported and skipped: polyproxy plays on without it.
func (c *Core) openBooks(changed config.Invalidates) {
	if changed&config.RebuildChooser != 0 || c.books.chooser == nil {
		// BookLearnWeight prefers moves that did well (see docs/learning.md).
		c.books.chooser = book.NewChooser(c.settings.ChooserOptions(learn.Weight), c.settings.BookSeed)
		c.books.gen++
	}
	if changed&config.ReopenBooks == 0 {
		return
	}
	c.books.close()
	c.books.gen++
	if !c.settings.Book {
		c.log.Printf("book off")
		return
	}
	byPath := map[string]*book.Book{}
	for _, path := range c.settings.BooksInUse() {
		c.books.disk = append(c.books.disk, bookOnDisk{path, statBook(path)}) // before: a change after it is seen
		if b := c.openBook(path); b != nil {
			byPath[path] = b
		}
	}
	for i, white := range []bool{false, true} {
		for _, p := range c.settings.BooksFor(white) {
			if b := byPath[p]; b != nil {
				c.books.side[i] = append(c.books.side[i], b)
			}
		}
	}
	c.books.ownList = [2]bool{len(c.settings.BookFilesBlack) > 0, len(c.settings.BookFilesWhite) > 0}
}

// openBook opens one book file and says what is wrong with it; nil: it
// cannot be used.
func (c *Core) openBook(path string) *book.Book {
	opening := time.Now()
	b, err := formats.OpenWith(path, c.settings.ReadOptions())
	if err != nil {
		c.notify("book %s not used: %v; playing on without it", path, err)
		return nil
	}
	if f := b.Format(); f.ReadWhole() {
		// Read whole, unlike a mapped book: the log shows what it cost.
		c.log.Printf("book %s: %s book read in %v (%v)", path, f.Name(), time.Since(opening).Round(time.Millisecond), b.Report())
	}
	for _, w := range b.Warnings() {
		c.notify("book %s: %s", path, w)
	}
	if b.Len() == 0 && !b.FoundByPosition() {
		// Kept open: a rewrite is noticed and reopened as for any book.
		c.notify("book %s has no entries: no move comes from it until it is written", path)
	}
	c.books.open = append(c.books.open, b)
	c.log.Printf("book %s opened (%s)", path, b.Size())
	c.books.unverified = append(c.books.unverified, b)
	return b
}

// verifyBooks checks that the books just opened are sorted, as lookups
// need: beside the game, since a big book takes a while (a second for 10
// million entries). At start-up it waits for the engine's first handshake
// to be answered (afterEvent): the check then takes no CPU from the start
// of the engine, which needs both, nor from our answer to uci; nothing
// is looked up before that handshake anyway. Each check runs on a thread of its own at
// the lowest priority: it only takes a CPU that nothing else wants.
func (c *Core) verifyBooks() {
	for _, b := range c.books.unverified {
		go func() {
			loop.IdleThread()
			err := b.Verify()
			c.loop.Post(func() { c.onBookVerdict(b, err) })
		}()
	}
	c.books.unverified = nil
}

// onBookVerdict reports what the check of b found wrong (err), if
// anything.
func (c *Core) onBookVerdict(b *book.Book, err error) {
	if err == nil || errors.Is(err, book.ErrClosed) {
		return
	}
	var oe *book.OrderError
	if errors.As(err, &oe) {
		c.notify("book %s is not sorted (%v): its moves are still found, but every lookup reads the whole file (a Polyglot book must be sorted by key)", b.Path(), err)
		return
	}
	c.notify("book %s: %v", b.Path(), err)
}

func (s *bookSet) close() {
	for _, b := range s.open {
		b.Close()
	}
	s.open, s.disk, s.side, s.unverified = nil, nil, [2][]*book.Book{}, nil
	s.ownList = [2]bool{}
	s.saidNoChess960 = false
}

// bookMove decides whether the book answers this go, and with what. Every
// decision is logged with its reason.
func (c *Core) bookMove(g *uci.Go) (*bookAnswer, bool) {
	why := c.noBookReason(g)
	if why != "" {
		c.log.Printf("book: no (%s)", why)
		return nil, false
	}
	cur := c.game.Current()
	white := cur.Pos.WhiteToMove()
	var only []board.Move
	if len(g.SearchMoves) > 0 {
		only = searchMoves(g.SearchMoves)
	}
	list := ""
	if c.books.ownList != [2]bool{} {
		list = " (" + c.books.listName(white) + ")"
	}
	c.books.chooser.Explain(c.log.On()) // the reasons are for the log alone
	choice, ok, reason := c.books.chooser.Choose(c.probed(white), &cur.Pos, cur.Seen, only)
	if !ok && c.checkBooksOnDisk(false) {
		choice, ok, reason = c.books.chooser.Choose(c.probed(white), &cur.Pos, cur.Seen, only)
	}
	if !ok {
		if c.log.On() {
			c.log.Printf("book%s: no (%s)", list, reason)
		}
		return nil, false
	}
	if why := c.shortLine(cur, choice.Move); why != "" {
		if c.log.On() {
			c.log.Printf("book%s: no (%s; %s)", list, why, reason)
		}
		return nil, false
	}
	if c.log.On() {
		c.log.Printf("book%s: %s", list, reason)
	}
	move := choice.Move.String()
	after, predicted, ponder := c.game.Predicted()
	ponderMove := board.Move(0)
	if after == nil || predicted != choice.Move {
		// Not the answer given to this very position before: work it out.
		var ok bool
		if after, ok = c.game.After(move); !ok {
			// Choose only returns legal moves; this would be a bug.
			c.log.Printf("book: chosen move %s does not play here: engine decides", move)
			return nil, false
		}
		ponder = ""
		if reply, ok := c.books.chooser.BestReply(c.probed(after.Pos.WhiteToMove()), &after.Pos); ok {
			ponder = reply.String()
		}
	}
	if ponder != "" {
		ponderMove, _ = board.ParseMove(ponder)
	}
	ans := &bookAnswer{
		move:    move,
		ponder:  ponder,
		forGame: c.game.Seq(),
		choice:  choice,
		key:     cur.Pos.Key(),
		white:   white,
		ply:     len(cur.Keys) - 1,
		after:   after,
		bm:      BestMove{Move: choice.Move, Ponder: ponderMove},
		book:    BookChoice{Weight: choice.Weight, Share: choice.Share, File: filepath.Base(choice.Book.Path())},
	}
	ans.bm.Book = &ans.book
	return ans, true
}

// noBookReason is why the book may not answer, or "".
func (c *Core) noBookReason(g *uci.Go) string {
	switch {
	case !c.settings.Book:
		return "book off"
	case len(c.books.open) == 0:
		return "no usable book"
	case !c.game.OK():
		if c.game.Problem() != "" {
			return "position not followed"
		}
		return "no position"
	case g.Infinite:
		return "analysis (go infinite)"
	case c.engine.Modes().Analyse:
		return "analysis (UCI_AnalyseMode)"
	case g.HasMate:
		return "mate search (go mate)"
	}
	return c.noBookAt(c.game.Current())
}

// noBookAt is why the book may not answer in the game cur whatever the
// search asked, or "": the book settings, BookDepth, BookMaxMoves.
func (c *Core) noBookAt(cur *board.Line) string {
	white := cur.Pos.WhiteToMove()
	switch {
	case !c.settings.Book:
		return "book off"
	case len(c.books.open) == 0:
		return "no usable book"
	case len(c.books.forSide(white)) == 0:
		return "no usable book in " + c.books.listName(white)
	case len(c.probed(white)) == 0:
		return "no book for Chess960 in " + c.books.listName(white) + " (ABK books have none)"
	case cur.Pos.FullMove() > c.settings.BookDepth:
		return fmt.Sprintf("beyond BookDepth (move %d > %d)", cur.Pos.FullMove(), c.settings.BookDepth)
	}
	return c.maxMovesReason(cur)
}

// BookView is the book decision's view of a position, for a GUI that
// asks what the book holds (CECP's bk and hint): the book that would
// answer there and its entries as the chooser judges them (policies,
// per-side books and Width included), or why the book has no move.
type BookView struct {
	Book       *book.Book       // nil: no book has an entry here
	Candidates []book.Candidate // the book's entries for the position
	Why        string           // why the book would not answer ("": it would)
}

// BookView is the book decision's view of the game as played (Game). It
// draws no random number and touches no search: asking never changes
// what the book or the engine plays.
func (c *Core) BookView() BookView {
	played := c.game.Played()
	return c.viewBook(&played)
}

// viewBook is the book decision's view of the game cur (its last
// position).
func (c *Core) viewBook(cur *board.Line) BookView {
	var v BookView
	if v.Why = c.noBookAt(cur); v.Why != "" {
		return v
	}
	for _, b := range c.probed(cur.Pos.WhiteToMove()) {
		cands := c.books.chooser.Candidates(b, &cur.Pos, cur.Seen)
		if len(cands) > 0 && v.Book == nil {
			v.Book, v.Candidates = b, cands
		}
		for _, cd := range cands {
			if cd.Eligible {
				v.Book, v.Candidates = b, cands
				c.markShortLines(cur, &v)
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
func (c *Core) markShortLines(cur *board.Line, v *BookView) {
	eligible := 0
	for i := range v.Candidates {
		cd := &v.Candidates[i]
		if !cd.Eligible {
			continue
		}
		if why := c.shortLine(cur, cd.Move); why != "" {
			cd.Eligible, cd.Why = false, why
			continue
		}
		eligible++
	}
	if eligible == 0 {
		v.Why = "every move it would play ends its line too soon (BookMinLine)"
	}
}

// Likeliest is the eligible move of the highest weight (the first of
// equals), the one the book plays most often.
func (v *BookView) Likeliest() (board.Move, bool) {
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

// releaseBookAnswer sends the held book answer. played is false for a
// ponder search that was stopped: the GUI gets its bestmove but the move
// is not part of the game.
func (c *Core) releaseBookAnswer(played bool) {
	ans := c.search.bookAnswer
	c.search.bookAnswer = nil
	c.search.state = searchNone
	c.sent(c.engine.StopWarm()) // the book answers now: a search of this position is over
	if ans == nil {
		return
	}
	if played && c.game.OK() && c.game.Seq() == ans.forGame {
		c.game.Predict(ans.after, ans.bm.Move, ans.ponder)
		c.books.policy.played(c.game.Number(), ans)
	}
	out := answer{bm: ans.bm}
	if played {
		// Copies: the game may continue from ans.after before the
		// observer runs.
		after := ans.after.Pos
		line := slices.Clone(ans.after.Keys[:ans.ply+1])
		out.observe = func() {
			c.observer.Later(func(o GameObserver) {
				o.BookMove(ans.choice.Book, line, ans.choice.Entry.Move, ans.white)
				o.AfterBestmove(after)
			})
		}
	}
	if played {
		// Before the answer goes out: a front may go on with the game as
		// it takes it.
		c.warmAfterBookMove(ans)
	}
	c.replies.Emit([]answer{out}, nil)
}
