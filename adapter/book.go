package adapter

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// bookAnswer is a chosen book move and the lines that announce it.
type bookAnswer struct {
	move    string
	ponder  string // "" when the book has no reply
	forLine string // the position line it answers
	lines   []string
	choice  book.Choice
	key     board.Key // the position the move was chosen for
	white   bool      // White made the book move
	ply     int       // of the position it was chosen for, counted from the game's start
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
	// The lists in priority order: BookFile, and BookFileWhite and
	// BookFileBlack when they are set (whiteSet, blackSet), which replace
	// BookFile for the positions with that side to move.
	any, white, black  []*book.Book
	whiteSet, blackSet bool
	disk               []bookOnDisk // each book file in use as it was on disk when opened
	files              string       // the settings the open books were made from
	chooser            *book.Chooser
	chooseBy           string     // the settings the chooser was made from
	policy             bookPolicy // what the book policies remember of the game
	saidNoChess960     bool       // the log has said that Chess960 games skip the ABK books
	warm               warmSearch // the engine searching while the book answers
}

// forSide is the books for the positions where White (or Black) is to
// move: the side polyproxy plays there. A position's books answer for it,
// give the ponder reply after it and carry the look-ahead through it.
func (s *bookSet) forSide(white bool) []*book.Book {
	switch {
	case white && s.whiteSet:
		return s.white
	case !white && s.blackSet:
		return s.black
	}
	return s.any
}

// probed is the books probed for the side to move in this game: those for
// the side, less the ABK books in a Chess960 game (Arena's format has no
// Chess960), which the log says once.
func (a *Adapter) probed(white bool) []*book.Book {
	books := a.books.forSide(white)
	if !a.game.chess960 || !slices.ContainsFunc(books, (*book.Book).NoChess960) {
		return books
	}
	var kept []*book.Book
	for _, b := range books {
		if !b.NoChess960() {
			kept = append(kept, b)
		} else if !a.books.saidNoChess960 {
			a.log.printf("book %s: %s", b.Path(), b.NoChess960Reason())
		}
	}
	a.books.saidNoChess960 = true
	return kept
}

// listName is the setting the books for a side come from, for the log.
func (s *bookSet) listName(white bool) string {
	switch {
	case white && s.whiteSet:
		return "BookFileWhite"
	case !white && s.blackSet:
		return "BookFileBlack"
	}
	return "BookFile"
}

// bookLists are the configured lists in use: BookFile only while a side
// has no list of its own.
func bookLists(c *config.Config) (general, white, black []string) {
	if len(c.BookFilesWhite) == 0 || len(c.BookFilesBlack) == 0 {
		general = c.BookFiles
	}
	return general, c.BookFilesWhite, c.BookFilesBlack
}

// booksInUse is every book file in use, each once, in the order of the
// lists.
func booksInUse(c *config.Config) []string {
	general, white, black := bookLists(c)
	var all []string
	for _, l := range [][]string{general, white, black} {
		for _, p := range l {
			if !slices.Contains(all, p) {
				all = append(all, p)
			}
		}
	}
	return all
}

// bookSettings is what the open books and the chooser depend on; a change
// reopens them.
func bookSettings(c *config.Config) (files, choosing string) {
	general, white, black := bookLists(c)
	files = strings.Join(general, "\x00") + "\x01" + strings.Join(white, "\x00") + "\x01" + strings.Join(black, "\x00")
	if !c.Book {
		files = ""
	}
	choosing = fmt.Sprintf("%s/%d/%t/%d/%t/%d/%d", c.BookMode, c.BookThreshold, c.BookAvoidRepetition, c.BookSeed, c.BookLearnWeight, c.BookWidth, c.BookMinWeight)
	return files, choosing
}

// openBooks (re)opens the configured books when their settings changed. A
// book that cannot be opened is reported and skipped: polyproxy plays on
// without it.
func (a *Adapter) openBooks() {
	files, choosing := bookSettings(a.settings)
	if choosing != a.books.chooseBy || a.books.chooser == nil {
		opts := book.Options{
			Mode:              a.settings.BookMode,
			ThresholdPerMille: a.settings.BookThreshold,
			AvoidRepetition:   a.settings.BookAvoidRepetition,
			Width:             a.settings.BookWidth,
			MinWeight:         uint64(a.settings.BookMinWeight),
		}
		if a.settings.BookLearnWeight {
			opts.Weight = learn.Weight // prefer moves that did well (see docs/learning.md)
		}
		a.books.chooser = book.NewChooser(opts, a.settings.BookSeed)
		a.books.chooseBy = choosing
	}
	if files == a.books.files {
		return
	}
	a.books.close()
	a.books.files = files
	if !a.settings.Book {
		a.log.printf("book off")
		return
	}
	byPath := map[string]*book.Book{}
	for _, path := range booksInUse(a.settings) {
		a.books.disk = append(a.books.disk, bookOnDisk{path, statBook(path)}) // before: a change after it is seen
		opening := time.Now()
		b, err := formats.Open(path)
		if err != nil {
			a.notify("book %s not used: %v; playing on without it", path, err)
			continue
		}
		if f := b.Format(); f.ReadWhole() {
			// Read whole, unlike a mapped book: the log shows what it cost.
			a.log.printf("book %s: %s book read in %v (%v)", path, f.Name(), time.Since(opening).Round(time.Millisecond), b.Report())
		}
		for _, w := range b.Warnings() {
			a.notify("book %s: %s", path, w)
		}
		if b.Len() == 0 {
			// Kept open: a rewrite is noticed and reopened as for any book.
			a.notify("book %s has no entries: no move comes from it until it is written", path)
		}
		a.books.open = append(a.books.open, b)
		byPath[path] = b
		a.log.printf("book %s opened (%d entries)", path, b.Len())
		a.books.unverified = append(a.books.unverified, b)
	}
	opened := func(paths []string) []*book.Book {
		var l []*book.Book
		for _, p := range paths {
			if b := byPath[p]; b != nil {
				l = append(l, b)
			}
		}
		return l
	}
	general, white, black := bookLists(a.settings)
	a.books.any, a.books.white, a.books.black = opened(general), opened(white), opened(black)
	a.books.whiteSet, a.books.blackSet = len(white) > 0, len(black) > 0
}

