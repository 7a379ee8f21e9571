// Package core is the proxy's core: it stands between a GUI's front and a
// UCI engine, follows the game, answers a search from the books when it
// may and keeps the GUI's answers in order. A front (the UCI front, the
// CECP front: packages of their own) speaks the GUI's protocol over the
// core's typed API: the core hands it the GUI's lines and its events
// (Front, front.go), and the front gives it commands (commands.go). The
// core knows no front.
//
// Its shape, for a first reading:
//
//   - One loop owns all state, and alone reads and changes the Core, so
//     nothing here needs a lock. On Linux it is the poll loop
//     (loop_linux.go): one thread waits in poll(2) on the GUI's input and
//     the engine's output and does the work inline, as a C relay does.
//     Elsewhere, or when the GUI's input cannot be polled as it is, it is
//     the goroutine loop (loop): a goroutine reads the GUI, another the
//     engine, and post their lines as events. Either way other goroutines
//     (a book's check, timers, the engine's exit) post events too, and both
//     loops hand every event to one dispatch (events.go). Output to the
//     GUI is flushed after each event: a line never waits for the next
//     one, and a flood of engine lines still costs one write per read.
//   - The GUI's lines go to the front as they are read (gui.go); the
//     commands it gives wait their turn (commands.go): behind the engine's
//     handshake, or behind a search that ends by itself.
//   - Reply order (replyQueue, replies.go). The engine's replies go to the
//     front as they come; our own answers (a book's bestmove) wait behind
//     the replies the engine still owes for the GUI's earlier requests, so
//     the GUI gets its answers in the order it asked, and every search
//     exactly one bestmove.
//   - The engine link (engineLink, link.go): the running engine, its
//     handshake, and its restart after a death, when the new engine gets
//     what the old one had and lost replies are made good.
//   - The rest is one file per concern: the engine's lines, each read
//     once (engine.go), searches (search.go), quit and the end of the
//     GUI's input (end.go), the game followed for the book, one board per
//     game (game.go), the books (book.go) and their files changing on disk
//     (bookfiles.go), live learning's calls, made beside the loop
//     (observer.go), our options and run-time settings (options.go), the
//     engine's configured options (engineopts.go), the log (log.go).
package core

