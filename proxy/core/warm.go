package core

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polyproxy/polyproxy/proxy/reply"
)

// warmSearch is the engine searching a position while the book answers
// (BookPonder): its hash is then warm when the book ends, instead of cold.
// Nobody asked for this search, so it owes the GUI nothing: its info lines
// and its bestmove never reach the GUI, and it never delays a reply. It
// runs only while the engine owes the GUI no bestmove, and ends (stop) as
// soon as anything else is sent to the engine, so the engine's own order
// is kept: its bestmoves come in the order of the gos it was sent, the warm
// searches' first.
type warmSearch struct {
	// running: a warm search was sent and not yet stopped.
	running bool
	// owed counts the bestmoves of warm searches still to come: the next
	// owed bestmoves from the engine are theirs, and its info lines until
	// then too.
	owed int
	line string // the position of the latest warm search
	// always: the running one is BookPonderAlways's, in the opponent's
	// time (else the GUI ponders on a book position).
	always bool
	// killers are the positions whose warm search the engine died in
	// (they outlive the engine): none is searched in the background again,
	// and after maxPoisons of them there are no warm searches for the rest
	// of the run.
	killers []string
}

// startWarm lets the engine search position line (a "position ..." line)
// for as long as nothing else needs it, when BookPonder is on and the
// engine is idle. why says what for, in the log; always tells that it is
// BookPonderAlways's search.
func (c *Core) startWarm(line, why string, always bool) {
	if !c.warmAllowed(always) || line == "" || c.engine.handshaking || c.replies.Owes(reply.Bestmove) > 0 {
		return
	}
	switch w := &c.books.warm; {
	case len(w.killers) >= maxPoisons:
		c.log.Printf("warm engine: off for this run (the engine died in %d searches of its own)", maxPoisons)
		return
	case slices.Contains(w.killers, line):
		c.log.Printf("warm engine: not searching %s, where the engine died in a search of its own", line)
		return
	}
	c.stopWarm()
	c.log.Printf("warm engine: searching %s (%s); its bestmove will not be shown", line, why)
	c.toEnginePosition(line)
	c.toEngine("go infinite")
	c.books.warm.running = true
	c.books.warm.owed++
	c.books.warm.line = line
	c.books.warm.always = always
}

// stopWarm ends the warm search, if one runs; its bestmove is still to
// come and will be swallowed.
func (c *Core) stopWarm() {
	if !c.books.warm.running {
		return
	}
	c.books.warm.running = false // first: toEngine stops a running warm search
	c.toEngine("stop")
}

// warmBeforeEngineLine ends the warm search before any line but isready
// goes to the engine: engines take a position, a go, an option or a new
// game only when they are not searching (an isready they answer at once).
func (c *Core) warmBeforeEngineLine(line string) {
	if c.books.warm.running && line != "isready" {
		c.stopWarm()
	}
}

// warmSwallows reports whether a bestmove from the engine is a warm
// search's, which is then dropped.
func (c *Core) warmSwallows() bool {
	w := &c.books.warm
	if w.owed == 0 {
		return false
	}
	w.owed--
	if w.owed == 0 {
		w.running = false // it ended by itself: nothing to stop
	}
	c.search.lastScore = c.search.lastScore[:0] // its scores are no search's of the GUI
	c.log.Printf("warm engine: its bestmove swallowed (the GUI did not ask for that search)")
	return true
}

// warmAfterBookMove starts, with BookPonderAlways, the search of the
// position after a book move just played, in the opponent's time.
func (c *Core) warmAfterBookMove(ans *bookAnswer) {
	if !c.warmAllowed(true) || !c.game.ok || c.game.seq != ans.forGame {
		return
	}
	c.startWarm(withMove(c.game.engineLine(), ans.move), "after the book move "+ans.move+", in the opponent's time", true)
}

// warmAllowed reports whether the settings allow a warm search, always
// telling whether it is BookPonderAlways's: the book must be on too (a
// book answer held from before it was turned off still goes out, but
// starts no search).
func (c *Core) warmAllowed(always bool) bool {
	s := c.settings
	return s.Book && s.BookPonder && (!always || s.BookPonderAlways)
}

// stopWarmIfOff ends the running warm search when the settings no longer
// allow it (the GUI turned Book, BookPonder or BookPonderAlways off): no
// search the GUI did not ask for goes on once the feature is off.
func (c *Core) stopWarmIfOff() {
	w := &c.books.warm
	if !w.running || c.warmAllowed(w.always) {
		return
	}
	c.log.Printf("warm engine: stopped, the settings no longer allow it")
	c.stopWarm()
}

// withMove is a position line with one more move.
func withMove(line, move string) string {
	if slices.Contains(strings.Fields(line), "moves") {
		return line + " " + move
	}
	return line + " moves " + move
}

// resetWarm forgets the warm searches of an engine that is gone: a new
// engine owes none. The positions that killed one are kept.
func (c *Core) resetWarm() {
	c.books.warm = warmSearch{killers: c.books.warm.killers}
}

// deathInWarmSearch reports whether the engine died owing a warm search's
// bestmove: it was searching, or had not finished, a position the GUI
// never asked for.
func (c *Core) deathInWarmSearch() bool {
	return c.books.warm.owed > 0 && c.engine.everReady && !c.engine.handshaking
}

// onWarmDeath takes the engine's death in a warm search: it is restarted,
// and the death is not counted toward giving up on it (a search the GUI
// never asked for must not cost the GUI its engine). Its position is not
// searched in the background again; after maxPoisons such deaths the warm
// searches stop for the run. A search of the GUI's sent after the warm
// one is issued again to the new engine, as after any death.
func (c *Core) onWarmDeath(status string) {
	w := &c.books.warm
	w.killers = append(w.killers, w.line)
	off := ""
	if len(w.killers) >= maxPoisons {
		off = fmt.Sprintf("; the engine died in %d of them: BookPonder searches no more in this run", maxPoisons)
	}
	c.notify("the engine died (%s) in a search of its own (BookPonder, %s): restarting it; this does not count toward giving up, and that position is not searched in the background again%s", status, w.line, off)
}