// verifyBooks checks that the books just opened are sorted, as lookups
// need: beside the game, since a big book takes a while (a second for 10
// million entries). At start-up it waits for the engine's first handshake
// to be answered (afterEvent): the check then takes no CPU from the start
// of the engine, which needs both, nor from our answer to uci; nothing
// is looked up before that handshake anyway. Each check runs on a thread of its own at
// the lowest priority: it only takes a CPU that nothing else wants.
func (a *Adapter) verifyBooks() {
	for _, b := range a.books.unverified {
		go func() {
			idleThread()
			if sendOrDone(a.bookCh, bookVerdict{b, b.Verify()}, a.done) {
				a.kick()
			}
		}()
	}
	a.books.unverified = nil
}

func (a *Adapter) onBookVerdict(v bookVerdict) {
	if v.err == nil || errors.Is(v.err, book.ErrClosed) {
		return
	}
	var oe *book.OrderError
	if errors.As(v.err, &oe) {
		a.notify("book %s is not sorted (%v): its moves are still found, but every lookup reads the whole file (a Polyglot book must be sorted by key)", v.b.Path(), v.err)
		return
	}
	a.notify("book %s: %v", v.b.Path(), v.err)
}

func (s *bookSet) close() {
	for _, b := range s.open {
		b.Close()
	}
	s.open, s.disk, s.any, s.white, s.black, s.unverified = nil, nil, nil, nil, nil, nil
	s.whiteSet, s.blackSet = false, false
	s.files = ""
	s.saidNoChess960 = false
}

// bookMove decides whether the book answers this go, and with what. Every
// decision is logged with its reason.
func (a *Adapter) bookMove(g *uci.Go) (*bookAnswer, bool) {
	why := a.noBookReason(g)
	if why != "" {
		a.log.printf("book: no (%s)", why)
		return nil, false
	}
	cur := a.game.cur
	white := cur.Pos.WhiteToMove()
	var only []board.Move
	if len(g.SearchMoves) > 0 {
		only = searchMoves(g.SearchMoves)
	}
	list := ""
	if a.books.whiteSet || a.books.blackSet {
		list = " (" + a.books.listName(white) + ")"
	}
	a.books.chooser.Explain(a.log.on) // the reasons are for the log alone
	choice, ok, reason := a.books.chooser.Choose(a.probed(white), &cur.Pos, cur.Seen, only)
	if !ok && a.checkBooksOnDisk(false) {
		choice, ok, reason = a.books.chooser.Choose(a.probed(white), &cur.Pos, cur.Seen, only)
	}
	if !ok {
		if a.log.on {
			a.log.printf("book%s: no (%s)", list, reason)
		}
		return nil, false
	}
	if why := a.shortLine(cur, choice.Move); why != "" {
		if a.log.on {
			a.log.printf("book%s: no (%s; %s)", list, why, reason)
		}
		return nil, false
	}
	if a.log.on {
		a.log.printf("book%s: %s", list, reason)
	}
	move := choice.Move.String()
	gm := &a.game
	after, ponder := gm.predicted, gm.predictedPonder
	if after == nil || gm.predictedMove != move {
		// Not the answer given to this very position before: work it out.
		var ok bool
		if after, ok = gm.after(move); !ok {
			// Choose only returns legal moves; this would be a bug.
			a.log.printf("book: chosen move %s does not play here: engine decides", move)
			return nil, false
		}
		ponder = ""
		if reply, ok := a.books.chooser.BestReply(a.probed(after.Pos.WhiteToMove()), &after.Pos); ok {
			ponder = reply.String()
		}
	}
	bestmove := "bestmove " + move
	if ponder != "" {
		bestmove += " ponder " + ponder
	}
	ans := &bookAnswer{
		move:    move,
		ponder:  ponder,
		forLine: a.game.line,
		choice:  choice,
		key:     cur.Pos.Key(),
		white:   white,
		ply:     len(cur.Keys) - 1,
		after:   after,
		lines: []string{
			"info string book move " + move + " (weight " + strconv.FormatUint(choice.Weight, 10) + ", " +
				strconv.FormatFloat(100*choice.Share, 'f', 1, 64) + "%, " + filepath.Base(choice.Book.Path()) + ")",
			// Some hosts (fastchess) want a score before every bestmove.
			"info depth 1 score cp 0 time 0 nodes 0 pv " + move,
			bestmove,
		},
	}
	return ans, true
}

