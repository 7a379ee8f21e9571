package adapter

import (
	"slices"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// The core's commands, for the fronts. Each is handled in the GUI's
// order, as the GUI gave the command it comes from: at once, or after the
// commands that wait (for the engine's handshake, for a search that ends
// by itself), so the engine gets its options before the GUI's commands,
// and the GUI its answers in the order it asked.

// Describe asks what the GUI is to be told of the engine and of the
// options it may set: Described answers, once the engine has said it.
func (a *Adapter) Describe() { a.inOrder(command{kind: cmdDescribe}) }

// NewGame starts a new game: the next game given does not continue the
// last one.
func (a *Adapter) NewGame() { a.inOrder(command{kind: cmdNewGame}) }

// SetGame gives the game whole: at the cost of its new moves when it
// extends the game given, or replaces its last move (a ponder miss); the
// same game again changes nothing.
func (a *Adapter) SetGame(g Game) { a.inOrder(command{kind: cmdSetGame, game: g}) }

// Play goes on with the game given by moves, at their cost. line is the
// game now as the GUI writes it (Game.Line), or "".
func (a *Adapter) Play(line string, moves ...board.Move) {
	a.inOrder(command{kind: cmdPlay, moves: moves, text: line})
}

// ReplaceLast replaces the last move of the game given by moves (a ponder
// miss: the GUI's move instead of the one pondered on; none: the last move
// taken back), at their cost. line is the game now as the GUI writes it
// (Game.Line), or "".
func (a *Adapter) ReplaceLast(line string, moves ...board.Move) {
	a.inOrder(command{kind: cmdReplaceLast, moves: moves, text: line})
}

// RefuseGame takes a game the front could not read (text, as the GUI
// wrote it; why: what is wrong): none reaches the engine, and a search
// gets no move, with why.
func (a *Adapter) RefuseGame(text, why string) {
	a.inOrder(command{kind: cmdRefuse, text: text, why: why})
}

// Go searches the game given with limits: the book answers when it may,
// else the engine searches. Its BestMove comes in its turn, one per Go.
// A ponder search (limits.Ponder) searches the game's last move on the
// opponent's time.
func (a *Adapter) Go(limits uci.Go) { a.inOrder(command{kind: cmdGo, limits: limits}) }

// PonderOn searches the game as if m were played next, on the opponent's
// time (limits.Ponder set): m is not the game's move until PonderHit, and
// the game given (Game) does not show it; a game given next with another
// move replaces it at the cost of a move.
func (a *Adapter) PonderOn(m board.Move, limits uci.Go) {
	a.inOrder(command{kind: cmdPonderOn, moves: []board.Move{m}, limits: limits})
}

// Stop ends the running search; its BestMove still comes.
func (a *Adapter) Stop() { a.inOrder(command{kind: cmdStop}) }

// PonderHit turns the ponder search into the real one: the move pondered
// on is played.
func (a *Adapter) PonderHit() { a.inOrder(command{kind: cmdPonderHit}) }

// IsReady asks for a ReadyOK once everything before it is answered.
func (a *Adapter) IsReady() { a.inOrder(command{kind: cmdIsReady}) }

// SetOption sets an option: ours when its name starts with "Polyglot ",
// else the engine's (hasValue false: a button, or a value-less setting).
func (a *Adapter) SetOption(name, value string, hasValue bool) {
	a.inOrder(command{kind: cmdSetOption, text: name, why: value, hasValue: hasValue})
}

// GameResult ends the game with the result the GUI gave (why: as said to
// the log), for learning.
func (a *Adapter) GameResult(o learn.Outcome, why string) {
	a.inOrder(command{kind: cmdResult, outcome: o, why: why})
}

// Forward sends the engine a line of the GUI's as it is (debug, register):
// nothing is owed for it.
func (a *Adapter) Forward(line string) { a.inOrder(command{kind: cmdForward, text: line}) }

// UserCommand sends the engine a command of the user's that is not UCI
// (d, eval, bench, go perft, a typo): the engine gets the game first (d
// and eval show it), unless it is searching, and its answer reaches the
// front as Text, before the answers to later commands.
func (a *Adapter) UserCommand(line string) { a.inOrder(command{kind: cmdUser, text: line}) }

// Quit ends the run in its turn: everything asked before it is answered
// as the engine alone would answer it, and the engine's output reaches
// the GUI until the engine has left, within a grace.
func (a *Adapter) Quit() { a.onQuitInOrder() }

// command is one of the core's commands, held while it waits its turn.
type command struct {
	kind     commandKind
	game     Game         // cmdSetGame
	moves    []board.Move // cmdPlay, cmdReplaceLast, cmdPonderOn
	limits   uci.Go       // cmdGo, cmdPonderOn
	text     string       // a line, or an option's name
	why      string       // cmdRefuse, cmdResult; cmdSetOption: the value
	hasValue bool         // cmdSetOption
	outcome  learn.Outcome
}

type commandKind int

const (
	cmdDescribe commandKind = iota
	cmdNewGame
	cmdSetGame
	cmdPlay
	cmdReplaceLast
	cmdRefuse
	cmdGo
	cmdPonderOn
	cmdStop
	cmdPonderHit
	cmdIsReady
	cmdSetOption
	cmdResult
	cmdForward
	cmdUser
	cmdQuit
)

// owesAnswer reports whether the command asks for an answer the engine
// must give (a quit during the handshake waits for those).
func (c *command) owesAnswer() bool {
	switch c.kind {
	case cmdDescribe, cmdIsReady, cmdGo, cmdPonderOn, cmdUser:
		return true
	}
	return false
}

// inOrder handles c now, or after the commands that wait.
func (a *Adapter) inOrder(c command) {
	if a.Waiting() {
		a.gui.queued = append(a.gui.queued, inQueue(c))
		return
	}
	a.exec(c)
}

// releaseQueued handles the commands that waited, in order, until one has
// to wait again.
func (a *Adapter) releaseQueued() {
	for len(a.gui.queued) > 0 && !a.engine.handshaking && !a.gui.heldBySearch && !a.end.draining() {
		c := a.gui.queued[0]
		a.gui.queued = a.gui.queued[1:]
		a.exec(c)
	}
}

// exec handles one command, in its turn.
func (a *Adapter) exec(c command) {
	switch c.kind {
	case cmdDescribe:
		a.front.Described(a.Description())
	case cmdNewGame:
		a.newGame()
	case cmdSetGame:
		a.setGame(c.game)
	case cmdPlay:
		a.play(c.moves, c.text)
	case cmdReplaceLast:
		a.replaceLast(c.moves, c.text)
	case cmdRefuse:
		a.game.lost = &givenGame{} // nothing to go on from
		a.refusePosition(c.why, c.text)
	case cmdGo:
		a.onGo(c.limits)
	case cmdPonderOn:
		a.ponderOn(c.moves[0], c.limits)
	case cmdStop:
		a.onStop()
	case cmdPonderHit:
		a.onPonderHit()
	case cmdIsReady:
		a.toEngine("isready")
		a.replies.expect(replyReadyOK)
		a.answerDue()
	case cmdSetOption:
		a.onSetOption(uci.SetOption{Name: c.text, Value: c.why, HasValue: c.hasValue})
	case cmdResult:
		a.settlePonder()
		o, why := c.outcome, c.why
		a.observer.laterNow(func(obs GameObserver) { obs.GameResult(o, why) })
	case cmdForward:
		a.toEngine(c.text)
	case cmdUser:
		a.userCommand(c.text)
	case cmdQuit:
		a.beginEnd()
	}
}

// newGame starts a new game (ucinewgame).
func (a *Adapter) newGame() {
	a.toEngine("ucinewgame")
	a.engine.position = "" // an engine may forget its position
	a.checkBooksOnDisk(true)
	// The next game given starts a game even if it extends the last one.
	a.game.forget()
	a.game.err = ""
	a.observer.laterNow(GameObserver.NewGame)
}

// ponderOn plays m on the game for a ponder search (PonderOn) and starts
// it.
func (a *Adapter) ponderOn(m board.Move, limits uci.Go) {
	a.settlePonder()
	a.play([]board.Move{m}, "")
	a.game.pondering = a.game.ok
	a.onGo(limits)
}

// settlePonder takes back the move a ponder search assumed when no
// ponderhit played it: the game given goes on from the game as played.
func (a *Adapter) settlePonder() {
	if a.game.pondering {
		a.replaceLast(nil, "")
	}
}

// userCommand forwards a command of the user's that is not UCI (d, eval,
// bench, flip, a typo...): the engine gets the game's position first
// (d and eval show it), unless it is searching, and the reply order holds
// for its answer, which goes to the GUI as the engine prints it: our
// isready after it tells when the answer is complete, and our answers for
// later commands wait for that.
func (a *Adapter) userCommand(line string) {
	if pos := a.game.engineLine(); a.search.state != searchEngine && pos != "" && pos != a.engine.position {
		a.toEnginePosition(pos)
	}
	a.toEngine(line)
	a.toEngine("isready")
	a.replies.expect(replyOwnReadyOK)
}

// The core's state, for the fronts.

// Waiting reports whether commands given now wait: for the engine's
// handshake, or behind commands that wait.
func (a *Adapter) Waiting() bool { return a.engine.handshaking || len(a.gui.queued) > 0 }

// Owes reports whether the GUI is owed an answer to an earlier command,
// or one of ours waits for them.
func (a *Adapter) Owes() bool { return a.replies.owing() }

// InTurn runs f once every answer owed now has gone to the front: at once
// when none is owed.
func (a *Adapter) InTurn(f func()) { a.replies.emit(nil, f) }

// Answered tells that the front answered the GUI at once (a CECP pong):
// the GUI's next command may follow at once.
func (a *Adapter) Answered() { a.answeredGUI() }

// Settings are the settings in force: the configuration, with our options
// as the GUI set them. Read only.
func (a *Adapter) Settings() *config.Config { return a.settings }

// Logf writes a decision to the log.
func (a *Adapter) Logf(format string, args ...any) { a.log.printf(format, args...) }

// Notify reports a problem everywhere: stderr, the log and the GUI.
func (a *Adapter) Notify(format string, args ...any) { a.notify(format, args...) }

// QuitWhenReady: the GUI quit after commands the front holds until the
// engine is ready (the end of its handshake). When the engine is not
// ready within QuitWait, the run ends without them.
func (a *Adapter) QuitWhenReady() { a.startTimer(&a.end.wait, evQuitWait, a.opts.QuitWait) }

// Ending reports whether the GUI's quit has been taken: the front plays
// no more.
func (a *Adapter) Ending() bool { return a.end.quitSeen() }

// Game is the game given, as played (without a move only pondered on).
func (a *Adapter) Game() GameView { return GameView{g: &a.game} }

// GameView is the game given, read only, valid until the next command.
type GameView struct{ g *game }

// FEN is where the game starts ("": the standard start position).
func (v GameView) FEN() string {
	if gv := v.g.given(); gv.base != startBase {
		return gv.base
	}
	return ""
}

// Moves are the moves played, as given.
func (v GameView) Moves() []board.Move {
	moves := v.g.given().moves
	if v.g.pondering {
		moves = moves[:len(moves)-1]
	}
	return moves
}

// Position is the position reached.
func (v GameView) Position() *board.Position {
	if v.g.pondering {
		return &v.g.beforeLast
	}
	return &v.g.cur.Pos
}

// Searched is the position the latest search is on: the game's, or with
// the move a ponder search assumes.
func (v GameView) Searched() *board.Position { return &v.g.cur.Pos }

// Repetitions is how often the position reached occurred in the game.
func (v GameView) Repetitions() int {
	if v.g.pondering {
		l := board.Line{Pos: v.g.beforeLast, Keys: v.g.cur.Keys[:len(v.g.cur.Keys)-1]}
		return l.Repetitions()
	}
	return v.g.cur.Repetitions()
}

// inQueue is c with its moves copied: a front may reuse its slices once
// the call returns.
func inQueue(c command) command {
	c.moves = slices.Clone(c.moves)
	c.game.Moves = slices.Clone(c.game.Moves)
	return c
}