import (
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// Engine is a running engine as the core needs it; *uci.Process is one,
// tests use in-process fakes.
type Engine interface {
	WriteLine(string) error
	Stdout() io.Reader
	Exited() <-chan struct{}
	// Quit asks the engine to leave, waits up to grace, then kills it (and
	// whatever it started); it returns when the engine is gone.
	Quit(grace time.Duration)
	Kill()
	// ExitErr is how the engine ended (nil: exit status 0); only called
	// once Exited is closed.
	ExitErr() error
}

// GameObserver follows the game for live learning (learn.Session has these
// methods). During Run every call comes from one goroutine of the
// core's own, not from its loop, in the order of the game's events: a
// slow call (a book locked by another process, a slow disk) never delays
// the GUI's answers. A nil observer is allowed.
type GameObserver interface {
	// UseLog gives the observer the core's log (logf) and a way to warn
	// (warnf: stderr, the log and the GUI); Run calls it first of all.
	UseLog(logf, warnf func(format string, args ...any))
	// SetLearning gives the learning settings: BookLearn, the books in use
	// (none when Book is off), resignation. Run calls it at the start and
	// after every setoption of ours; it holds for the calls after it.
	SetLearning(learn.Settings)
	NewGame()
	// Position and AfterBestmove pass the game's position, a value the
	// observer may keep, not the game's line: a move costs the same at
	// any length of game.
	Position(p board.Position, continues bool)
	// GameStart follows the Position that starts a game: when the GUI sent
	// it (the calls come later), the host's PGN file just after (one stat
	// of BookLearnPGN, taken on the loop), and the key of every position
	// from the GUI's base (its startpos or FEN) to it, the moves played
	// before we were asked anything (an opening suite's), so that learning
	// finds the game in the host's PGN from its start, among the games
	// written since.
	GameStart(at time.Time, line []board.Key, pgn learn.PGNStat)
	// BookMove passes the book entry played (stored in b) and line, the
	// keys of the game's positions from its start to the one it was
	// played in: the observer's own copy.
	BookMove(b *book.Book, line []board.Key, stored board.Move, whiteMoved bool)
	EngineScore(white bool, cp int, mate int, isMate bool)
	AfterBestmove(p board.Position)
	// GameResult ends the game with the result the GUI gave (CECP's
	// result command); Unknown ("*"): the game ended undecided.
	GameResult(o learn.Outcome, why string)
	Close()
}

// Options are what Run needs besides the configuration.
type Options struct {
	// StartEngine starts the engine; nil starts the configuration's
	// EngineArgv in its EngineDir with its stderr going to Stderr.
	StartEngine func() (Engine, error)
	Stderr      io.Writer    // our own messages; never closed; nil: os.Stderr
	Observer    GameObserver // nil: no live learning
	// QuitGrace is how long the engine has to leave after "quit" before it
	// is killed; 0 means one second.
	QuitGrace time.Duration
	// QuitWait is how long a quit waits for the answers owed before it
	// when they need the engine's handshake, or the end of a search that
	// ends by itself, first; 0 means five seconds.
	QuitWait time.Duration
	// SlowHandshake is how long the engine may take to answer "uci" before
	// polyproxy says so (a common mistake: an engine that does not speak
	// UCI); 0 means ten seconds. It only warns: the GUI decides how long
	// to wait.
	SlowHandshake time.Duration
	// Log, when set, is used instead of opening the configuration's
	// LogFile (tests).
	Log *logrus.Logger
}

// ErrEngineDied is returned (wrapped) when the engine dies twice within a
// minute, or before its first handshake completes.
var ErrEngineDied = errors.New("engine died")

// Core is one proxy run. Create with New, then Run.
type Core struct {
	// settings are the core's own copy of the configuration: our
	// setoptions change them, never the caller's.
	settings *config.Config
	opts     Options
	log      logger

	// events is what other goroutines hand the loop (events.go): all of
	// them for the goroutine loop, all but its own reads for the poll loop.
	events chan event
	done   chan struct{} // closed when Run returns

	front    Front              // the GUI's protocol (front.go)
	out      Out                // the GUI's output, flushed after each event
	gui      guiSide            // the GUI's commands waiting for the handshake or a search
	engine   engineLink         // the engine: its handshake, restarts and what it announced
	replies  replyQueue[answer] // the order of our replies to the GUI
	search   search             // the GUI's latest go, while someone owes its bestmove
	game     game               // the position the GUI sent, as far as we follow it
	books    bookSet            // the open books and the chooser
	observer observerQueue      // live learning, called after each flush

	runs []lineRun // the info runs of the engine batch being handled

	end ending // the GUI's quit and what is left to do before the run ends

	// poll is the poll loop (Linux) when it runs, else nil: the goroutine
	// loop. Set before any goroutine starts, never changed after.
	poll *pollLoop
	// soon: what this event wrote makes an answer due within microseconds
	// (see answerDue); the poll loop then waits actively for a moment
	// before it sleeps.
	soon bool
}

// New prepares a proxy for cfg; nothing starts until Run, and cfg is
// never changed.
func New(cfg *config.Config, opts Options) *Core {
	c := &Core{settings: cfg.Clone(), opts: opts, observer: observerQueue{obs: opts.Observer}}
	c.replies = newReplyQueue(c.deliver, answer{})
	if c.opts.Stderr == nil {
		c.opts.Stderr = os.Stderr
	}
	if c.opts.QuitGrace <= 0 {
		c.opts.QuitGrace = time.Second
	}
	if c.opts.QuitWait <= 0 {
		c.opts.QuitWait = 5 * time.Second
	}
	if c.opts.SlowHandshake <= 0 {
		c.opts.SlowHandshake = 10 * time.Second
	}
	if c.opts.StartEngine == nil {
		c.opts.StartEngine = func() (Engine, error) {
			p, err := uci.StartProcess(c.settings.EngineArgv, c.settings.EngineDir, c.opts.Stderr)
			if err != nil {
				return nil, err
			}
			return p, nil
		}
	}
	c.events = make(chan event, 64)
	c.done = make(chan struct{})
	return c
}

// Run proxies between the GUI (stdin/stdout), through front, and the
// engine until the GUI quits or goes away (nil), or until the engine
// cannot be kept running (an error, already reported on stderr). The
// front writes the GUI's output on Out.
func (c *Core) Run(stdin io.Reader, stdout io.Writer, front Front) (err error) {
	c.out = Out{w: uci.NewWriter(stdout), log: &c.log}
	c.front = front
	if c.opts.Log != nil {
		c.log = logger{l: c.opts.Log, on: c.opts.Log.IsLevelEnabled(logrus.InfoLevel)}
	} else {
		c.applyLogConfig()
	}
	// Live learning logs its decisions here and warns the GUI of a book it
	// cannot write, through the loop (onObserverSaid); its calls are made
	// on a goroutine of their own.
	if c.observer.obs != nil {
		c.observer.obs.UseLog(c.observer.logf, c.observer.warnf)
		c.tellLearning()
	}
	defer func() {
		close(c.done)
		if c.observer.obs != nil {
			said := func() { c.onObserverSaid(); c.out.w.Flush() }
			c.observer.stop(said) // the last game is learned before the run ends
			said()
		}
		c.books.close()
		c.log.close()
	}()
	for _, w := range c.settings.Warnings {
		c.log.printf("config: %s", w)
	}
	// Before the engine starts: the poll loop reads its output itself.
	c.poll = c.newPollLoop(stdin)
	if c.poll != nil {
		defer c.poll.close() // a wake after it goes nowhere
		c.log.printf("loop: poll(2) on the GUI's input and the engine's output")
	}
	if c.observer.obs != nil {
		// After c.poll is set: post wakes it.
		c.observer.start(func() { c.post(event{kind: evObserverSaid}) })
	}
	// The engine first: its start-up (a process to load, a network to
	// read) runs while we set up the rest. The log comes before it (it
	// costs nothing when off) so that a failed start is in it.
	if err := c.startEngine(); err != nil {
		c.fatalf("cannot start the engine: %v", err)
		return err
	}
	c.game.init()
	c.openBooks(config.ReopenBooks | config.RebuildChooser) // checked after the first handshake (verifyBooks)
	if c.poll != nil {
		return c.poll.run()
	}
	go c.readGUI(stdin)
	return c.loop()
}

// Out is the GUI's output, for the front (valid once Run has begun).
func (c *Core) Out() *Out { return &c.out }

// answerDue notes that an answer is due at once: the engine's readyok
// for an isready just forwarded (engines answer it at once, even while
// searching), or the GUI's next command after its readyok or a bestmove
// when nothing else is owed. A wake-up from poll costs more than the wait
// (loop_linux.go: spinFor). A go sent to the engine cancels it: its
// search needs the CPU, and its info lines never set it.
func (c *Core) answerDue() { c.soon = true }

// answeredGUI is answerDue for a readyok or bestmove just sent to the
// GUI: its next command may follow at once, unless we still owe it more.
func (c *Core) answeredGUI() {
	if !c.replies.owing() && c.search.state == searchNone {
		c.answerDue()
	}
}

// kick tells the poll loop that a channel has something for it; the
// goroutine loop waits on the channels themselves. Any goroutine may call
// it, after its send.
func (c *Core) kick() {
	if c.poll != nil {
		c.poll.wake()
	}
}

// loop is the goroutine loop: readers on their own goroutines hand the
// GUI's and the engine's lines over channels, and the loop waits on every
// channel at once. It runs wherever the poll loop (Linux) cannot: the
// GUI's input is not a descriptor poll(2) can wait on, or the system has
// none for pipes (Windows).
func (c *Core) loop() error {
	for {
		if over, err := c.dispatch(<-c.events); over {
			return err
		}
	}
}

// The loop's events. dispatch (events.go) calls these handlers for both
// loops, so each thing is done one way; then afterEvent.

// onGUIBatch handles lines the GUI sent; readErr set means its input
// ended (the end of input is a quit, in its turn).
func (c *Core) onGUIBatch(lines []string, readErr error) {
	if c.end.quitSeen() {
		return // lines after the quit are not read
	}
	for _, line := range lines {
		c.onGUILine(line)
		if c.end.quitSeen() {
			break
		}
	}
	if readErr != nil && !c.end.quitSeen() {
		if readErr != io.EOF {
			c.log.printf("reading the GUI: %v", readErr)
		}
		c.log.printf("GUI closed its end: quitting")
		c.front.GUIGone()
	}
}

// onEngineOutput handles whole lines of the running engine (each ending
// in '\n'); readErr set means its output ended: after a quit the run
// ends, else it died. A non-nil result ends the run.
func (c *Core) onEngineOutput(data []byte, readErr error) error {
	c.onEngineBatch(data)
	if readErr == nil {
		return nil
	}
	if err := c.onEngineGone(); err != nil {
		c.out.w.Flush()
		c.engine.eng.Kill()
		return err
	}
	return nil
}

// onEngineExited: the engine process ended. Its output may stay open in a
// process it left behind; ending its group closes it, and the end of its
// output is the death handled by onEngineOutput (after any last lines).
func (c *Core) onEngineExited() {
	c.engine.eng.Kill()
}

func (c *Core) onDrainOver() {
	c.log.printf("the engine did not leave within %v of quit: ending it", c.opts.QuitGrace)
	c.end.reach(overdue)
}

func (c *Core) onSlowHandshake() {
	c.notify("the engine has not answered uci with uciok after %v: is %q a UCI engine?", c.opts.SlowHandshake, strings.Join(c.settings.EngineArgv, " "))
}

// afterEvent ends every event: what it had to say goes to the GUI, then
// the observers run. over is true when the run ends here (err: why, if it
// failed); the engine is then stopped.
func (c *Core) afterEvent(failed error) (ended bool, err error) {
	if failed != nil {
		return true, failed
	}
	c.front.Settled() // what the front does once the core has settled
	werr := c.out.w.Flush()
	c.observer.run() // after the flush: learning never delays an answer
	if werr != nil && !c.end.now() {
		c.log.printf("writing to the GUI: %v: quitting", werr)
		c.end.reach(over)
	}
	if c.end.now() {
		c.finish()
		return true, nil
	}
	if len(c.books.unverified) > 0 && c.engine.everReady {
		c.verifyBooks() // once the first handshake is answered
	}
	return false, nil
}

// onEngineGone handles the end of the engine's output: the end of the run
// after a quit, else a death (restart, or an error that ends the run).
func (c *Core) onEngineGone() error {
	switch {
	case c.end.draining():
		c.end.reach(over)
		return nil
	case c.end.quitSeen():
		// The GUI is leaving: no restart for the answers still owed.
		c.notify("the engine died (%s) after the GUI's quit", c.engine.ended())
		c.end.reach(over)
		return nil
	}
	return c.onEngineDeath()
}

// sendOrDone hands v to the loop unless the run is over; the readers then
// end instead of blocking forever.
func sendOrDone[T any](ch chan<- T, v T, done <-chan struct{}) bool {
	select {
	case ch <- v:
		return true
	case <-done:
		return false
	}
}
