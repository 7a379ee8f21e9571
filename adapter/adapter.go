// Package adapter is the proxy: it stands between a chess GUI and a UCI
// engine, relays their lines, tracks the game and answers "go" from
// Polyglot books when it can.
//
// Shape: one goroutine reads the GUI, one reads the engine; both hand
// batches of lines to a single loop (Run) that owns all state, so nothing
// here needs a lock. Output to the GUI is flushed after each batch: a line
// never waits for the next one, and a flood of engine lines still costs one
// write per batch.
package adapter

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/config"
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
// methods). Every call comes from the adapter's loop. A nil observer is
// allowed.
type GameObserver interface {
	// UseLog gives the observer the adapter's log (logf) and a way to warn
	// (warnf: stderr, the log and the GUI); Run calls it first of all.
	UseLog(logf, warnf func(format string, args ...any))
	// SetLearning says whether to learn (BookLearn) and lists the books in
	// use (none when Book is off). Run calls it at the start and after every
	// setoption of ours; it holds at once, also for the calls still queued.
	SetLearning(on bool, books []string)
	NewGame()
	// Position and AfterBestmove pass the game as a line the observer
	// may keep (its rules position is built only if the observer asks).
	Position(l *book.Line, continues bool)
	BookMove(b *book.Book, key book.Key, stored book.Move, whiteMoved bool)
	EngineScore(white bool, cp int, mate int, isMate bool)
	AfterBestmove(l *book.Line)
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

type guiBatch struct {
	lines []string
	err   error // io.EOF or a read error: the GUI is gone
}

// searchState is who owes the GUI a bestmove.
type searchState int

const (
	searchNone       searchState = iota
	searchEngine                 // the engine is searching
	searchBookPonder             // a book answer waits for ponderhit or stop
)

// Adapter is one proxy run. Create with New, then Run.
type Adapter struct {
	// settings are the adapter's own copy of the configuration: our
	// setoptions change them, never the caller's.
	settings *config.Config
	opts     Options
	stderr   io.Writer
	obs      GameObserver

	out     *uci.Writer
	log     *logrus.Logger
	logOn   bool
	logFile io.Closer

	guiCh    chan guiBatch
	engineCh chan *engineBatch
	bookCh   chan bookVerdict
	done     chan struct{} // closed when Run returns

	engine engineLink

	queuedGUI   []uci.Command // GUI commands waiting for the handshake
	guiWantsUCI bool          // the GUI's "uci" waits for the handshake
	guiTalked   bool          // we answered "uci": info strings may flow
	notices     []string      // told the GUI as info strings once it talks

	// Order and searches.
	replies       replyQueue
	search        searchState // who owes the bestmove of the GUI's latest go
	engineGo      string      // the go line the engine is searching, for a restart
	ponderHit     bool        // ponderhit was forwarded during the engine's search
	clockFrom     time.Time   // when the mover's clock started for the engine's search (zero: pondering)
	stopSent      bool
	lastScoreLine []byte // the engine's last info line with a score in this search
	bookAnswer    *bookAnswer

	// The game.
	game game

	// Books.
	books    []*book.Book
	bookKey  string // the settings the open books were made from
	chooser  *book.Chooser
	chooseBy string
	chess960 bool

	// observed are observer calls waiting for the GUI's output to be
	// flushed: learning never delays a bestmove.
	observed []func(GameObserver)

	quitting bool
	// quitTimer fires when a quit waits for a handshake that does not
	// come: the quit must not hang on a stuck engine.
	quitTimer <-chan time.Time
}

// New prepares an adapter for cfg; nothing starts until Run, and cfg is
// never changed.
func New(cfg *config.Config, opts Options) *Adapter {
	a := &Adapter{settings: cfg.Clone(), opts: opts, stderr: opts.Stderr, obs: opts.Observer}
	a.replies = newReplyQueue(a.toGUI)
	if a.stderr == nil {
		a.stderr = os.Stderr
	}
	if a.opts.QuitGrace <= 0 {
		a.opts.QuitGrace = time.Second
	}
	if a.opts.SlowHandshake <= 0 {
		a.opts.SlowHandshake = 10 * time.Second
	}
	if a.opts.StartEngine == nil {
		a.opts.StartEngine = func() (Engine, error) {
			p, err := uci.StartProcess(a.settings.EngineArgv, a.settings.EngineDir, a.stderr)
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
	a.out = uci.NewWriter(stdout)
	if a.opts.Log != nil {
		a.log, a.logOn = a.opts.Log, a.opts.Log.IsLevelEnabled(logrus.InfoLevel)
	} else {
		a.applyLogConfig()
	}
	// Live learning logs its decisions here and warns the GUI of a book it
	// cannot write.
	if a.obs != nil {
		a.obs.UseLog(a.logf, a.notify)
		a.tellLearning()
	}
	defer func() {
		close(a.done)
		if a.obs != nil {
			a.runObservers()
			a.obs.Close()
		}
		a.closeBooks()
		if a.logFile != nil {
			a.logFile.Close()
		}
	}()
	for _, w := range a.settings.Warnings {
		a.logf("config: %s", w)
	}
	a.initGame()
	a.openBooks()
	if err := a.startEngine(); err != nil {
		a.fatalf("cannot start the engine: %v", err)
		return err
	}
	go readGUI(stdin, a.guiCh, a.done)
	return a.loop()
}

func (a *Adapter) loop() error {
	for {
		select {
		case b := <-a.guiCh:
			for _, line := range b.lines {
				a.onGUILine(line)
				if a.quitting {
					break
				}
			}
			if b.err != nil && !a.quitting {
				if b.err != io.EOF {
					a.logf("reading the GUI: %v", b.err)
				}
				a.logf("GUI closed its end: quitting")
				a.onGUICommandInOrder(uci.Command{Kind: uci.CmdQuit, Line: "quit"})
			}
		case b := <-a.engineCh:
			if b.gen != a.engine.gen {
				continue // a dead engine's last words
			}
			a.onEngineBatch(b.data)
			readErr := b.err
			batchPool.Put(b)
			if readErr != nil && !a.quitting {
				if err := a.onEngineDeath(readErr); err != nil {
					a.out.Flush()
					a.engine.eng.Kill()
					return err
				}
			}
		case <-a.engine.exited:
			// Its output may stay open in a process it left behind; ending
			// its group closes it, and the end of its output is the death
			// handled above (after any last lines).
			a.engine.exited = nil
			a.engine.eng.Kill()
		case v := <-a.bookCh:
			a.onBookVerdict(v)
		case <-a.quitTimer:
			a.logf("the engine did not finish its handshake: quitting anyway")
			a.quit()
		case <-a.engine.slowHandshake:
			a.engine.slowHandshake = nil
			a.notify("the engine has not answered uci with uciok after %v: is %q a UCI engine?", a.opts.SlowHandshake, strings.Join(a.settings.EngineArgv, " "))
		}
		err := a.out.Flush()
		if len(a.observed) > 0 {
			a.runObservers()
			err = a.out.Flush() // what they had to say (a book that cannot learn)
		}
		if err != nil && !a.quitting {
			a.logf("writing to the GUI: %v: quitting", err)
			a.quit()
		}
		if a.quitting {
			a.engine.eng.Quit(a.opts.QuitGrace)
			a.logf("engine stopped; bye")
			return nil
		}
	}
}

// readGUI hands the GUI's lines to the loop, a batch at a time.
func readGUI(r io.Reader, ch chan<- guiBatch, done <-chan struct{}) {
	lr := uci.NewLineReader(r, 64<<10)
	for {
		var lines []string
		for {
			l, err := lr.ReadLine()
			if err != nil {
				sendOrDone(ch, guiBatch{lines: lines, err: err}, done)
				return
			}
			lines = append(lines, string(l))
			if !lr.HasBufferedLine() {
				break
			}
		}
		if !sendOrDone(ch, guiBatch{lines: lines}, done) {
			return
		}
		// Let the loop answer on this thread before our next read blocks
		// it in a system call: saves a thread hand-off per command.
		runtime.Gosched()
	}
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

// startEngine starts the engine and begins the handshake; the rest
// happens as its lines arrive (onUCIOK).
func (a *Adapter) startEngine() error {
	if err := a.engine.start(a.opts.StartEngine, a.engineCh, a.done, a.opts.SlowHandshake); err != nil {
		return err
	}
	a.toEngine("uci")
	return nil
}

// toEngine sends one line to the engine.
func (a *Adapter) toEngine(line string) {
	if a.logOn {
		a.traffic(">engine", line)
	}
	if err := a.engine.eng.WriteLine(line); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// It stopped reading: as good as dead. Ending it makes its
			// output close, and the death is handled as any other.
			a.notify("the engine has not read its input for %v: ending it", uci.WriteTimeout)
			a.engine.eng.Kill()
			return
		}
		a.logf("writing to the engine: %v", err)
	}
}

// toGUI sends one line to the GUI (flushed at the end of the batch).
func (a *Adapter) toGUI(line string) {
	if a.logOn {
		a.traffic(">gui", line)
	}
	a.out.WriteLine(line)
}

// infoString tells the GUI something as "info string", or keeps it until
// the GUI has said uci.
func (a *Adapter) infoString(msg string) {
	if !a.guiTalked {
		a.notices = append(a.notices, msg)
		return
	}
	a.toGUI("info string " + msg)
}

// notify reports a problem everywhere: stderr, log and the GUI.
func (a *Adapter) notify(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(a.stderr, "polyproxy: "+msg)
	a.logf("%s", msg)
	a.infoString(msg)
}

// fatalf reports why polyproxy ends: stderr, log and, when it is
// listening, the GUI.
func (a *Adapter) fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(a.stderr, "polyproxy: "+msg)
	a.logf("fatal: %s", msg)
	if a.guiTalked {
		a.toGUI("info string " + msg)
	}
}

// onEngineDeath restarts the engine once; a second death within a minute
// (or a death before the first handshake completed) is fatal.
func (a *Adapter) onEngineDeath(readErr error) error {
	status, d := a.engine.reap()
	switch d {
	case deathInHandshake:
		a.fatalf("the engine ended before finishing the uci handshake (%s): is EngineCommand a UCI engine?", status)
		return fmt.Errorf("%w during the handshake (%s)", ErrEngineDied, status)
	case deathAgain:
		a.notify("the engine died again within a minute (%s): giving up", status)
		return fmt.Errorf("%w twice within a minute (%s)", ErrEngineDied, status)
	}
	a.notify("the engine died (%s): restarting it", status)
	if err := a.startEngine(); err != nil {
		a.fatalf("cannot restart the engine: %v", err)
		return err
	}
	return nil
}

// observe queues an observer call to run once the GUI's output is
// flushed. f must capture values, not the adapter's state, which may have
// moved on by then.
func (a *Adapter) observe(f func(GameObserver)) {
	if a.obs != nil {
		a.observed = append(a.observed, f)
	}
}

// runObservers makes the queued observer calls, in order.
func (a *Adapter) runObservers() {
	for i := 0; i < len(a.observed); i++ {
		a.observed[i](a.obs)
	}
	clear(a.observed)
	a.observed = a.observed[:0]
}

// quit ends the run: the loop stops the engine and returns.
func (a *Adapter) quit() {
	a.quitting = true
}
