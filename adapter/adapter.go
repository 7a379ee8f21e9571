// Package adapter is the proxy: it stands between a chess GUI and a UCI
// engine, relays their lines, follows the game and answers "go" from
// Polyglot books when it can.
//
// Its shape, for a first reading:
//
//   - One loop owns all state, and alone reads and changes the Adapter, so
//     nothing here needs a lock. On Linux it is the poll loop
//     (loop_linux.go): one thread waits in poll(2) on the GUI's input and
//     the engine's output and does the work inline, as a C relay does.
//     Elsewhere, or when the GUI's input cannot be polled as it is, it is
//     the goroutine loop (loop): a goroutine reads the GUI, another the
//     engine, and hand their lines over channels. Either way other
//     goroutines (a book's check, timers, the engine's exit) hand their
//     results over channels, and both loops call the same handlers
//     (onGUIBatch, onEngineOutput, ...). Output to the GUI is flushed after
//     each event: a line never waits for the next one, and a flood of
//     engine lines still costs one write per read.
//   - Reply order (replyQueue, replies.go). The engine's replies go to the
//     GUI as they come; our own lines (a book's bestmove) wait behind the
//     replies the engine still owes for the GUI's earlier requests, so the
//     GUI gets its answers in the order it asked, and every go exactly one
//     bestmove.
//   - The engine link (engineLink, link.go): the running engine, its
//     handshake, and its restart after a death, when the new engine gets
//     what the old one had and lost replies are made good.
//   - Two fronts, one per GUI protocol, over one core (front.go): the
//     GUI's protocol is chosen from its first command; the UCI front
//     (front_uci.go) passes UCI through, the CECP front
//     (front_xboard*.go) speaks xboard's protocol and drives the core.
//   - The rest is one file per concern: the engine's lines (engine.go), searches (search.go), quit and the end of the
//     GUI's input (end.go), the game followed for the book (game.go), the
//     books (book.go) and their files changing on disk (bookfiles.go), live
//     learning's calls, made beside the loop (observer.go), our
//     options and run-time settings (options.go), the engine's configured
//     options (engineopts.go), the log (log.go).
package adapter

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

