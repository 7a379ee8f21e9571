package adapter

import (
	"fmt"
	"slices"
	"strings"
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
func (a *Adapter) startWarm(line, why string, always bool) {
	if !a.warmAllowed(always) || line == "" || a.engine.handshaking || a.replies.owes(replyBestmove) > 0 {
		return
	}
	switch w := &a.books.warm; {
	case len(w.killers) >= maxPoisons:
		a.log.printf("warm engine: off for this run (the engine died in %d searches of its own)", maxPoisons)
		return
	case slices.Contains(w.killers, line):
		a.log.printf("warm engine: not searching %s, where the engine died in a search of its own", line)
		return
	}
	a.stopWarm()
	a.log.printf("warm engine: searching %s (%s); its bestmove will not be shown", line, why)
	a.toEnginePosition(line)
	a.toEngine("go infinite")
	a.books.warm.running = true
	a.books.warm.owed++
	a.books.warm.line = line
	a.books.warm.always = always
}

// stopWarm ends the warm search, if one runs; its bestmove is still to
// come and will be swallowed.
func (a *Adapter) stopWarm() {
	if !a.books.warm.running {
		return
	}
	a.books.warm.running = false // first: toEngine stops a running warm search
	a.toEngine("stop")
}

// warmBeforeEngineLine ends the warm search before any line but isready
// goes to the engine: engines take a position, a go, an option or a new
// game only when they are not searching (an isready they answer at once).
func (a *Adapter) warmBeforeEngineLine(line string) {
	if a.books.warm.running && line != "isready" {
		a.stopWarm()
	}
}

// warmSwallows reports whether a bestmove from the engine is a warm
// search's, which is then dropped.
func (a *Adapter) warmSwallows() bool {
	w := &a.books.warm
	if w.owed == 0 {
		return false
	}
	w.owed--
	if w.owed == 0 {
		w.running = false // it ended by itself: nothing to stop
	}
	a.search.lastScore = a.search.lastScore[:0] // its scores are no search's of the GUI
	a.log.printf("warm engine: its bestmove swallowed (the GUI did not ask for that search)")
	return true
}

// warmAfterBookMove starts, with BookPonderAlways, the search of the
// position after a book move just played, in the opponent's time.
func (a *Adapter) warmAfterBookMove(ans *bookAnswer) {
	if !a.warmAllowed(true) || !a.game.ok || a.game.seq != ans.forGame {
		return
	}
	a.startWarm(withMove(a.game.engineLine(), ans.move), "after the book move "+ans.move+", in the opponent's time", true)
}

// warmAllowed reports whether the settings allow a warm search, always
// telling whether it is BookPonderAlways's: the book must be on too (a
// book answer held from before it was turned off still goes out, but
// starts no search).
func (a *Adapter) warmAllowed(always bool) bool {
	s := a.settings
	return s.Book && s.BookPonder && (!always || s.BookPonderAlways)
}

// stopWarmIfOff ends the running warm search when the settings no longer
// allow it (the GUI turned Book, BookPonder or BookPonderAlways off): no
// search the GUI did not ask for goes on once the feature is off.
func (a *Adapter) stopWarmIfOff() {
	w := &a.books.warm
	if !w.running || a.warmAllowed(w.always) {
		return
	}
	a.log.printf("warm engine: stopped, the settings no longer allow it")
	a.stopWarm()
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
func (a *Adapter) resetWarm() {
	a.books.warm = warmSearch{killers: a.books.warm.killers}
}

// deathInWarmSearch reports whether the engine died owing a warm search's
// bestmove: it was searching, or had not finished, a position the GUI
// never asked for.
func (a *Adapter) deathInWarmSearch() bool {
	return a.books.warm.owed > 0 && a.engine.everReady && !a.engine.handshaking
}

// onWarmDeath takes the engine's death in a warm search: it is restarted,
// and the death is not counted toward giving up on it (a search the GUI
// never asked for must not cost the GUI its engine). Its position is not
// searched in the background again; after maxPoisons such deaths the warm
// searches stop for the run. A search of the GUI's sent after the warm
// one is issued again to the new engine, as after any death.
func (a *Adapter) onWarmDeath(status string) {
	w := &a.books.warm
	w.killers = append(w.killers, w.line)
	off := ""
	if len(w.killers) >= maxPoisons {
		off = fmt.Sprintf("; the engine died in %d of them: BookPonder searches no more in this run", maxPoisons)
	}
	a.notify("the engine died (%s) in a search of its own (BookPonder, %s): restarting it; this does not count toward giving up, and that position is not searched in the background again%s", status, w.line, off)
}
