package adapter

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
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
	key     book.Key // the position the move was chosen for
	white   bool     // White made the book move
	after   *board.Line
}

// bookVerdict is the result of checking a book in the background.
type bookVerdict struct {
	b   *book.Book
	err error
}

// bookSet is the open books, in priority order, and the chooser.
type bookSet struct {
	open     []*book.Book
	disk     []bookOnDisk // each configured book file as it was on disk when opened
	files    string       // the settings the open books were made from
	chooser  *book.Chooser
	chooseBy string // the settings the chooser was made from
}

// bookSettings is what the open books and the chooser depend on; a change
// reopens them.
func bookSettings(c *config.Config) (files, choosing string) {
	files = strings.Join(c.BookFiles, "\x00")
	if !c.Book {
		files = ""
	}
	choosing = fmt.Sprintf("%s/%d/%t/%d/%t", c.BookMode, c.BookThreshold, c.BookAvoidRepetition, c.BookSeed, c.BookLearnWeight)
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
		}
		if a.settings.BookLearnWeight {
			opts.Weight = learn.Weight // prefer moves that did well (see README, Book learning)
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
	for _, path := range a.settings.BookFiles {
		a.books.disk = append(a.books.disk, bookOnDisk{path, statBook(path)}) // before: a change after it is seen
		b, err := book.Open(path)
		if err != nil {
			a.notify("book %s not used: %v; playing on without it", path, err)
			continue
		}
		for _, w := range b.Warnings() {
			a.notify("book %s: %s", path, w)
		}
		a.books.open = append(a.books.open, b)
		a.log.printf("book %s opened (%d entries)", path, b.Len())
		// A book must be sorted for lookups to work; checking a big one
		// takes a while, so it runs beside the game.
		go func() { sendOrDone(a.bookCh, bookVerdict{b, b.Verify()}, a.done) }()
	}
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
	s.open, s.disk = nil, nil
	s.files = ""
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
	var only []book.Move
	if len(g.SearchMoves) > 0 {
		only = searchMoves(g.SearchMoves)
	}
	choice, ok, reason := a.books.chooser.Choose(a.books.open, &cur.Pos, cur.Seen, only)
	if !ok && a.checkBooksOnDisk() {
		choice, ok, reason = a.books.chooser.Choose(a.books.open, &cur.Pos, cur.Seen, only)
	}
	if !ok {
		a.log.printf("book: no (%s)", reason)
		return nil, false
	}
	a.log.printf("book: %s", reason)
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
		if reply, ok := a.books.chooser.BestReply(a.books.open, &after.Pos); ok {
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
		white:   cur.Pos.WhiteToMove(),
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
	case a.game.chess960:
		return "Chess960"
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
	case a.game.cur.Pos.FullMove() > a.settings.BookDepth:
		return fmt.Sprintf("beyond BookDepth (move %d > %d)", a.game.cur.Pos.FullMove(), a.settings.BookDepth)
	}
	return ""
}

// searchMoves reads the moves the GUI allows with searchmoves. An unreadable
// one is skipped; when none is readable the book has no allowed move.
func searchMoves(moves []string) []book.Move {
	out := make([]book.Move, 0, len(moves))
	for _, s := range moves {
		if m, err := book.ParseMove(s); err == nil {
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
	if ans == nil {
		return
	}
	if played && a.game.ok && a.game.line == ans.forLine {
		a.game.predicted, a.game.predictedMove, a.game.predictedPonder = ans.after, ans.move, ans.ponder
	}
	// A copy: the game may continue from ans.after before the observer
	// runs.
	after := *ans.after
	a.replies.emit(ans.lines, func() {
		if played {
			a.observer.later(func(o GameObserver) {
				o.BookMove(ans.choice.Book, ans.key, ans.choice.Entry.Move, ans.white)
				o.AfterBestmove(&after)
			})
		}
	})
}
