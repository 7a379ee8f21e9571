// Package core is the proxy's core: it stands between a GUI's front and a
// UCI engine, follows the game, answers a search from the books when it
// may and keeps the GUI's answers in order. A front (the UCI front, the
// CECP front: packages of their own) speaks the GUI's protocol over the
// core's typed API: the core hands it the GUI's lines and its events
// (Front, front.go), and the front gives it commands (commands.go). The
// core knows no front.
//
// The core conducts; the rooms under it own their state, and return what
// they decide instead of calling back:
//
//   - the event loop (proxy/loop): one goroutine owns all state and hands
//     the core every event through one handler (events.go), so nothing
//     here needs a lock; on Linux a poll(2) loop that does the work
//     inline, as a C relay does, elsewhere goroutines that read the GUI
//     and the engine. Output to the GUI is flushed after each event: a
//     line never waits for the next one, and a flood of engine lines
//     still costs one write per read;
//   - the engine link (proxy/link): the engine, its handshake and options,
//     the death judge, the warm searches, the bestmove reader; the core
//     restarts the engine and makes good what it lost (engine.go);
//   - the game tracker (proxy/track): the game given, as far as it is
//     followed, and the line the engine gets (game.go tells what changed);
//   - book play (proxy/bookplay): the books and the decision (book.go
//     plays its answers);
//   - the reply queue (proxy/reply): our answers (a book's bestmove) wait
//     behind the replies the engine still owes, so the GUI gets its
//     answers in the order it asked, and every search exactly one
//     bestmove;
//   - live learning's calls, made beside the loop (proxy/observe), and the
//     log (proxy/logfile).
//
// The GUI's commands wait their turn in one queue (commands.go): behind
// the engine's handshake, or behind a search that ends by itself
// (search.go). The end of the run, the GUI's quit or the end of its
// input, is one of them (end.go); our options and the engine's are set
// in options.go.
package core

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/plainerr"
	"github.com/polyproxy/polyproxy/proxy/bookplay"
	"github.com/polyproxy/polyproxy/proxy/link"
	"github.com/polyproxy/polyproxy/proxy/logfile"
	"github.com/polyproxy/polyproxy/proxy/loop"
	"github.com/polyproxy/polyproxy/proxy/observe"
	"github.com/polyproxy/polyproxy/proxy/reply"
	"github.com/polyproxy/polyproxy/proxy/track"
	"github.com/polyproxy/polyproxy/uci"
)

// Engine is a running engine as the core needs it (link.Engine);
// *uci.Process is one, tests use in-process fakes.
type Engine = link.Engine

// GameObserver follows the game for live learning (learn.Session is
// one); see observe.Observer.
type GameObserver = observe.Observer

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
	log      logfile.Log

	front Front // the GUI's protocol (front.go)
	out   Out   // the GUI's output, flushed after each event
	// listening: the GUI takes notices (Listening); until then they wait
	// in notices.
	listening bool
	notices   []string
	// queue are the commands waiting for the engine's handshake, or
	// (heldBySearch) a go waiting for the running search to end and the
	// commands after it (commands.go).
	queue        []command
	heldBySearch bool
	engine       *link.Link          // the engine: its handshake, restarts and what it announced
	replies      reply.Queue[answer] // the order of our replies to the GUI
	search       search              // the GUI's latest go, while someone owes its bestmove
	game         *track.Tracker      // the game the GUI gave, as far as we follow it
	books        *bookplay.Books     // the open books, the chooser and the policies
	// holdBookReads, when set (by tests), holds each reading of the books
	// beside the loop (readBooks) until it is closed.
	holdBookReads chan struct{}
	observer      *observe.Queue // live learning, called after each flush

	runs []lineRun // the info runs of the engine batch being handled

	end ending // the GUI's quit and what is left to do before the run ends
	// slowHandshake says so when the engine has not finished its
	// handshake in time (SlowHandshake).
	slowHandshake loop.Timer

	loop *loop.Loop // hands the core its events, one at a time (events.go)
	// soon: what this event wrote makes an answer due within microseconds
	// (see answerDue); the poll loop then waits actively for a moment
	// before it sleeps.
	soon bool
}

