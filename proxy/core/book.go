package core

import (
	"path/filepath"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/bookplay"
	"github.com/polyproxy/polyproxy/proxy/loop"
	"github.com/polyproxy/polyproxy/uci"
)

// The book's answers (proxy/bookplay decides), as the core plays them.

// bookAnswer is a chosen book move and how the GUI is told it.
type bookAnswer struct {
	move    string
	ponder  string // "" when the book has no reply
	forGame int    // the game given it answers (track.Tracker.Seq)
	bm      BestMove
	book    BookChoice // what bm.Book points to
	choice  book.Candidate
	from    *book.Book // the book that answered
	key     board.Key  // the position the move was chosen for
	white   bool       // White made the book move
	ply     int        // of the position it was chosen for, counted from the game's start
	after   *board.Line
}

// bookGame is the game followed, as the book is asked about it.
func (c *Core) bookGame(line *board.Line) bookplay.Game {
	return bookplay.Game{Line: line, Problem: c.game.Problem(), Number: c.game.Number(), Chess960: c.game.Chess960()}
}

// bookMove asks the book whether it answers this go, and with what; the
// ponder move announced with it is the book's reply after it.
func (c *Core) bookMove(g *uci.Go) (*bookAnswer, bool) {
	var cur *board.Line
	if c.game.OK() {
		cur = c.game.Current()
	}
	d, notices, ok := c.books.Move(g, c.bookGame(cur), c.engine.Modes().Analyse)
	c.tell(notices)
	if !ok {
		return nil, false
	}
	choice, _ := d.Move()
	move := choice.Move.String()
	after, predicted, ponder := c.game.Predicted()
	if after == nil || predicted != choice.Move {
		// Not the answer given to this very position before: work it out.
		var ok bool
		if after, ok = c.game.After(move); !ok {
			// Choose only returns legal moves; this would be a bug.
			c.log.Printf("book: chosen move %s does not play here: engine decides", move)
			return nil, false
		}
		ponder = ""
		if reply, ok := c.books.Reply(after, c.game.Chess960()); ok {
			ponder = reply.String()
		}
	}
	ponderMove := board.Move(0)
	if ponder != "" {
		ponderMove, _ = board.ParseMove(ponder)
	}
	ans := &bookAnswer{
		move:    move,
		ponder:  ponder,
		forGame: c.game.Seq(),
		choice:  choice,
		from:    d.Book,
		key:     cur.Pos.Key(),
		white:   cur.Pos.WhiteToMove(),
		ply:     len(cur.Keys) - 1,
		after:   after,
		bm:      BestMove{Move: choice.Move, Ponder: ponderMove},
		book:    BookChoice{Weight: choice.Weight, Chance: choice.Chance, Share: choice.Share, File: filepath.Base(d.Book.Path())},
	}
	ans.bm.Book = &ans.book
	return ans, true
}

// BookView is the book decision's view of a position (bookplay.View).
type BookView = bookplay.View

// BookView is the book decision's view of the game as played (Game). It
// draws no random number and touches no search: asking never changes
// what the book or the engine plays.
func (c *Core) BookView() BookView {
	played := c.game.Played()
	return c.books.View(c.bookGame(&played))
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
		c.books.Played(c.game.Number(), ans.ply, ans.key, ans.after.Pos.Key())
	}
	out := answer{bm: ans.bm}
	if played {
		// Copies: the game may continue from ans.after before the
		// observer runs.
		after := ans.after.Pos
		line := slices.Clone(ans.after.Keys[:ans.ply+1])
		out.observe = func() {
			c.observer.Later(func(o GameObserver) {
				o.BookMove(ans.from, line, ans.choice.Entry.Move, ans.white)
				o.AfterBestmove(after)
			})
		}
		// Before the answer goes out: a front may go on with the game as
		// it takes it.
		c.warmAfterBookMove(ans)
	}
	c.replies.Emit([]answer{out}, nil)
}

// openBooks makes anew what a change of settings invalidated (bookplay's
// Open), and tells what went wrong.
func (c *Core) openBooks(changed config.Invalidates) { c.tell(c.books.Open(changed)) }

// verifyBooks checks that the books just opened are sorted, as lookups
// need: beside the game, since a big book takes a while (a second for 10
// million entries). At start-up it waits for the engine's first handshake
// to be answered (settle): the check then takes no CPU from the start of
// the engine, which needs both, nor from our answer to uci; nothing is
// looked up before that handshake anyway. Each check runs on a thread of
// its own at the lowest priority: it only takes a CPU that nothing else
// wants.
func (c *Core) verifyBooks() {
	for _, b := range c.books.Unverified() {
		go func() {
			loop.IdleThread()
			err := b.Verify()
			c.loop.Post(func() {
				if n, bad := bookplay.Verdict(b, err); bad {
					c.tell([]bookplay.Notice{n})
				}
			})
		}()
	}
}

// tell tells the user what the book play says: the log and the GUI, and
// stderr too for a warning.
func (c *Core) tell(notices []bookplay.Notice) {
	for _, n := range notices {
		if n.Warn {
			c.notify("%s", n.Msg)
			continue
		}
		c.log.Printf("%s", n.Msg)
		c.notice(n.Msg)
	}
}
