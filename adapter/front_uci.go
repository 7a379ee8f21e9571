package adapter

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/polyproxy/polyproxy/uci"
)

// guiSide is what we know of the GUI's side of the conversation.
type guiSide struct {
	out    guiOutput // flushed after each batch the loop handles
	talked bool      // we answered its "uci" (or it speaks CECP): info strings may flow
	// frontChosen: the GUI's first command has chosen its protocol
	// (front.go).
	frontChosen bool
	// queued are its commands waiting for the engine's handshake, or
	// (heldBySearch) a go waiting for the running search to end and the
	// commands after it.
	queued       []uci.Command
	heldBySearch bool
	notices      []string // to tell it as info strings once it talks
}

// readGUI hands the GUI's lines to the loop, a batch at a time (the
// goroutine loop's reader).
func (a *Adapter) readGUI(r io.Reader) {
	lr := uci.NewLineReader(r, 64<<10)
	for {
		var lines []string
		for {
			l, err := lr.ReadLine()
			if err != nil {
				a.post(event{kind: evGUI, lines: lines, err: err})
				return
			}
			lines = append(lines, string(l))
			if !lr.HasBufferedLine() {
				break
			}
		}
		if !a.post(event{kind: evGUI, lines: lines}) {
			return
		}
		// Let the loop answer on this thread before our next read blocks
		// it in a system call: saves a thread hand-off per command.
		runtime.Gosched()
	}
}

// onGUILine handles one line from the GUI.
func (a *Adapter) onGUILine(line string) {
	if a.log.on {
		a.log.traffic("gui>", line)
	}
	if a.xb != nil || (!a.gui.frontChosen && a.chooseFront(line)) {
		a.xb.onLine(line)
		return
	}
	if strings.HasPrefix(line, "position") && a.extendFollowedGame(line) {
		return
	}
	c, err := uci.ParseCommand(line)
	if err != nil {
		a.log.printf("%v", err)
		if c.Kind == uci.CmdSetOption {
			a.infoString(err.Error())
			return
		}
		// An unreadable position goes on in order, without its Position.
	}
	a.onGUICommandInOrder(c)
}

// extendFollowedGame handles the usual position lines at the cost of
// their new moves: the game so far plus a move or two, or with its last
// move replaced (a ponder miss). It is read at once only when no command
// waits before it; false: line is not such a line, and nothing was done.
func (a *Adapter) extendFollowedGame(line string) bool {
	if a.engine.handshaking || len(a.gui.queued) > 0 || !a.game.ok {
		return false
	}
	moves, ok := uci.MovesAfter(a.game.line, line, a.game.hasMovesWord)
	if ok {
		a.extendGame(line, a.game.engineLineAfter(line), moves)
		return true
	}
	return a.replaceLastMoveText(line)
}

// onGUICommandInOrder handles c now, or after the commands that wait
// (for the engine's handshake, or for a search to end): the engine must
// get its options before the GUI's commands, and the GUI its answers in
// the order it asked.
func (a *Adapter) onGUICommandInOrder(c uci.Command) {
	if c.Kind == uci.CmdQuit {
		a.onQuitInOrder(c)
		return
	}
	if !a.engine.handshaking && len(a.gui.queued) == 0 {
		a.onGUICommand(c)
		return
	}
	a.gui.queued = append(a.gui.queued, c)
}

// releaseQueued handles the commands that waited, in order, until one has
// to wait again.
func (a *Adapter) releaseQueued() {
	for len(a.gui.queued) > 0 && !a.engine.handshaking && !a.gui.heldBySearch && !a.end.draining() {
		c := a.gui.queued[0]
		a.gui.queued = a.gui.queued[1:]
		a.onGUICommand(c)
	}
}

