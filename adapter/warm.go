package adapter

import (
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
}

// startWarm lets the engine search position line (a "position ..." line)
// for as long as nothing else needs it, when BookPonder is on and the
// engine is idle. why says what for, in the log.
func (a *Adapter) startWarm(line, why string) {
	if !a.settings.BookPonder || line == "" || a.engine.handshaking || a.replies.owes(replyBestmove) > 0 {
		return
	}
	a.stopWarm()
	a.log.printf("warm engine: searching %s (%s); its bestmove will not be shown", line, why)
	a.toEnginePosition(line)
	a.toEngine("go infinite")
	a.books.warm.running = true
	a.books.warm.owed++
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
	if !a.settings.BookPonderAlways || !a.game.ok || a.game.line != ans.forLine {
		return
	}
	a.startWarm(withMove(a.game.engineLine, ans.move), "after the book move "+ans.move+", in the opponent's time")
}

// withMove is a position line with one more move.
func withMove(line, move string) string {
	if slices.Contains(strings.Fields(line), "moves") {
		return line + " " + move
	}
	return line + " moves " + move
}

// resetWarm forgets the warm searches of an engine that is gone: a new
// engine owes none.
func (a *Adapter) resetWarm() { a.books.warm = warmSearch{} }