// noBookReason is why the book may not answer, or "".
func (a *Adapter) noBookReason(g *uci.Go) string {
	switch {
	case !a.settings.Book:
		return "book off"
	case len(a.books.open) == 0:
		return "no usable book"
	case !a.game.ok:
		if a.game.err != "" {
			return "position not followed"
		}
		return "no position"
	case g.Infinite:
		return "analysis (go infinite)"
	case a.game.analyse:
		return "analysis (UCI_AnalyseMode)"
	case g.HasMate:
		return "mate search (go mate)"
	}
	return a.noBookAt(a.game.cur)
}

// noBookAt is why the book may not answer in the game cur whatever the
// search asked, or "": the book settings, BookDepth, BookMaxMoves.
func (a *Adapter) noBookAt(cur *board.Line) string {
	white := cur.Pos.WhiteToMove()
	switch {
	case !a.settings.Book:
		return "book off"
	case len(a.books.open) == 0:
		return "no usable book"
	case len(a.books.forSide(white)) == 0:
		return "no usable book in " + a.books.listName(white)
	case len(a.probed(white)) == 0:
		return "no book for Chess960 in " + a.books.listName(white) + " (ABK books have none)"
	case cur.Pos.FullMove() > a.settings.BookDepth:
		return fmt.Sprintf("beyond BookDepth (move %d > %d)", cur.Pos.FullMove(), a.settings.BookDepth)
	}
	return a.maxMovesReason(cur)
}

// bookView is the book decision's view of a position, for a GUI that
// asks what the book holds (CECP's bk and hint): the book that would
// answer there and its entries as the chooser judges them (policies,
// per-side books and Width included), or why the book has no move.
type bookView struct {
	book  *book.Book       // nil: no book has an entry here
	cands []book.Candidate // the book's entries for the position
	why   string           // why the book would not answer ("": it would)
}

// viewBook is the book decision's view of the game cur (its last
// position). It draws no random number and touches no search: asking
// never changes what the book or the engine plays.
func (a *Adapter) viewBook(cur *board.Line) bookView {
	var v bookView
	if v.why = a.noBookAt(cur); v.why != "" {
		return v
	}
	for _, b := range a.probed(cur.Pos.WhiteToMove()) {
		cands := a.books.chooser.Candidates(b, &cur.Pos, cur.Seen)
		if len(cands) > 0 && v.book == nil {
			v.book, v.cands = b, cands
		}
		for _, cd := range cands {
			if cd.Eligible {
				v.book, v.cands = b, cands
				a.markShortLines(cur, &v)
				return v
			}
		}
	}
	v.why = "no book has a move it would play here"
	if v.book == nil {
		v.why = "not in book"
	}
	return v
}

// markShortLines leaves out the eligible moves BookMinLine refuses.
func (a *Adapter) markShortLines(cur *board.Line, v *bookView) {
	eligible := 0
	for i := range v.cands {
		cd := &v.cands[i]
		if !cd.Eligible {
			continue
		}
		if why := a.shortLine(cur, cd.Move); why != "" {
			cd.Eligible, cd.Why = false, why
			continue
		}
		eligible++
	}
	if eligible == 0 {
		v.why = "every move it would play ends its line too soon (BookMinLine)"
	}
}

// likeliest is the eligible move of the highest weight (the first of
// equals), the one the book plays most often.
func (v *bookView) likeliest() (board.Move, bool) {
	best := -1
	for i, cd := range v.cands {
		if cd.Eligible && (best < 0 || cd.Weight > v.cands[best].Weight) {
			best = i
		}
	}
	if best < 0 {
		return 0, false
	}
	return v.cands[best].Move, true
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
func (a *Adapter) releaseBookAnswer(played bool) {
	ans := a.search.bookAnswer
	a.search.bookAnswer = nil
	a.search.state = searchNone
	a.stopWarm() // the book answers now: a search of this position is over
	if ans == nil {
		return
	}
	if played && a.game.ok && a.game.line == ans.forLine {
		a.game.predicted, a.game.predictedMove, a.game.predictedPonder = ans.after, ans.move, ans.ponder
		a.books.policy.played(a.game.number, ans)
	}
	// Copies: the game may continue from ans.after before the observer
	// runs.
	after := ans.after.Pos
	line := slices.Clone(ans.after.Keys[:ans.ply+1])
	a.replies.emit(ans.lines, func() {
		if played {
			a.observer.later(func(o GameObserver) {
				o.BookMove(ans.choice.Book, line, ans.choice.Entry.Move, ans.white)
				o.AfterBestmove(after)
			})
		}
	})
	if played {
		a.warmAfterBookMove(ans)
	}
}