// onGUICommand handles one command of the GUI, in its turn.
func (a *Adapter) onGUICommand(c uci.Command) {
	switch c.Kind {
	case uci.CmdEmpty:
	case uci.CmdUCI:
		a.answerUCI()
	case uci.CmdIsReady:
		a.toEngine(c.Line)
		a.replies.expect(replyReadyOK)
		a.answerDue()
	case uci.CmdSetOption:
		a.onSetOption(c)
	case uci.CmdUCINewGame:
		a.toEngine(c.Line)
		a.engine.position = "" // an engine may forget its position
		a.checkBooksOnDisk(true)
		// The next position starts a game even if it extends the last one.
		a.game.forget()
		a.game.err = ""
		a.observer.laterNow(GameObserver.NewGame)
	case uci.CmdPosition:
		if c.Position == nil {
			_, err := uci.ParseCommand(c.Line)
			a.refusePosition(c.Line, err.Error())
			return
		}
		a.onPosition(c)
	case uci.CmdGo:
		if c.Go.Perft {
			// Not a search: the engine prints a count and no bestmove.
			a.log.printf("go perft: forwarded, no bestmove owed")
			a.userCommand(c.Line)
			return
		}
		a.onGo(c)
	case uci.CmdStop:
		a.onStop()
	case uci.CmdPonderHit:
		a.onPonderHit(c)
	case uci.CmdQuit:
		a.beginEnd()
	case uci.CmdUnknown:
		a.userCommand(c.Line)
	default: // debug, register
		a.toEngine(c.Line)
	}
}

// userCommand forwards a command of the user's that is not UCI (d, eval,
// bench, flip, a typo...): the engine gets the game's position first
// (d and eval show it), unless it is searching, and the reply order holds
// for its answer, which goes to the GUI as the engine prints it: our
// isready after it tells when the answer is complete, and our lines for
// later commands wait for that.
func (a *Adapter) userCommand(line string) {
	if a.search.state != searchEngine && a.game.engineLine != "" && a.game.engineLine != a.engine.position {
		a.toEnginePosition(a.game.engineLine)
	}
	a.toEngine(line)
	a.toEngine("isready")
	a.replies.expect(replyOwnReadyOK)
}

// toGUI sends one line to the GUI (flushed at the end of the batch).
func (a *Adapter) toGUI(line string) {
	if a.log.on {
		a.log.traffic(">gui", line)
	}
	a.gui.out.WriteLine(line)
	if strings.HasPrefix(line, "bestmove") {
		a.answeredGUI() // a book's, or one the engine could not give
	}
}

// infoString tells the GUI something as "info string" (a CECP GUI: as a
// comment), or keeps it until the GUI has said uci.
func (a *Adapter) infoString(msg string) {
	if !a.gui.talked {
		a.gui.notices = append(a.gui.notices, msg)
		return
	}
	if a.xb != nil {
		// Straight to the GUI as a comment: a notice is no search's
		// line, and is shown whatever search the front is waiting for.
		a.xb.send("# " + msg)
		return
	}
	a.toGUI("info string " + msg)
}

// notify reports a problem everywhere: stderr, log and the GUI.
func (a *Adapter) notify(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(a.opts.Stderr, "polyproxy: "+msg)
	a.log.printf("%s", msg)
	a.infoString(msg)
}

// fatalf reports why polyproxy ends: stderr, log and, when it is
// listening, the GUI.
func (a *Adapter) fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(a.opts.Stderr, "polyproxy: "+msg)
	a.log.printf("fatal: %s", msg)
	if a.gui.talked {
		a.infoString(msg)
	}
}

// answerUCI replies to the GUI's "uci": the engine's id (marked as
// wrapped) and options, ours, uciok; then anything we had to tell it.
func (a *Adapter) answerUCI() {
	name := a.settings.EngineName
	if name == "" {
		name = a.engine.name + " (polyproxy)"
		if a.engine.name == "" {
			name = "polyproxy"
		}
	}
	a.toGUI("id name " + name)
	for _, l := range a.engine.header {
		if id, err := uci.ParseID(l); err == nil && id.Key == "name" {
			continue
		}
		a.toGUI(withConfiguredDefault(l, a.engine.configured))
	}
	for _, l := range ourOptionLines(a.settings) {
		a.toGUI(l)
	}
	a.toGUI("uciok")
	a.gui.talked = true
	for _, n := range a.gui.notices {
		a.toGUI("info string " + n)
	}
	a.gui.notices = nil
}
