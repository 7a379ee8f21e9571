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
// and the GUI its answers in the order it asked. Both fronts' commands
// wait in one queue, the front's own work on a command of the GUI's too
// (InOrder).
//
// A command is one value (as python-chess's engine commands are
// objects): what it does in its turn (run) and whether it owes the GUI an
// answer the engine must give (owesAnswer: a quit waits for those). Each
// is declared beside the method that gives it: adding a command is adding
// one method and its type, here. A command given when nothing waits runs
// at once, and costs no allocation: a game's moves and searches go
// straight to their handler.

// command is one of the core's commands.
type command interface {
	run(c *Core)
	owesAnswer() bool
}

// owes and owesNothing say what a command owes the GUI: each command
// embeds one.
type (
	owes        struct{}
	owesNothing struct{}
)

func (owes) owesAnswer() bool        { return true }
func (owesNothing) owesAnswer() bool { return false }

// holder is a command that holds a front's slices: held is a copy to keep
// while it waits, since a front may reuse its slices once the call
// returns.
type holder interface{ held() command }

// inOrder runs cmd now, or after the commands that wait.
func inOrder[T command](c *Core, cmd T) {
	if !c.Waiting() {
		cmd.run(c)
		return
	}
	var queued command = cmd
	if h, ok := queued.(holder); ok {
		queued = h.held()
	}
	c.queue = append(c.queue, queued)
}

// blocked reports whether the commands that wait must go on waiting: for
// the engine's handshake, for a search that ends by itself, or because
// the quit has gone to the engine.
func (c *Core) blocked() bool {
	return c.engine.Handshaking() || c.heldBySearch || c.end.draining()
}

// releaseQueued runs the commands that waited, in order, until one has to
// wait again. What a command gives while it runs (a front's work does)
// comes before the commands after it.
func (c *Core) releaseQueued() {
	for len(c.queue) > 0 && !c.blocked() {
		cmd, rest := c.queue[0], c.queue[1:]
		c.queue = nil
		cmd.run(c)
		c.queue = append(c.queue, rest...)
	}
}

// Describe asks what the GUI is to be told of the engine (its name, id
// lines and options): Described answers, once the engine has said it.
func (c *Core) Describe() { inOrder(c, describe{}) }

type describe struct{ owes }

func (describe) run(c *Core) { c.front.Described(c.Description()) }

// NewGame starts a new game: the next game given does not continue the
// last one. The engine gets ucinewgame, and a book changed on disk is
// read again, beside the loop (readBooks).
func (c *Core) NewGame() { inOrder(c, newGame{}) }

type newGame struct{ owesNothing }

func (newGame) run(c *Core) {
	c.sent(c.engine.NewGame())
	c.books.CheckOnDisk(true)
	c.game.NewGame()
	c.observer.Now(GameObserver.NewGame)
}

// SetGame gives the game whole: at the cost of its new moves when it
// extends the game given, or replaces its last move (a ponder miss); the
// same game again changes nothing.
func (c *Core) SetGame(g Game) { inOrder(c, setGame{game: g}) }

type setGame struct {
	owesNothing
	game Game
}

func (s setGame) run(c *Core) { c.follow(c.game.Set(s.game)) }
func (s setGame) held() command {
	s.game.Moves = slices.Clone(s.game.Moves)
	return s
}

// Play goes on with the game given by moves, at their cost. line is the
// game now as the GUI writes it (Game.Line), or "".
func (c *Core) Play(line string, moves ...board.Move) { inOrder(c, play{line: line, moves: moves}) }

type play struct {
	owesNothing
	line  string
	moves []board.Move
}

func (p play) run(c *Core) { c.follow(c.game.Play(p.moves, p.line)) }
func (p play) held() command {
	p.moves = slices.Clone(p.moves)
	return p
}

// ReplaceLast replaces the last move of the game given by moves (a ponder
// miss: the GUI's move instead of the one pondered on; none: the last move
// taken back), at their cost. line is the game now as the GUI writes it
// (Game.Line), or "".
func (c *Core) ReplaceLast(line string, moves ...board.Move) {
	inOrder(c, replaceLast{line: line, moves: moves})
}

type replaceLast struct {
	owesNothing
	line  string
	moves []board.Move
}

func (r replaceLast) run(c *Core) { c.follow(c.game.ReplaceLast(r.moves, r.line)) }
func (r replaceLast) held() command {
	r.moves = slices.Clone(r.moves)
	return r
}

// RefuseGame takes a game the front could not read (text, as the GUI
// wrote it; why: what is wrong): none reaches the engine, and a search
// gets no move, with why.
func (c *Core) RefuseGame(text, why string) { inOrder(c, refuseGame{text: text, why: why}) }

type refuseGame struct {
	owesNothing
	text, why string
}

func (r refuseGame) run(c *Core) { c.follow(c.game.Refuse(r.why, r.text)) }

// Go searches the game given with limits: the book answers when it may,
// else the engine searches. Its BestMove comes in its turn, one per Go.
// A ponder search (limits.Ponder) searches the game's last move on the
// opponent's time. line is the go line as the GUI wrote it, for a GUI
// that writes the engine's own lines (UCI): the engine gets it as it is
// (words it alone knows included); "": the core writes it from limits.
func (c *Core) Go(limits uci.Go, line string) { inOrder(c, goSearch{limits: limits, line: line}) }