// New prepares a proxy for cfg; nothing starts until Run, and cfg is
// never changed.
func New(cfg *config.Config, opts Options) *Core {
	c := &Core{settings: cfg.Clone(), opts: opts, observer: observe.New(opts.Observer)}
	c.engine = link.New(&c.log)
	c.game = track.New()
	c.books = bookplay.New(c.settings, &c.log)
	c.replies = reply.NewQueue(c.deliver, answer{})
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
	return c
}

// Run proxies between the GUI (stdin/stdout), through front, and the
// engine until the GUI quits or goes away (nil), or until the engine
// cannot be kept running (an error, already reported on stderr). The
// front writes the GUI's output on Out.
func (c *Core) Run(stdin io.Reader, stdout io.Writer, front Front) error {
	defer c.Close()
	if err := c.start(loop.New(stdin, (*events)(c)), stdout, front); err != nil {
		return err
	}
	err := c.loop.Run()
	if errors.Is(err, loop.ErrPoll) {
		c.log.Printf("%v: quitting", err)
		c.end.reach(over)
		_, err = c.settle(nil)
	}
	return err
}

// Start readies a run whose events the caller hands it itself, one at a
// time, on one goroutine, through the handler it returns: what Run does
// around its loop, without a GUI's input to read. Close ends it.
func (c *Core) Start(stdout io.Writer, front Front) (loop.Handler, error) {
	h := (*events)(c)
	return h, c.start(loop.New(nil, h), stdout, front)
}

// start readies the run on l: the log, the learning calls, the engine
// (its handshake begins), the game and the books.
func (c *Core) start(l *loop.Loop, stdout io.Writer, front Front) error {
	c.loop = l
	c.out = Out{w: uci.NewWriter(stdout), log: &c.log}
	c.front = front
	if c.opts.Log != nil {
		c.log = logfile.With(c.opts.Log)
	} else {
		c.applyLogConfig()
	}
	for _, w := range c.settings.Warnings {
		c.log.Printf("config: %s", w)
		c.notice("warning: " + w) // a mistyped key or section: the GUI's user fixes it
	}
	if l.Polling() {
		c.log.Printf("loop: poll(2) on the GUI's input and the engine's output")
	}
	// Live learning logs its decisions here and warns the GUI of a book it
	// cannot write, through the loop (onObserverSaid); its calls are made
	// on a goroutine of their own.
	c.tellLearning()
	c.observer.Start(func() { l.Post(c.onObserverSaid) })
	// The engine first: its start-up (a process to load, a network to
	// read) runs while we set up the rest. The log comes before it (it
	// costs nothing when off) so that a failed start is in it.
	if err := c.startEngine(); err != nil {
		c.fatalf("cannot start the engine: %s; check EngineCommand%s", plainerr.Text(err), c.engineCommandSet())
		return err
	}
	c.openBooks(config.ReopenBooks | config.RebuildChooser) // checked after the first handshake (verifyBooks)
	return nil
}

// Close ends the run: the last game is learned, the books and the log
// are closed, and the loop's goroutines end.
func (c *Core) Close() {
	if c.loop == nil {
		return
	}
	c.loop.Close()
	if c.observer.On() {
		said := func() { c.onObserverSaid(); c.out.w.Flush() }
		c.observer.Stop(said) // the last game is learned before the run ends
		said()
	}
	c.books.Close()
	c.log.Close()
}

// Out is the GUI's output, for the front (valid once Run has begun).
func (c *Core) Out() *Out { return &c.out }

// answerDue notes that an answer is due at once: the engine's readyok
// for an isready just forwarded (engines answer it at once, even while
// searching), or the GUI's next command after its readyok or a bestmove
// when nothing else is owed. A wake-up from poll costs more than the wait
// (proxy/loop: spinFor). A go sent to the engine cancels it: its
// search needs the CPU, and its info lines never set it.
func (c *Core) answerDue() { c.soon = true }

// answeredGUI is answerDue for a readyok or bestmove just sent to the
// GUI: its next command may follow at once, unless we still owe it more.
func (c *Core) answeredGUI() {
	if !c.replies.Owing() && c.search.state == searchNone {
		c.answerDue()
	}
}
