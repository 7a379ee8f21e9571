package core

import (
	"errors"
	"path/filepath"
	"slices"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// bookAnswer is a chosen book move and how the GUI is told it.
type bookAnswer struct {
	move    string
	ponder  string // "" when the book has no reply
	forGame int    // the game given it answers (game.seq)
	bm      BestMove
	book    BookChoice // what bm.Book points to
	from    *book.Book // the book that answered
	entry   book.Entry // its entry for the move, as stored
	key     board.Key  // the position the move was chosen for
	white   bool       // White made the book move
	ply     int        // of the position it was chosen for, counted from the game's start
	after   *board.Line
}

// bookVerdict is the result of checking a book in the background.
type bookVerdict struct {
	b   *book.Book
	err error
}

// bookSet is the open books, in priority order, the chooser, and what the
// book's policies keep: the game's book moves and lines, the warm engine.
type bookSet struct {
	open []*book.Book // every open book, once
	// unverified are books opened and not yet given to verifyBooks.
	unverified []*book.Book
	// shelf are the books for the positions with White or Black to
	// move, in priority order (config.BooksFor); ownList tells that the
	// side ([1] White, [0] Black) has a list of its own (BookFileWhite,
	// BookFileBlack).
	shelf   book.Shelf
	ownList [2]bool
	disk    []bookOnDisk // each book file in use as it was on disk when opened
	chooser *book.Chooser
	// gen changes whenever the books or the chooser are made anew: what
	// was measured with them (the look-ahead's cache) is stale.
	gen            int
	policy         bookPolicy // what the book policies remember of the game
	saidNoChess960 bool       // the log has said that Chess960 games skip the ABK books
	warm           warmSearch // the engine searching while the book answers
}

// probed is the books probed for the side to move in this game: those for
// the side, less the ABK books in a Chess960 game (Arena's format has no
// Chess960), which the log says once.
func (c *Core) probed(white bool) []*book.Book {
	books := c.books.shelf.For(white)
	if !c.game.chess960 || !slices.ContainsFunc(books, (*book.Book).NoChess960) {
		return books
	}
	var kept []*book.Book
	for _, b := range books {
		if !b.NoChess960() {
			kept = append(kept, b)
		} else if !c.books.saidNoChess960 {
			c.log.printf("book %s: %s", b.Path(), b.NoChess960Reason())
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
		c.log.printf("book off")
		return
	}
	byPath := map[string]*book.Book{}
	for _, path := range c.settings.BooksInUse() {
		c.books.disk = append(c.books.disk, bookOnDisk{path, statBook(path)}) // before: a change after it is seen
		if b := c.openBook(path); b != nil {
			byPath[path] = b
		}
	}
	for _, white := range []bool{false, true} {
		side := &c.books.shelf.Black
		if white {
			side = &c.books.shelf.White
		}
		for _, p := range c.settings.BooksFor(white) {
			if b := byPath[p]; b != nil {
				*side = append(*side, b)
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
		c.log.printf("book %s: %s book read in %v (%v)", path, f.Name(), time.Since(opening).Round(time.Millisecond), b.Report())
	}
	for _, w := range b.Warnings() {
		c.notify("book %s: %s", path, w)
	}
	if b.Len() == 0 && !b.FoundByPosition() {
		// Kept open: a rewrite is noticed and reopened as for any book.
		c.notify("book %s has no entries: no move comes from it until it is written", path)
	}
	c.books.open = append(c.books.open, b)
	c.log.printf("book %s opened (%s)", path, b.Size())
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
			idleThread()
			c.post(event{kind: evBookVerdict, verdict: bookVerdict{b, b.Verify()}})
		}()
	}
	c.books.unverified = nil
}

func (c *Core) onBookVerdict(v bookVerdict) {
	if v.err == nil || errors.Is(v.err, book.ErrClosed) {
		return
	}
	if errors.Is(v.err, book.ErrUnsorted) {
		c.notify("book %s is not sorted (%v): its moves are still found, but every lookup reads the whole file (a Polyglot book must be sorted by key)", v.b.Path(), v.err)
		return
	}
	c.notify("book %s: %v", v.b.Path(), v.err)
}

func (s *bookSet) close() {
	for _, b := range s.open {
		b.Close()
	}
	s.open, s.disk, s.shelf, s.unverified = nil, nil, book.Shelf{}, nil
	s.ownList = [2]bool{}
	s.saidNoChess960 = false
}

// bookMove decides whether the book answers this go, and with what. Every
// decision is logged with its reason.
func (c *Core) bookMove(g *uci.Go) (*bookAnswer, bool) {
	why := c.noBookReason(g)
	if why != "" {
		c.log.printf("book: no (%s)", why)
		return nil, false
	}
	cur := c.game.cur
	white := cur.Pos.WhiteToMove()
	var only []board.Move
	if len(g.SearchMoves) > 0 {
		only = searchMoves(g.SearchMoves)
	}
	list := ""
	if c.books.ownList != [2]bool{} {
		list = " (" + c.books.listName(white) + ")"
	}
	c.books.chooser.Explain(c.log.on) // the reasons are for the log alone
	d := c.decide(cur, only, true)
	if d.Chosen < 0 && c.checkBooksOnDisk(false) {
		d = c.decide(cur, only, true)
	}
	choice, ok := d.Move()
	if !ok {
		if c.log.on {
			c.log.printf("book%s: no (%s)", list, d.Reason)
		}
		return nil, false
	}
	if c.log.on {
		c.log.printf("book%s: %s", list, d.Reason)
	}
	move := choice.Move.String()
	gm := &c.game
	after, ponder, ponderMove := gm.predicted, gm.predictedPonder, board.Move(0)
	if after == nil || gm.predictedMove != choice.Move {
		// Not the answer given to this very position before: work it out.
		var ok bool
		if after, ok = gm.after(move); !ok {
			// A decision only plays legal moves; this would be a bug.
			c.log.printf("book: chosen move %s does not play here: engine decides", move)
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
		forGame: c.game.seq,
		key:     cur.Pos.Key(),
		white:   white,
		ply:     len(cur.Keys) - 1,
		after:   after,
		bm:      BestMove{Move: choice.Move, Ponder: ponderMove},
		book:    BookChoice{Weight: choice.Weight, Chance: choice.Chance, Share: choice.Share, File: filepath.Base(d.Book.Path())},
		from:    d.Book,
		entry:   choice.Entry,
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
	case !c.game.ok:
		if c.game.err != "" {
			return "position not followed"
		}
		return "no position"
	case g.Infinite:
		return "analysis (go infinite)"
	case c.game.analyse:
		return "analysis (UCI_AnalyseMode)"
	case g.HasMate:
		return "mate search (go mate)"
	}
	return c.noBookAt(c.game.cur)
}

// noBookAt is why the book may not answer in the game cur whatever the
// search asked, before it is asked, or "": the books in use. The rest is
// the decision's (decide).
func (c *Core) noBookAt(cur *board.Line) string {
	white := cur.Pos.WhiteToMove()
	switch {
	case !c.settings.Book:
		return "book off"
	case len(c.books.open) == 0:
		return "no usable book"
	case len(c.books.shelf.For(white)) == 0:
		return "no usable book in " + c.books.listName(white)
	case len(c.probed(white)) == 0:
		return "no book for Chess960 in " + c.books.listName(white) + " (ABK books have none)"
	}
	return ""
}

// decide is the book's decision in the game cur (at its last position),
// the move drawn with draw: book.Chooser.Decide with what the game holds
// (our book moves, the look-ahead's cache).
func (c *Core) decide(cur *board.Line, only []board.Move, draw bool) book.Decision {
	g := book.Game{Line: cur, Played: c.books.policy.count(c.game.number, cur), Only: only,
		Lookahead: c.books.policy.look.For(c.game.number, c.books.gen)}
	if draw {
		return c.books.chooser.Choose(&c.books.shelf, g)
	}
	return c.books.chooser.Decide(&c.books.shelf, g)
}

// BookView is the book decision's view of a position, for a GUI that
// asks what the book holds (CECP's bk and hint): the book that would
// answer there and its entries judged, each with its chance (policies,
// per-side books and Width included), or why the book has no move.
type BookView = book.Decision

// BookView is the book decision's view of the game as played (Game). It
// draws no random number and touches no search: asking never changes
// what the book or the engine plays.
func (c *Core) BookView() BookView {
	g := &c.game
	if g.pondering {
		played := board.Line{Pos: g.beforeLast, Keys: g.cur.Keys[:len(g.cur.Keys)-1]}
		return c.viewBook(&played)
	}
	return c.viewBook(g.cur)
}

// viewBook is the book decision's view of the game cur (its last
// position).
func (c *Core) viewBook(cur *board.Line) BookView {
	if why := c.noBookAt(cur); why != "" {
		return BookView{Chosen: -1, Why: why}
	}
	return c.decide(cur, nil, false)
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
	c.stopWarm() // the book answers now: a search of this position is over
	if ans == nil {
		return
	}
	if played && c.game.ok && c.game.seq == ans.forGame {
		c.game.predicted, c.game.predictedMove, c.game.predictedPonder = ans.after, ans.bm.Move, ans.ponder
		c.books.policy.played(c.game.number, ans)
	}
	out := answer{bm: ans.bm}
	if played {
		// Copies: the game may continue from ans.after before the
		// observer runs.
		after := ans.after.Pos
		line := slices.Clone(ans.after.Keys[:ans.ply+1])
		out.observe = func() {
			c.observer.later(func(o GameObserver) {
				o.BookMove(ans.from, line, ans.entry.Move, ans.white)
				o.AfterBestmove(after)
			})
		}
	}
	if played {
		// Before the answer goes out: a front may go on with the game as
		// it takes it.
		c.warmAfterBookMove(ans)
	}
	c.replies.emit([]answer{out}, nil)
}
