package loop_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/proxy/loop"
)

// handler writes down the events it is handed, one string each, and ends
// the run when told.
type handler struct {
	events chan string
	end    bool // the next Settle ends the run
	quit   bool
}

func newHandler() *handler { return &handler{events: make(chan string, 64)} }

func (h *handler) GUILines(lines []string, end error) {
	h.events <- "gui " + strings.Join(lines, "|") + endWord(end)
}

func (h *handler) EngineOutput(data []byte, end error) error {
	h.events <- "engine " + strings.ReplaceAll(string(data), "\n", "|") + endWord(end)
	if end != nil {
		h.end = true
	}
	return nil
}

func (h *handler) Settle(failed error) (bool, error) { return h.end, failed }
func (h *handler) QuitRead() bool                    { return h.quit }
func (h *handler) AnswerDue() bool                   { return false }

func endWord(err error) string {
	if err == nil {
		return ""
	}
	return " (end)"
}

// next is the next event, within a time.
func (h *handler) next(t *testing.T) string {
	t.Helper()
	select {
	case ev := <-h.events:
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event for 5 s")
	}
	return ""
}

// engine is an engine whose output the test writes.
type engine struct {
	r      *io.PipeReader
	w      *io.PipeWriter
	exited chan struct{}
}

func newEngine() *engine {
	r, w := io.Pipe()
	return &engine{r: r, w: w, exited: make(chan struct{})}
}

func (e *engine) Stdout() io.Reader       { return e.r }
func (e *engine) Exited() <-chan struct{} { return e.exited }

// run runs l on a goroutine of its own; the result comes on done.
func run(l *loop.Loop) chan error {
	done := make(chan error, 1)
	go func() { done <- l.Run() }()
	return done
}

// The goroutine loop hands the handler the GUI's lines, a read at a time,
// and the end of its input; the engine's whole lines; calls posted by
// other goroutines; and ends when the handler says so.
func TestGoroutineLoop(t *testing.T) {
	guiR, guiW := io.Pipe()
	h := newHandler()
	l := loop.New(guiR, h)
	if l.Polling() {
		t.Fatal("the poll loop on a reader with no descriptor")
	}
	defer l.Close()
	e := newEngine()
	l.Attach(e, func() { h.events <- "exited" })
	done := run(l)
	io.WriteString(guiW, "uci\n")
	if ev := h.next(t); ev != "gui uci" {
		t.Fatalf("got %q", ev)
	}
	io.WriteString(e.w, "id name x\nuciok\nbestm")
	if ev := h.next(t); ev != "engine id name x|uciok|" {
		t.Fatalf("got %q", ev)
	}
	if !l.Post(func() { h.events <- "posted" }) || h.next(t) != "posted" {
		t.Fatal("a call posted did not run")
	}
	close(e.exited)
	if ev := h.next(t); ev != "exited" {
		t.Fatalf("got %q", ev)
	}
	guiW.Close()
	if ev := h.next(t); ev != "gui  (end)" {
		t.Fatalf("got %q", ev)
	}
	e.w.Close() // a last line without its end gets one
	if ev := h.next(t); ev != "engine bestm| (end)" {
		t.Fatalf("got %q", ev)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	l.Close()
	if l.Post(func() { t.Error("ran after the loop closed") }) {
		t.Error("a call posted to a closed loop was taken")
	}
}

// What an engine attached before the latest says, and its exit, are a
// dead engine's last words: dropped.
func TestStaleEngineDropped(t *testing.T) {
	h := newHandler()
	l := loop.New(nil, h)
	defer l.Close()
	old, cur := newEngine(), newEngine()
	l.Attach(old, func() { h.events <- "old exited" })
	l.Attach(cur, func() { h.events <- "exited" })
	done := run(l)
	go io.WriteString(old.w, "bestmove a1a2\n")
	close(old.exited)
	io.WriteString(cur.w, "readyok\n")
	if ev := h.next(t); ev != "engine readyok|" {
		t.Fatalf("got %q", ev)
	}
	close(cur.exited)
	if ev := h.next(t); ev != "exited" {
		t.Fatalf("got %q", ev)
	}
	cur.w.CloseWithError(errors.New("gone"))
	if ev := h.next(t); ev != "engine  (end)" {
		t.Fatalf("got %q", ev)
	}
	<-done
}

// A timer's work runs on the loop once, for its latest start, and not at
// all once it is stopped.
func TestTimer(t *testing.T) {
	h := newHandler()
	l := loop.New(nil, h)
	defer l.Close()
	e := newEngine()
	l.Attach(e, func() {})
	done := run(l)
	var stopped, restarted, fired loop.Timer
	l.Post(func() {
		l.Start(&stopped, time.Millisecond, func() { h.events <- "stopped fired" })
		stopped.Stop()
		l.Start(&restarted, time.Hour, func() { h.events <- "first start fired" })
		l.Start(&restarted, time.Millisecond, func() { h.events <- "restarted" })
		l.Start(&fired, 20*time.Millisecond, func() { h.events <- "fired" })
	})
	if a, b := h.next(t), h.next(t); a != "restarted" || b != "fired" {
		t.Fatalf("got %q, %q", a, b)
	}
	e.w.Close()
	if ev := h.next(t); ev != "engine  (end)" {
		t.Fatalf("got %q", ev)
	}
	<-done
}
