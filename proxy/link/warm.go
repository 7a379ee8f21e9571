package link

import (
	"fmt"
	"slices"
	"strings"
)

// A warm search is the engine searching a position while the book
// answers (BookPonder): its hash is then warm when the book ends, instead
// of cold. Nobody asked for this search, so it owes the GUI nothing: its
// info lines and its bestmove never reach the GUI, and it never delays a
// reply. It runs only while the engine owes the GUI no bestmove, and ends
// (stop) as soon as anything else is sent to the engine (Send), so the
// engine's own order is kept: its bestmoves come in the order of the gos
// it was sent, the warm searches' first.
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
	// and after MaxPoisons of them there are no warm searches for the rest
	// of the run.
	killers []string
}

// StartWarm lets the engine search position line (a "position ..." line)
// for as long as nothing else needs it; why says what for, in the log;
// always tells that it is BookPonderAlways's search. The caller has
// checked that the settings allow it and that the engine owes the GUI no
// bestmove.
func (l *Link) StartWarm(line, why string, always bool) error {
	if line == "" || l.handshaking {
		return nil
	}
	switch w := &l.warm; {
	case len(w.killers) >= MaxPoisons:
		l.log.Printf("warm engine: off for this run (the engine died in %d searches of its own)", MaxPoisons)
		return nil
	case slices.Contains(w.killers, line):
		l.log.Printf("warm engine: not searching %s, where the engine died in a search of its own", line)
		return nil
	}
	if err := l.StopWarm(); err != nil {
		return err
	}
	l.log.Printf("warm engine: searching %s (%s); its bestmove will not be shown", line, why)
	if err := l.SendPosition(line); err != nil {
		return err
	}
	if err := l.Send("go infinite"); err != nil {
		return err
	}
	l.warm = warmSearch{running: true, owed: l.warm.owed + 1, line: line, always: always, killers: l.warm.killers}
	return nil
}

// StopWarm ends the warm search, if one runs; its bestmove is still to
// come and will be swallowed.
func (l *Link) StopWarm() error {
	if !l.warm.running {
		return nil
	}
	l.warm.running = false // first: Send stops a running warm search
	return l.Send("stop")
}

// Warm reports whether a warm search runs, and whether it is
// BookPonderAlways's.
func (l *Link) Warm() (running, always bool) { return l.warm.running, l.warm.always }

// InWarm reports that the engine's output is a warm search's until its
// bestmove: its info lines do not reach the GUI.
func (l *Link) InWarm() bool { return l.warm.owed > 0 }

// SwallowBestmove reports whether a bestmove from the engine is a warm
// search's, which is then dropped.
func (l *Link) SwallowBestmove() bool {
	w := &l.warm
	if w.owed == 0 {
		return false
	}
	w.owed--
	if w.owed == 0 {
		w.running = false // it ended by itself: nothing to stop
	}
	l.log.Printf("warm engine: its bestmove swallowed (the GUI did not ask for that search)")
	return true
}

// WarmDeath says, for the user, what a death in a warm search (Judge:
// InWarmSearch, with status) means: the engine is restarted, and the
// death is not counted toward giving up on it (a search the GUI never
// asked for must not cost the GUI its engine). Its position is not
// searched in the background again; after MaxPoisons such deaths the warm
// searches stop for the run. A search of the GUI's sent after the warm
// one is issued again to the new engine, as after any death.
func (l *Link) WarmDeath(status string) string {
	w := &l.warm
	off := ""
	if len(w.killers) >= MaxPoisons {
		off = fmt.Sprintf("; the engine died in %d of them: BookPonder searches no more in this run", MaxPoisons)
	}
	return fmt.Sprintf("the engine died (%s) in a search of its own (BookPonder, %s): restarting it; this does not count toward giving up, and that position is not searched in the background again%s", status, w.line, off)
}

// WithMove is a position line with one more move.
func WithMove(line, move string) string {
	if slices.Contains(strings.Fields(line), "moves") {
		return line + " " + move
	}
	return line + " moves " + move
}
