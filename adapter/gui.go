package adapter

import (
	"slices"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/uci"
)

// ourOptionPrefix marks the options that belong to polyproxy, as PolyGlot
// names them in UCI mode ("Polyglot BookFile").
const ourOptionPrefix = "Polyglot "

func (a *Adapter) onGUILine(line string) {
	if a.logOn {
		a.traffic("gui>", line)
	}
	if !a.engine.handshaking && a.game.ok && strings.HasPrefix(line, "position") {
		// The usual case: the game so far plus a move or two.
		if moves, ok := uci.MovesAfter(a.game.line, line, a.game.hasMovesWord); ok {
			a.extendGame(line, moves)
			return
		}
	}
	c, err := uci.ParseCommand(line)
	if err != nil {
		a.logf("%v", err)
		if c.Kind == uci.CmdSetOption {
			a.infoString(err.Error())
			return
		}
		// An unreadable position goes on in order, without its Position.
	}
	a.onGUICommandInOrder(c)
}

// onGUICommandInOrder handles c now, or after the engine's handshake when
// one is running: the engine must get its options before the GUI's
// commands, and the GUI its answers in the order it asked.
func (a *Adapter) onGUICommandInOrder(c uci.Command) {
	if !a.engine.handshaking {
		a.onGUICommand(c)
		return
	}
	switch c.Kind {
	case uci.CmdUCI:
		a.guiWantsUCI = true
		return
	case uci.CmdQuit:
		if a.quitTimer == nil {
			a.quitTimer = time.After(handshakeQuitWait)
		}
	}
	a.queuedGUI = append(a.queuedGUI, c)
}

// handshakeQuitWait is how long a quit waits for the engine's handshake so
// that the GUI's earlier commands are still answered.
const handshakeQuitWait = 5 * time.Second

func (a *Adapter) onGUICommand(c uci.Command) {
	switch c.Kind {
	case uci.CmdEmpty:
	case uci.CmdUCI:
		a.answerUCI()
	case uci.CmdIsReady:
		a.toEngine(c.Line)
		a.replies.expect(replyReadyOK)
	case uci.CmdSetOption:
		a.onSetOption(c)
	case uci.CmdUCINewGame:
		a.toEngine(c.Line)
		// The next position starts a game even if it extends the last one.
		a.game.ok, a.game.err, a.game.predicted = false, "", nil
		a.observe(GameObserver.NewGame)
	case uci.CmdPosition:
		if c.Position == nil {
			_, err := uci.ParseCommand(c.Line)
			a.refusePosition(c.Line, err)
			return
		}
		a.onPosition(c)
	case uci.CmdGo:
		if c.Go.Perft {
			// Not a search: the engine prints a count and no bestmove.
			a.logf("go perft: forwarded, no bestmove owed")
			a.toEngineAfterPosition(c.Line)
			return
		}
		a.onGo(c)
	case uci.CmdStop:
		a.onStop()
	case uci.CmdPonderHit:
		a.onPonderHit(c)
	case uci.CmdQuit:
		a.quit()
	default: // debug, register, anything unknown
		a.toEngine(c.Line)
	}
}

func (a *Adapter) onSetOption(c uci.Command) {
	o := *c.SetOption
	if len(o.Name) > len(ourOptionPrefix) && strings.EqualFold(o.Name[:len(ourOptionPrefix)], ourOptionPrefix) {
		a.setOurOption(strings.TrimSpace(o.Name[len(ourOptionPrefix):]), o.Value)
		return
	}
	a.toEngine(c.Line)
	a.engine.rememberSetOption(o)
	a.noteChess960(o.Name, o.Value)
}

