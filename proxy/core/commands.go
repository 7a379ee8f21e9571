package core

import (
	"slices"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/reply"
	"github.com/polyproxy/polyproxy/uci"
)

// The core's commands, for the fronts. Each is handled in the GUI's
// order, as the GUI gave the command it comes from: at once, or after the
// commands that wait (for the engine's handshake, for a search that ends
// by itself), so the engine gets its options before the GUI's commands,
// and the GUI its answers in the order it asked. (A move and a search, a
// game's usual commands, go straight to their handler when nothing waits:
// a command held costs what copying its limits costs.)

// Describe asks what the GUI is to be told of the engine (its name, id
// lines and options): Described answers, once the engine has said it.
func (c *Core) Describe() { c.inOrder(&command{kind: cmdDescribe}) }

// NewGame starts a new game: the next game given does not continue the
// last one.
func (c *Core) NewGame() { c.inOrder(&command{kind: cmdNewGame}) }

// SetGame gives the game whole: at the cost of its new moves when it
// extends the game given, or replaces its last move (a ponder miss); the
// same game again changes nothing.
func (c *Core) SetGame(g Game) { c.inOrder(&command{kind: cmdSetGame, game: g}) }

// Play goes on with the game given by moves, at their cost. line is the
// game now as the GUI writes it (Game.Line), or "".
func (c *Core) Play(line string, moves ...board.Move) {
	if !c.Waiting() { // the usual case, a move of a game: no command to hold
		c.follow(c.game.Play(moves, line))
		return
	}
	c.inOrder(&command{kind: cmdPlay, moves: moves, text: line})
}

// ReplaceLast replaces the last move of the game given by moves (a ponder
// miss: the GUI's move instead of the one pondered on; none: the last move
// taken back), at their cost. line is the game now as the GUI writes it
// (Game.Line), or "".
func (c *Core) ReplaceLast(line string, moves ...board.Move) {
	if !c.Waiting() {
		c.follow(c.game.ReplaceLast(moves, line))
		return
	}
	c.inOrder(&command{kind: cmdReplaceLast, moves: moves, text: line})
}

// RefuseGame takes a game the front could not read (text, as the GUI
// wrote it; why: what is wrong): none reaches the engine, and a search
// gets no move, with why.
func (c *Core) RefuseGame(text, why string) {
	c.inOrder(&command{kind: cmdRefuse, text: text, why: why})
}

// Go searches the game given with limits: the book answers when it may,
// else the engine searches. Its BestMove comes in its turn, one per Go.
// A ponder search (limits.Ponder) searches the game's last move on the
// opponent's time. line is the go line as the GUI wrote it, for a GUI
// that writes the engine's own lines (UCI): the engine gets it as it is
// (words it alone knows included); "": the core writes it from limits.
func (c *Core) Go(limits uci.Go, line string) {
	if !c.Waiting() {
		c.onGo(limits, line)
		return
	}
	c.inOrder(&command{kind: cmdGo, limits: limits, text: line})
}

// PonderOn searches the game as if m were played next, on the opponent's
// time (limits.Ponder set): m is not the game's move until PonderHit, and
// the game given (Game) does not show it; a game given next with another
// move replaces it at the cost of a move.
func (c *Core) PonderOn(m board.Move, limits uci.Go) {
	c.inOrder(&command{kind: cmdPonderOn, moves: []board.Move{m}, limits: limits})
}

// Stop ends the running search; its BestMove still comes.
func (c *Core) Stop() { c.inOrder(&command{kind: cmdStop}) }

// PonderHit turns the ponder search into the real one: the move pondered
// on is played.
func (c *Core) PonderHit() { c.inOrder(&command{kind: cmdPonderHit}) }

// IsReady asks for a ReadyOK once everything before it is answered.
func (c *Core) IsReady() { c.inOrder(&command{kind: cmdIsReady}) }

// SetOption sets an option: ours when its name starts with "Polyglot ",
// else the engine's (hasValue false: a button, or a value-less setting).
func (c *Core) SetOption(name, value string, hasValue bool) {
	c.inOrder(&command{kind: cmdSetOption, text: name, value: value, hasValue: hasValue})
}

// GameResult ends the game with the result the GUI gave (why: as said to
// the log), for learning.
func (c *Core) GameResult(o learn.Outcome, why string) {
	c.inOrder(&command{kind: cmdResult, outcome: o, why: why})
}

// Forward sends the engine a line of the GUI's as it is (debug, register):
// nothing is owed for it.
func (c *Core) Forward(line string) { c.inOrder(&command{kind: cmdForward, text: line}) }

// UserCommand sends the engine a command of the user's that is not UCI
// (d, eval, bench, go perft, a typo): the engine gets the game first (d
// and eval show it), unless it is searching, and its answer reaches the
// front as Text, before the answers to later commands.
func (c *Core) UserCommand(line string) { c.inOrder(&command{kind: cmdUser, text: line}) }

// Quit ends the run in its turn: everything asked before it is answered
// as the engine alone would answer it, and the engine's output reaches
// the GUI until the engine has left, within a grace.
func (c *Core) Quit() { c.onQuitInOrder() }