// Engine is a running engine as the adapter needs it; *uci.Process is one,
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
// adapter's own, not from its loop, in the order of the game's events: a
// slow call (a book locked by another process, a slow disk) never delays
// the GUI's answers. A nil observer is allowed.
type GameObserver interface {
	// UseLog gives the observer the adapter's log (logf) and a way to warn
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
	// it (the calls come later) and the host's PGN file (BookLearnPGN) just
	// after, and the key of every position from the GUI's base (its
	// startpos or FEN) to it, the moves played before we were asked
	// anything (an opening suite's), so that learning finds the game in the
	// host's PGN from its start, among the games written since.
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

// Adapter is one proxy run. Create with New, then Run.
type Adapter struct {
	// settings are the adapter's own copy of the configuration: our
	// setoptions change them, never the caller's.
	settings *config.Config
	opts     Options
	log      logger

	// What the loop waits on besides the engine link's timers.
	guiCh    chan guiBatch
	engineCh chan *engineBatch
	bookCh   chan bookVerdict
	done     chan struct{} // closed when Run returns

	gui      guiSide       // the GUI's side: our output, its uci, commands waiting for the handshake
	engine   engineLink    // the engine: its handshake, restarts and what it announced
	replies  replyQueue    // the order of our replies to the GUI
	search   search        // the GUI's latest go, while someone owes its bestmove
	game     game          // the position the GUI sent, as far as we follow it
	books    bookSet       // the open books and the chooser
	observer observerQueue // live learning, called after each flush

	// xb is the CECP front when the GUI speaks CECP (front.go); nil: UCI.
	xb *xboardFront

	end ending // the GUI's quit and what is left to do before the run ends

	// poll is the poll loop (Linux) when it runs, else nil: the goroutine
	// loop. Set before any goroutine starts, never changed after.
	poll *pollLoop
	// soon: what this event wrote makes an answer due within microseconds
	// (see answerDue); the poll loop then waits actively for a moment
	// before it sleeps.
	soon bool
}

// New prepares an adapter for cfg; nothing starts until Run, and cfg is
// never changed.
func New(cfg *config.Config, opts Options) *Adapter {
	a := &Adapter{settings: cfg.Clone(), opts: opts, observer: observerQueue{obs: opts.Observer}}
	a.replies = newReplyQueue(a.toGUI)
	if a.opts.Stderr == nil {
		a.opts.Stderr = os.Stderr
	}
	if a.opts.QuitGrace <= 0 {
		a.opts.QuitGrace = time.Second
	}
	if a.opts.QuitWait <= 0 {
		a.opts.QuitWait = 5 * time.Second
	}
	if a.opts.SlowHandshake <= 0 {
		a.opts.SlowHandshake = 10 * time.Second
	}
	if a.opts.StartEngine == nil {
		a.opts.StartEngine = func() (Engine, error) {
			p, err := uci.StartProcess(a.settings.EngineArgv, a.settings.EngineDir, a.opts.Stderr)
			if err != nil {
				return nil, err
			}
			return p, nil
		}
	}
	a.guiCh = make(chan guiBatch, 16)
	a.engineCh = make(chan *engineBatch, 64)
	a.bookCh = make(chan bookVerdict, 4)
	a.done = make(chan struct{})
	return a
}

// Run proxies between the GUI (stdin/stdout) and the engine until the GUI
// quits or goes away (nil), or until the engine cannot be kept running (an
// error, already reported on stderr).
func (a *Adapter) Run(stdin io.Reader, stdout io.Writer) (err error) {
	a.gui.out = uci.NewWriter(stdout)
	if a.opts.Log != nil {
		a.log = logger{l: a.opts.Log, on: a.opts.Log.IsLevelEnabled(logrus.InfoLevel)}
	} else {
		a.applyLogConfig()
	}
	// Live learning logs its decisions here and warns the GUI of a book it
	// cannot write, through the loop (onObserverSaid); its calls are made
	// on a goroutine of their own.
	if a.observer.obs != nil {
		a.observer.obs.UseLog(a.observer.logf, a.observer.warnf)
		a.tellLearning()
	}
	defer func() {
		close(a.done)
		if a.observer.obs != nil {
			a.observer.stop() // the last game is learned before the run ends
			a.onObserverSaid()
			a.gui.out.Flush()
		}
		a.books.close()
		a.log.close()
	}()
	for _, w := range a.settings.Warnings {
		a.log.printf("config: %s", w)
	}
	// Before the engine starts: the poll loop reads its output itself.
	a.poll = a.newPollLoop(stdin)
	if a.poll != nil {
		defer a.poll.close() // a wake after it goes nowhere
		a.log.printf("loop: poll(2) on the GUI's input and the engine's output")
	}
	if a.observer.obs != nil {
		a.observer.start(a.kick) // after a.poll is set: kick reads it
	}
	// The engine first: its start-up (a process to load, a network to
	// read) runs while we set up the rest. The log comes before it (it
	// costs nothing when off) so that a failed start is in it.
	if err := a.startEngine(); err != nil {
		a.fatalf("cannot start the engine: %v", err)
		return err
	}
	a.game.init()
	a.openBooks() // checked after the first handshake (verifyBooks)
	if a.poll != nil {
		return a.poll.run()
	}
	go readGUI(stdin, a.guiCh, a.done)
	return a.loop()
}

// answerDue notes that an answer is due at once: the engine's readyok
// for an isready just forwarded (engines answer it at once, even while
// searching), or the GUI's next command after its readyok or a bestmove
// when nothing else is owed. A wake-up from poll costs more than the wait
// (loop_linux.go: spinFor). A go sent to the engine cancels it: its
// search needs the CPU, and its info lines never set it.
func (a *Adapter) answerDue() { a.soon = true }

// answeredGUI is answerDue for a readyok or bestmove just sent to the
// GUI: its next command may follow at once, unless we still owe it more.
func (a *Adapter) answeredGUI() {
	if len(a.replies.entries) == 0 && a.search.state == searchNone {
		a.answerDue()
	}
}

// kick tells the poll loop that a channel has something for it; the
// goroutine loop waits on the channels themselves. Any goroutine may call
// it, after its send.
func (a *Adapter) kick() {
	if a.poll != nil {
		a.poll.wake()
	}
}

// after is time.After for the loop's timers: the poll loop is also woken
// when it fires.
func (a *Adapter) after(d time.Duration) <-chan time.Time {
	if a.poll == nil {
		return time.After(d)
	}
	ch := make(chan time.Time, 1)
	time.AfterFunc(d, func() {
		ch <- time.Now()
		a.kick()
	})
	return ch
}

// loop is the goroutine loop: readers on their own goroutines hand the
// GUI's and the engine's lines over channels, and the loop waits on every
// channel at once. It runs wherever the poll loop (Linux) cannot: the
// GUI's input is not a descriptor poll(2) can wait on, or the system has
// none for pipes (Windows).
func (a *Adapter) loop() error {
	for {
		var err error
		select {
		case b := <-a.guiCh:
			a.onGUIBatch(b.lines, b.err)
		case b := <-a.engineCh:
			err = a.onEngineBatchFrom(b)
		case <-a.engine.exited:
			a.onEngineExited()
		case v := <-a.bookCh:
			a.onBookVerdict(v)
		case <-a.end.wait:
			a.onQuitWaitOver()
		case <-a.end.drainBy:
			a.onDrainOver()
		case <-a.engine.slowHandshake:
			a.onSlowHandshake()
		case <-a.observer.said:
			a.onObserverSaid()
		}
		if over, err := a.afterEvent(err); over {
			return err
		}
	}
}

// The loop's events. Both loops (loop, and pollLoop on Linux) call these
// handlers, so each thing is done one way; then afterEvent.

// onGUIBatch handles lines the GUI sent; readErr set means its input
// ended (the end of input is a quit, in its turn).
func (a *Adapter) onGUIBatch(lines []string, readErr error) {
	if a.end.quitSeen {
		return // lines after the quit are not read
	}
	for _, line := range lines {
		a.onGUILine(line)
		if a.end.quitSeen {
			break
		}
	}
	if readErr != nil && !a.end.quitSeen {
		if readErr != io.EOF {
			a.log.printf("reading the GUI: %v", readErr)
		}
		a.log.printf("GUI closed its end: quitting")
		if a.xb != nil {
			a.xb.onLine("quit") // after its commands that wait
		} else {
			a.onQuitInOrder(uci.Command{Kind: uci.CmdQuit, Line: "quit"})
		}
	}
}

// onEngineBatchFrom handles a batch from an engine reader goroutine (a
// dead engine's last words are dropped) and recycles it.
func (a *Adapter) onEngineBatchFrom(b *engineBatch) error {
	if b.gen != a.engine.gen {
		return nil // a dead engine's last words
	}
	err := a.onEngineOutput(b.data, b.err)
	batchPool.Put(b)
	return err
}

// onEngineOutput handles whole lines of the running engine (each ending
// in '\n'); readErr set means its output ended: after a quit the run
// ends, else it died. A non-nil result ends the run.
func (a *Adapter) onEngineOutput(data []byte, readErr error) error {
	a.onEngineBatch(data)
	if readErr == nil {
		return nil
	}
	if err := a.onEngineGone(); err != nil {
		a.gui.out.Flush()
		a.engine.eng.Kill()
		return err
	}
	return nil
}

// onEngineExited: the engine process ended. Its output may stay open in a
// process it left behind; ending its group closes it, and the end of its
// output is the death handled by onEngineOutput (after any last lines).
func (a *Adapter) onEngineExited() {
	a.engine.exited = nil
	a.engine.eng.Kill()
}

func (a *Adapter) onDrainOver() {
	a.log.printf("the engine did not leave within %v of quit: ending it", a.opts.QuitGrace)
	a.end.late, a.end.now = true, true
}

func (a *Adapter) onSlowHandshake() {
	a.engine.slowHandshake = nil
	a.notify("the engine has not answered uci with uciok after %v: is %q a UCI engine?", a.opts.SlowHandshake, strings.Join(a.settings.EngineArgv, " "))
}

// afterEvent ends every event: what it had to say goes to the GUI, then
// the observers run. over is true when the run ends here (err: why, if it
// failed); the engine is then stopped.
func (a *Adapter) afterEvent(failed error) (over bool, err error) {
	if failed != nil {
		return true, failed
	}
	if a.xb != nil {
		a.xb.afterEvent() // what the front does once the core has settled
	}
	werr := a.gui.out.Flush()
	a.observer.run() // after the flush: learning never delays an answer
	if werr != nil && !a.end.now {
		a.log.printf("writing to the GUI: %v: quitting", werr)
		a.end.now = true
	}
	if a.end.now {
		a.finish()
		return true, nil
	}
	if len(a.books.unverified) > 0 && a.engine.everReady {
		a.verifyBooks() // once the first handshake is answered
	}
	return false, nil
}

// onEngineGone handles the end of the engine's output: the end of the run
// after a quit, else a death (restart, or an error that ends the run).
func (a *Adapter) onEngineGone() error {
	switch {
	case a.end.draining:
		a.end.now = true
		return nil
	case a.end.quitSeen:
		// The GUI is leaving: no restart for the answers still owed.
		a.notify("the engine died (%s) after the GUI's quit", a.engine.ended())
		a.end.now = true
		return nil
	}
	return a.onEngineDeath()
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
