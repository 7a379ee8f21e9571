package core_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/proxy"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/loop"
)

// handCore is a core started without its loop (Core.Start), handed the
// GUI's lines and the engine's by the test on its own goroutine, as the
// loop hands them, without goroutines or pipes: what "inside the proxy"
// costs.
type handCore struct {
	*core.Core
	h     loop.Handler
	lines []string // a GUI line's event, reused: a loop's reads cost no allocation per line either
}

// byHand is a core ready to take the GUI's lines directly, its front
// chosen by the first, its engine a null one past its handshake.
// weighted chooses a book move by weight.
func byHand(tb testing.TB, bookPath string, obs core.GameObserver, weighted ...bool) (*handCore, *countingWriter) {
	cfg := testConfig(tb, bookPath)
	if len(weighted) > 0 && weighted[0] {
		cfg.BookMode = book.Weighted
	}
	a := core.New(cfg, core.Options{Observer: obs, StartEngine: func() (core.Engine, error) { return nullEngine{make(chan struct{})}, nil }})
	w := &countingWriter{}
	h, err := a.Start(w, proxy.NewFront(a))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(a.Close)
	hc := &handCore{Core: a, h: h}
	if _, err := hc.EngineEvent([]byte("uciok\n")); err != nil {
		tb.Fatal(err)
	}
	return hc, w
}

// GUILine hands the front one line of the GUI's, inside an event.
func (a *handCore) GUILine(line string) {
	a.lines = append(a.lines[:0], line)
	a.h.GUILines(a.lines, nil)
}

// GUIEvent is an event of lines of the GUI's, handled and ended.
func (a *handCore) GUIEvent(lines ...string) (ended bool, err error) {
	a.h.GUILines(lines, nil)
	return a.h.Settle(nil)
}

// EngineEvent is an event of the engine's whole lines, handled and ended.
func (a *handCore) EngineEvent(data []byte) (ended bool, err error) {
	return a.h.Settle(a.h.EngineOutput(data, nil))
}

// EngineLines hands the engine's whole lines to their handler, inside an
// event.
func (a *handCore) EngineLines(data []byte) { a.h.EngineOutput(data, nil) }

// FlushGUI ends the event: what the GUI is owed is written out.
func (a *handCore) FlushGUI() { a.h.Settle(nil) }

// Soon reports whether the last event made an answer due at once, and
// clears it.
func (a *handCore) Soon() bool { return a.h.AnswerDue() }

// nullEngine swallows what it is sent and says nothing.
type nullEngine struct{ exited chan struct{} }

func (nullEngine) WriteLine(string) error    { return nil }
func (nullEngine) Stdout() io.Reader         { return strings.NewReader("") }
func (e nullEngine) Exited() <-chan struct{} { return e.exited }
func (nullEngine) Quit(time.Duration)        {}
func (nullEngine) Kill()                     {}
func (nullEngine) ExitErr() error            { return nil }