type goSearch struct {
	owes
	limits uci.Go
	line   string
}

func (g goSearch) run(c *Core) { c.onGo(g.limits, g.line) }

// PonderOn searches the game as if m were played next, on the opponent's
// time (limits.Ponder set): m is not the game's move until PonderHit, and
// the game given (Game) does not show it; a game given next with another
// move replaces it at the cost of a move.
func (c *Core) PonderOn(m board.Move, limits uci.Go) { inOrder(c, ponderOn{move: m, limits: limits}) }

type ponderOn struct {
	owes
	move   board.Move
	limits uci.Go
}

func (p ponderOn) run(c *Core) {
	c.settlePonder()
	c.follow(c.game.PonderOn(p.move))
	c.onGo(p.limits, "")
}

// Stop ends the running search; its BestMove still comes.
func (c *Core) Stop() { inOrder(c, stop{}) }

type stop struct{ owesNothing }

func (stop) run(c *Core) { c.onStop() }

// PonderHit turns the ponder search into the real one: the move pondered
// on is played.
func (c *Core) PonderHit() { inOrder(c, ponderHit{}) }

type ponderHit struct{ owesNothing }

func (ponderHit) run(c *Core) { c.onPonderHit() }

// IsReady asks for a ReadyOK once everything before it is answered.
func (c *Core) IsReady() { inOrder(c, isReady{}) }

type isReady struct{ owes }

func (isReady) run(c *Core) {
	c.toEngine("isready")
	c.replies.Expect(reply.ReadyOK)
	c.answerDue()
}

// SetOption sets an option: ours when its name starts with "Polyglot ",
// else the engine's (hasValue false: a button, or a value-less setting).
func (c *Core) SetOption(name, value string, hasValue bool) {
	inOrder(c, setOption{option: uci.SetOption{Name: name, Value: value, HasValue: hasValue}})
}

type setOption struct {
	owesNothing
	option uci.SetOption
}

func (s setOption) run(c *Core) { c.onSetOption(s.option) }

// GameResult ends the game with the result the GUI gave (why: as said to
// the log), for learning.
func (c *Core) GameResult(o learn.Outcome, why string) { inOrder(c, gameResult{outcome: o, why: why}) }

type gameResult struct {
	owesNothing
	outcome learn.Outcome
	why     string
}

func (r gameResult) run(c *Core) {
	c.settlePonder()
	c.observer.Now(func(obs GameObserver) { obs.GameResult(r.outcome, r.why) })
}

// Forward sends the engine a line of the GUI's as it is (debug, register):
// nothing is owed for it.
func (c *Core) Forward(line string) { inOrder(c, forward{line: line}) }

type forward struct {
	owesNothing
	line string
}

func (f forward) run(c *Core) { c.toEngine(f.line) }

// UserCommand sends the engine a command of the user's that is not UCI
// (d, eval, bench, go perft, a typo): the engine gets the game's position
// first (d and eval show it), unless it is searching, and the reply order
// holds for its answer, which reaches the front as Text as the engine
// prints it: our isready after it tells when the answer is complete, and
// our answers for later commands wait for that.
func (c *Core) UserCommand(line string) { inOrder(c, userCommand{line: line}) }

type userCommand struct {
	owes
	line string
}

func (u userCommand) run(c *Core) {
	if pos := c.game.EngineLine(); c.search.state != searchEngine && pos != "" && pos != c.engine.Position() {
		c.toEnginePosition(pos)
	}
	c.toEngine(u.line)
	c.toEngine("isready")
	c.replies.Expect(reply.OwnReadyOK)
}

// Quit ends the run in its turn: everything asked before it is answered
// as the engine alone would answer it, and the engine's output reaches
// the GUI until the engine has left, within a grace (end.go).
func (c *Core) Quit() { c.onQuitInOrder() }

type quit struct{ owesNothing }

func (quit) run(c *Core) { c.beginEnd() }

// Step is a front's own work on a command of the GUI's that needs the
// core as the commands before it leave it (the game they play, the
// engine's name and options): InOrder runs it in its turn.
type Step interface{ Step() }

// InOrder runs step in the GUI's order: at once when no command waits,
// else after those that wait. What it gives the core runs in its turn,
// before the commands given after it. It may owe the GUI an answer: a
// quit after it waits for it, within QuitWait.
func InOrder[T Step](c *Core, step T) { inOrder(c, frontStep[T]{step: step}) }

type frontStep[T Step] struct {
	owes
	step T
}

func (f frontStep[T]) run(*Core) { f.step.Step() }

// The core's state, for the fronts.

// Waiting reports whether commands given now wait: for the engine's
// handshake, or behind commands that wait.
func (c *Core) Waiting() bool { return c.engine.Handshaking() || len(c.queue) > 0 }

// Owes reports whether the GUI is owed an answer to an earlier command,
// or one of ours waits for them.
func (c *Core) Owes() bool { return c.replies.Owing() }

// AfterAnswers runs f once every answer owed now has gone to the front:
// at once when none is owed.
func (c *Core) AfterAnswers(f func()) { c.replies.Emit(nil, f) }

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

// Ending reports whether the GUI's quit has been taken: the front plays
// no more.
func (c *Core) Ending() bool { return c.end.quitSeen() }