// noteChess960 follows the engine option UCI_Chess960, however it is set
// (setoption, [Engine], -uci): the book is for standard chess only.
func (a *Adapter) noteChess960(name, value string) {
	if !strings.EqualFold(name, "UCI_Chess960") {
		return
	}
	on, err := config.ParseBool(value)
	if err != nil || on == a.chess960 {
		return
	}
	a.chess960 = on
	if on {
		a.game.ok = false
		a.infoString("UCI_Chess960 is on: book off, pure forwarding")
	} else {
		a.infoString("UCI_Chess960 is off: book on again from the next position")
	}
}

// setOurOption applies "setoption name Polyglot NAME value V" to the
// configuration and to what depends on it.
func (a *Adapter) setOurOption(name, value string) {
	if value == "<empty>" {
		value = "" // how UCI writes an empty string; GUIs echo our default back
	}
	if err := a.settings.ApplyPolyGlot(name, value); err != nil {
		a.notify("setoption Polyglot %s: %v", name, err)
		return
	}
	a.logf("option Polyglot %s set to %q", name, value)
	a.tellLearning()
	switch strings.ToLower(name) {
	case "log", "logfile":
		if a.opts.Log == nil {
			a.applyLogConfig()
		}
	}
	a.openBooks() // reopens only when the book settings changed
}

// tellLearning gives the observer the learning settings as they are now.
func (a *Adapter) tellLearning() {
	if a.obs == nil {
		return
	}
	var books []string
	if a.settings.Book {
		books = slices.Clone(a.settings.BookFiles)
	}
	a.obs.SetLearning(a.settings.BookLearn, books)
}

func (a *Adapter) onStop() {
	switch a.search {
	case searchEngine:
		if !a.stopSent {
			a.stopSent = true
			a.toEngine("stop")
		}
	case searchBookPonder:
		a.releaseBookAnswer(false)
	default:
		a.logf("stop with no search running: swallowed")
	}
}

func (a *Adapter) onPonderHit(c uci.Command) {
	switch a.search {
	case searchEngine:
		a.ponderHit = true
		a.clockFrom = time.Now()
		a.toEngine(c.Line)
	case searchBookPonder:
		a.releaseBookAnswer(true)
	default:
		a.logf("ponderhit with no search running: swallowed")
	}
}

// onGo answers from the book when it may, else lets the engine search.
func (a *Adapter) onGo(c uci.Command) {
	// A go before the last search's bestmove is a GUI error; each go still
	// gets exactly one bestmove, in order.
	switch {
	case a.search == searchBookPonder:
		a.logf("go while a book answer waits for ponderhit (GUI error): that answer is sent as stopped")
		a.releaseBookAnswer(false)
	case a.search == searchEngine && !a.stopSent:
		// Unstopped, an infinite or ponder search would never end, and an
		// engine such as Stockfish takes no new go until it does.
		a.logf("go during the engine's search (GUI error): stopping that search first")
		a.toEngine("stop")
	}
	a.search = searchNone
	if a.game.refused != "" {
		a.logf("book: no (position refused); no search: bestmove 0000")
		a.replies.emit([]string{"info string no move: the position was not sent to the engine", "bestmove 0000"}, nil)
		return
	}
	if ans, ok := a.bookMove(c.Go); ok {
		if c.Go.Ponder {
			a.search = searchBookPonder
			a.bookAnswer = ans
			a.logf("book answer held until ponderhit or stop")
			return
		}
		a.bookAnswer = ans
		a.releaseBookAnswer(true)
		return
	}
	a.toEngineAfterPosition(c.Line)
	a.replies.expect(replyBestmove)
	a.search = searchEngine
	a.engineGo = c.Line
	a.clockFrom = time.Time{}
	if !c.Go.Ponder {
		a.clockFrom = time.Now()
	}
	a.stopSent, a.ponderHit = false, false
	a.lastScoreLine = a.lastScoreLine[:0]
}

// toEngineAfterPosition sends the GUI's position (the engine gets it only
// when it is to search: book answers need none) and then goLine.
func (a *Adapter) toEngineAfterPosition(goLine string) {
	if a.game.line != "" {
		a.toEngine(a.game.line)
	}
	a.toEngine(goLine)
}
