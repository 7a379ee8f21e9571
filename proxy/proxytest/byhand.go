package proxytest

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/loop"
)

// HandCore is a core started without its loop (Core.Start), handed the
// GUI's lines and the engine's by the test, on its own goroutine, as the
// loop hands them: without goroutines or pipes, what "inside the proxy"
// costs. Its engine is a null one, past its handshake.
type HandCore struct {
	*core.Core
	h     loop.Handler
	lines []string // a GUI line's event, reused: a loop's reads cost no allocation per line either
}

// ByHand starts a core for cfg and obs by hand, behind the front front
// makes; what it writes to the GUI goes to out (nil: nowhere).
func ByHand(tb testing.TB, cfg *config.Config, front func(*core.Core) core.Front, obs core.GameObserver, out io.Writer) *HandCore {
	tb.Helper()
	if out == nil {
		out = io.Discard
	}
	a := core.New(cfg, core.Options{Observer: obs, StartEngine: func() (core.Engine, error) { return nullEngine{make(chan struct{})}, nil }})
	h, err := a.Start(out, front(a))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(a.Close)
	hc := &HandCore{Core: a, h: h}
	if _, err := hc.EngineEvent([]byte("uciok\n")); err != nil {
		tb.Fatal(err)
	}
	return hc
}

// GUILine hands the front one line of the GUI's, inside an event.
func (a *HandCore) GUILine(line string) {
	a.lines = append(a.lines[:0], line)
	a.h.GUILines(a.lines, nil)
}

// GUIEvent is an event of lines of the GUI's, handled and ended.
func (a *HandCore) GUIEvent(lines ...string) (ended bool, err error) {
	a.h.GUILines(lines, nil)
	return a.h.Settle(nil)
}

// EngineEvent is an event of the engine's whole lines, handled and ended.
func (a *HandCore) EngineEvent(data []byte) (ended bool, err error) {
	return a.h.Settle(a.h.EngineOutput(data, nil))
}

// EngineLines hands the engine's whole lines to their handler, inside an
// event.
func (a *HandCore) EngineLines(data []byte) { a.h.EngineOutput(data, nil) }

// FlushGUI ends the event: what the GUI is owed is written out.
func (a *HandCore) FlushGUI() { a.h.Settle(nil) }

// Soon reports whether the last event made an answer due at once, and
// clears it.
func (a *HandCore) Soon() bool { return a.h.AnswerDue() }

// nullEngine swallows what it is sent and says nothing.
type nullEngine struct{ exited chan struct{} }

func (nullEngine) WriteLine(string) error    { return nil }
func (nullEngine) Stdout() io.Reader         { return strings.NewReader("") }
func (e nullEngine) Exited() <-chan struct{} { return e.exited }
func (nullEngine) Quit(time.Duration)        {}
func (nullEngine) Kill()                     {}
func (nullEngine) ExitErr() error            { return nil }

// Bestmoves counts the bestmove lines written to it, so that a benchmark
// can check it got the answers it measures.
type Bestmoves struct{ N int }

func (w *Bestmoves) Write(p []byte) (int, error) {
	w.N += strings.Count(string(p), "bestmove ")
	return len(p), nil
}
