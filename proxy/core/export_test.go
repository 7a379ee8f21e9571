package core

// The core's insides, for the package's own tests (core_test), which run
// it through the fronts.

import (
	"io"
	"slices"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/uci"
)

// Polling reports whether the poll loop runs (else the goroutine loop).
func (c *Core) Polling() bool { return c.poll != nil }

// Soon reports whether the last event made an answer due at once
// (answerDue), and clears it.
func (c *Core) Soon() bool {
	soon := c.soon
	c.soon = false
	return soon
}

// ByHand readies c to be driven by hand, one event at a time, without its
// loop, goroutines or pipes: its engine is a null one past its handshake,
// the GUI's output goes to out and front (made once the output is set)
// reads the GUI's lines. What "inside the proxy" costs.
func (c *Core) ByHand(out io.Writer, front func(*Core) Front) {
	c.out = Out{w: uci.NewWriter(out), log: &c.log}
	c.game.init()
	c.openBooks(config.ReopenBooks | config.RebuildChooser)
	c.engine.eng = nullEngine{make(chan struct{})}
	c.engine.everReady = true
	c.front = front(c)
	c.observer.Start(func() {})
}

// Close closes what ByHand opened.
func (c *Core) Close() { c.books.close() }

// GUILine hands the front one line of the GUI's, inside an event.
func (c *Core) GUILine(line string) { c.onGUILine(line) }

// GUIEvent is an event of lines of the GUI's, handled and ended.
func (c *Core) GUIEvent(lines ...string) (ended bool, err error) {
	return c.dispatch(event{kind: evGUI, lines: lines})
}

// EngineEvent is an event of the engine's whole lines, handled and ended.
func (c *Core) EngineEvent(data []byte) (ended bool, err error) {
	return c.dispatch(event{kind: evEngine, gen: c.engine.gen, data: data})
}

// EngineLines hands the engine's whole lines to their handler, inside an
// event.
func (c *Core) EngineLines(data []byte) { c.onEngineBatch(data) }

// FlushGUI writes out what the GUI is owed, as the end of an event does.
func (c *Core) FlushGUI() { c.out.w.Flush() }

// RunObservers makes the learning calls queued, as the end of an event
// does.
func (c *Core) RunObservers() { c.observer.Flush() }

// GameState is the game followed, for tests.
type GameState struct {
	OK         bool
	Err        string
	Cur        *board.Line
	Moves      []board.Move // followed
	EngineLine string
	Number     int
}

// State is the game followed.
func (c *Core) State() GameState {
	g := &c.game
	return GameState{OK: g.ok, Err: g.err, Cur: g.cur, Moves: g.moves, EngineLine: g.engineLine(), Number: g.number}
}

// nullEngine swallows what it is sent and says nothing, without a
// goroutine.
type nullEngine struct{ exited chan struct{} }

func (nullEngine) WriteLine(string) error    { return nil }
func (nullEngine) Stdout() io.Reader         { return strings.NewReader("") }
func (e nullEngine) Exited() <-chan struct{} { return e.exited }
func (nullEngine) Quit(time.Duration)        {}
func (nullEngine) Kill()                     {}
func (nullEngine) ExitErr() error            { return nil }

// MaxPoisons is how many deaths in searches the core gives up after.
const MaxPoisons = maxPoisons

// Made is what a change of settings makes anew: the chooser, the books
// opened, the log's file (each compared by identity), read on the loop.
func (c *Core) Made() (chooser any, books []*book.Book, log any) {
	c.onLoop(func() { chooser, books, log = c.books.chooser, slices.Clone(c.books.open), c.log.File() })
	return chooser, books, log
}

// Setting is the value of setting s, read on the loop.
func (c *Core) Setting(s config.Setting) (v string) {
	c.onLoop(func() { v = s.Value(c.settings) })
	return v
}