// command is one of the core's commands, held while it waits its turn.
type command struct {
	kind     commandKind
	game     Game         // cmdSetGame
	moves    []board.Move // cmdPlay, cmdReplaceLast, cmdPonderOn
	limits   uci.Go       // cmdGo, cmdPonderOn
	text     string       // a line, or an option's name
	why      string       // cmdRefuse, cmdResult
	value    string       // cmdSetOption
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
func (c *Core) inOrder(cmd *command) {
	if c.Waiting() {
		c.gui.queued = append(c.gui.queued, inQueue(cmd))
		return
	}
	c.exec(cmd)
}

// releaseQueued handles the commands that waited, in order, until one has
// to wait again.
func (c *Core) releaseQueued() {
	for len(c.gui.queued) > 0 && !c.engine.Handshaking() && !c.gui.heldBySearch && !c.end.draining() {
		cmd := c.gui.queued[0]
		c.gui.queued = c.gui.queued[1:]
		c.exec(&cmd)
	}
}

// exec handles one command, in its turn.
func (c *Core) exec(cmd *command) {
	switch cmd.kind {
	case cmdDescribe:
		c.front.Described(c.Description())
	case cmdNewGame:
		c.newGame()
	case cmdSetGame:
		c.follow(c.game.Set(cmd.game))
	case cmdPlay:
		c.follow(c.game.Play(cmd.moves, cmd.text))
	case cmdReplaceLast:
		c.follow(c.game.ReplaceLast(cmd.moves, cmd.text))
	case cmdRefuse:
		c.follow(c.game.Refuse(cmd.why, cmd.text))
	case cmdGo:
		c.onGo(cmd.limits, cmd.text)
	case cmdPonderOn:
		c.ponderOn(cmd.moves[0], cmd.limits)
	case cmdStop:
		c.onStop()
	case cmdPonderHit:
		c.onPonderHit()
	case cmdIsReady:
		c.toEngine("isready")
		c.replies.Expect(reply.ReadyOK)
		c.answerDue()
	case cmdSetOption:
		c.onSetOption(uci.SetOption{Name: cmd.text, Value: cmd.value, HasValue: cmd.hasValue})
	case cmdResult:
		c.settlePonder()
		o, why := cmd.outcome, cmd.why
		c.observer.Now(func(obs GameObserver) { obs.GameResult(o, why) })
	case cmdForward:
		c.toEngine(cmd.text)
	case cmdUser:
		c.userCommand(cmd.text)
	case cmdQuit:
		c.beginEnd()
	}
}

// newGame starts a new game (ucinewgame).
func (c *Core) newGame() {
	c.sent(c.engine.NewGame())
	_, notices := c.books.CheckOnDisk(true)
	c.tell(notices)
	c.game.NewGame()
	c.observer.Now(GameObserver.NewGame)
}

// ponderOn plays m on the game for a ponder search (PonderOn) and starts
// it.
func (c *Core) ponderOn(m board.Move, limits uci.Go) {
	c.settlePonder()
	c.follow(c.game.PonderOn(m))
	c.onGo(limits, "")
}

// userCommand forwards a command of the user's that is not UCI (d, eval,
// bench, flip, a typo...): the engine gets the game's position first
// (d and eval show it), unless it is searching, and the reply order holds
// for its answer, which goes to the GUI as the engine prints it: our
// isready after it tells when the answer is complete, and our answers for
// later commands wait for that.
func (c *Core) userCommand(line string) {
	if pos := c.game.EngineLine(); c.search.state != searchEngine && pos != "" && pos != c.engine.Position() {
		c.toEnginePosition(pos)
	}
	c.toEngine(line)
	c.toEngine("isready")
	c.replies.Expect(reply.OwnReadyOK)
}

// The core's state, for the fronts.

// Waiting reports whether commands given now wait: for the engine's
// handshake, or behind commands that wait.
func (c *Core) Waiting() bool { return c.engine.Handshaking() || len(c.gui.queued) > 0 }

// Owes reports whether the GUI is owed an answer to an earlier command,
// or one of ours waits for them.
func (c *Core) Owes() bool { return c.replies.Owing() }

// InTurn runs f once every answer owed now has gone to the front: at once
// when none is owed.
func (c *Core) InTurn(f func()) { c.replies.Emit(nil, f) }

// Answered tells that the front answered the GUI at once (a CECP pong):
// the GUI's next command may follow at once.
func (c *Core) Answered() { c.answeredGUI() }

// Settings are the settings in force: the configuration, with our options
// as the GUI set them. Read only.
func (c *Core) Settings() *config.Config { return c.settings }

// Logf writes a decision to the log.
func (c *Core) Logf(format string, args ...any) { c.log.Printf(format, args...) }

// Notify reports a problem everywhere: stderr, the log and the GUI.
func (c *Core) Notify(format string, args ...any) { c.notify(format, args...) }

// QuitWhenReady: the GUI quit after commands the front holds until the
// engine is ready (the end of its handshake). When the engine is not
// ready within QuitWait, the run ends without them.
func (c *Core) QuitWhenReady() { c.loop.Start(&c.end.wait, c.opts.QuitWait, c.onQuitWaitOver) }

// Ending reports whether the GUI's quit has been taken: the front plays
// no more.
func (c *Core) Ending() bool { return c.end.quitSeen() }

// inQueue is a copy of cmd to keep, its moves copied: a front may reuse
// its slices once the call returns.
func inQueue(cmd *command) command {
	c := *cmd
	c.moves = slices.Clone(c.moves)
	c.game.Moves = slices.Clone(c.game.Moves)
	return c
}
