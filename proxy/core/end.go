package core

import (
	"slices"
	"time"

	"github.com/polyproxy/polyproxy/proxy/loop"
)

// The end of a run. The GUI's quit, and the end of its input, are
// commands in its stream like any other: everything it asked before them
// is answered as the engine alone would answer it (a readyok, the bestmove
// of a book answer, the bestmove of a running search, which the engine
// gives when it gets quit), and the engine's output reaches the GUI until
// the engine has left, within a grace. Lines after the quit are not read.

// ending is where the run is in its end.
type ending struct {
	phase phase
	// wait fires when a quit held behind the engine's handshake, or behind
	// a search that ends by itself, has waited long enough (QuitWait) for
	// the answers owed before it.
	wait  loop.Timer
	drain loop.Timer // fires when the engine has had its grace to leave after quit
}

// phase is how far the run is in its end; it only moves forward.
type phase int

const (
	running phase = iota
	// quitRead: the GUI's quit (or the end of its input) was read; the
	// commands before it are still answered. Lines after it are not read.
	quitRead
	// hurried: the quit has waited QuitWait for those answers; searches
	// that would end by themselves are stopped rather than waited for.
	hurried
	draining // quit went to the engine: its last lines still reach the GUI
	over     // the run ends after this event
	// overdue: the run ends now, and the engine gets no more grace: it did
	// not leave within the one it had after quit.
	overdue
)

// reach moves the end on to p, never back.
func (e *ending) reach(p phase) { e.phase = max(e.phase, p) }

func (e *ending) quitSeen() bool { return e.phase >= quitRead }
func (e *ending) draining() bool { return e.phase >= draining }
func (e *ending) now() bool      { return e.phase >= over }

// stuckHandshakeGrace is how long an engine that has not finished its
// handshake gets to leave after quit: it does not read its input yet, so
// it cannot act on the quit anyway.
const stuckHandshakeGrace = 100 * time.Millisecond

// onQuitInOrder takes the GUI's quit (or the end of its input): at once
// when nothing before it waits; else after what waits, within QuitWait;
// at once, too, when only the engine's handshake holds it up and nothing
// before it needs an answer.
func (c *Core) onQuitInOrder() {
	c.end.reach(quitRead)
	if !c.Waiting() {
		c.beginEnd()
		return
	}
	if c.engine.Handshaking() && !c.answersWaitForHandshake() {
		c.log.Printf("quit during the engine's handshake, with nothing to answer: quitting now")
		c.end.reach(over)
		return
	}
	c.queue = append(c.queue, quit{})
	c.loop.Start(&c.end.wait, c.opts.QuitWait, c.onQuitWaitOver)
}

// answersWaitForHandshake reports whether a command waiting for the
// engine's handshake needs an answer the engine must give, or a restarted
// engine owes one the dead engine did not give.
func (c *Core) answersWaitForHandshake() bool {
	if c.replies.Owing() {
		return true
	}
	return slices.ContainsFunc(c.queue, command.owesAnswer)
}

// onQuitWaitOver: the answers owed before a quit did not come in time.
func (c *Core) onQuitWaitOver() {
	c.end.reach(hurried)
	switch {
	case c.engine.Handshaking():
		c.log.Printf("the engine did not finish its handshake: quitting anyway")
		c.end.reach(over)
	case c.heldBySearch:
		c.log.Printf("quit waited %v for a search to end by itself: stopping it", c.opts.QuitWait)
		c.stopEngineSearch()
	}
}

// beginEnd carries out the GUI's quit, in its turn: a book answer held for
// a ponder search goes out as the engine would give its bestmove, the
// engine gets the quit, and its output is relayed until it leaves.
func (c *Core) beginEnd() {
	if c.search.state == searchBookPonder {
		c.releaseBookAnswer(false)
	}
	c.toEngine("quit")
	c.end.reach(draining)
	c.end.wait.Stop()
	c.loop.Start(&c.end.drain, c.opts.QuitGrace, c.onDrainOver)
}

// finish ends the run: replies the engine never gave are made good (a
// bestmove 0000 for each go, so every go still gets one; our own lines
// that waited behind them go out), and the engine is stopped.
func (c *Core) finish() {
	for range c.replies.ReplaceLostBestmoves(false) {
		c.log.Printf("the engine left without a bestmove it owed: bestmove 0000 instead")
	}
	c.replies.Abandon()
	c.out.w.Flush()
	grace := c.opts.QuitGrace
	switch {
	case c.end.phase == overdue:
		grace = 0 // it had its grace already
	case c.engine.Handshaking():
		grace = min(grace, stuckHandshakeGrace)
	}
	c.engine.Quit(grace)
	if c.loop.Polling() {
		c.log.Printf("loop: %d busy-waits for an answer due at once", c.loop.Spins())
	}
	c.log.Printf("engine stopped; bye")
}

// onDrainOver: the engine did not leave within its grace after quit.
func (c *Core) onDrainOver() {
	c.log.Printf("the engine did not leave within %v of quit: ending it", c.opts.QuitGrace)
	c.end.reach(overdue)
}
