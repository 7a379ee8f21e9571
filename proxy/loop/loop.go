// Package loop is the proxy's event loop: one goroutine that owns the
// proxy's state hands it every event, one at a time, through one handler,
// so that nothing the handler touches needs a lock.
//
// On Linux it is the poll loop (poll_linux.go): one thread waits in
// poll(2) on the GUI's input and the engine's output and does the work
// inline, as a C relay does. Elsewhere, or when the GUI's input cannot be
// polled as it is, it is the goroutine loop: a goroutine reads the GUI,
// another the engine, and they post their lines as events. Either way
// other goroutines (a timer, the engine's exit, a book's check, the
// learning worker) post calls (Post), which run on the loop as events of
// their own.
package loop

import (
	"bytes"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/polyproxy/polyproxy/uci"
)

// Handler handles the loop's events, one at a time, on the loop's
// goroutine. Every event ends with Settle.
type Handler interface {
	// GUILines handles lines the GUI sent, without their ends; end is set
	// when its input ended (io.EOF, or the read's error).
	GUILines(lines []string, end error)
	// EngineOutput handles whole lines of the engine attached last, each
	// ending in '\n' (valid during the call only; the handler may change
	// them in place); end is set when its output ended. An error ends the
	// run.
	EngineOutput(data []byte, end error) error
	// Settle ends every event (failed: the error that ended the event's
	// handling): ended reports that the run ends here, err why it failed.
	Settle(failed error) (ended bool, err error)
	// QuitRead reports that the GUI's quit has been read: its input is
	// read no further.
	QuitRead() bool
	// AnswerDue reports, and forgets, that what the event wrote makes an
	// answer due within microseconds: the poll loop then waits actively
	// for a moment before it sleeps.
	AnswerDue() bool
}

// Engine is what the loop needs of an engine: its output, and its exit.
type Engine interface {
	Stdout() io.Reader
	Exited() <-chan struct{}
}

// Loop is the proxy's loop. Create it with New, attach the engine, then
// Run it.
type Loop struct {
	h      Handler
	stdin  io.Reader
	events chan event    // what other goroutines hand the loop
	done   chan struct{} // closed by Close: readers and posters end
	closed sync.Once
	// gen counts the engines attached: the output and the exit of an
	// older one are a dead engine's last words, and dropped.
	gen int
	// poll is the poll loop (Linux) when it runs, else nil: the goroutine
	// loop. Set by New, never changed after.
	poll *pollLoop
}

// event is one thing the loop hands the handler.
type event struct {
	kind  eventKind
	gen   int      // engineEvent: the engine attached when it was read
	lines []string // guiEvent: the GUI's lines as one read delivered them
	data  []byte   // engineEvent: the engine's whole lines
	err   error    // guiEvent, engineEvent: set when that input ended
	batch *engineBatch
	call  func() // callEvent
}

type eventKind int

const (
	guiEvent eventKind = iota
	engineEvent
	callEvent
)

// New is the loop for the GUI's input stdin (nil: none, for a caller that
// hands the handler its events itself) and the handler h: the poll loop
// when stdin is a descriptor poll(2) can wait on as it is, else the
// goroutine loop.
func New(stdin io.Reader, h Handler) *Loop {
	l := &Loop{h: h, stdin: stdin, events: make(chan event, 64), done: make(chan struct{})}
	l.poll = newPollLoop(l, stdin)
	return l
}

// Polling reports whether the poll loop runs (else the goroutine loop).
func (l *Loop) Polling() bool { return l.poll != nil }

// Spins is how many times the poll loop has waited actively for an
// answer due (Handler.AnswerDue) so far, for the log; 0 for the goroutine
// loop.
func (l *Loop) Spins() int { return l.poll.spinsSoFar() }

// Run runs the loop until the handler ends the run; it returns the
// handler's error.
func (l *Loop) Run() error {
	if l.poll != nil {
		return l.poll.run()
	}
	if l.stdin != nil {
		go l.readGUI()
	}
	for {
		if ended, err := l.dispatch(<-l.events); ended {
			return err
		}
	}
}

// Close ends the loop's goroutines: a reader or a poster then gives up
// instead of waiting for a loop that no longer runs.
func (l *Loop) Close() {
	l.closed.Do(func() {
		close(l.done)
		if l.poll != nil {
			l.poll.close()
		}
	})
}

// dispatch hands one event to the handler, and ends it.
func (l *Loop) dispatch(ev event) (ended bool, err error) {
	var failed error
	switch ev.kind {
	case guiEvent:
		l.h.GUILines(ev.lines, ev.err)
	case engineEvent:
		if ev.gen == l.gen { // else a dead engine's last words
			failed = l.h.EngineOutput(ev.data, ev.err)
		}
		if ev.batch != nil {
			batchPool.Put(ev.batch)
		}
	case callEvent:
		ev.call()
	}
	return l.h.Settle(failed)
}

// Post runs f on the loop, as an event of its own; any goroutine may
// call it. false: the loop is closed, and f will not run.
func (l *Loop) Post(f func()) bool { return l.post(event{kind: callEvent, call: f}) }

// post hands an event to the loop, and wakes the poll loop for it.
func (l *Loop) post(ev event) bool {
	select {
	case <-l.done:
		return false // closed already: the channel's room does not count
	default:
	}
	select {
	case l.events <- ev:
	case <-l.done:
		return false
	}
	if l.poll != nil {
		l.poll.wake()
	}
	return true
}

// Attach takes eng as the engine: its output is read (by the poll loop
// itself when it can, else by a goroutine) and handed to EngineOutput,
// and exited runs on the loop when it ends, as long as no other engine
// was attached since.
func (l *Loop) Attach(eng Engine, exited func()) {
	l.gen++
	gen := l.gen
	go func() {
		select {
		case <-eng.Exited():
			l.Post(func() {
				if gen == l.gen {
					exited()
				}
			})
		case <-l.done:
		}
	}()
	if l.poll == nil || !l.poll.attach(eng) {
		go l.readEngine(gen, eng.Stdout())
	}
}

// Timer is a timer whose work runs on the loop: only for its latest
// start, and only while it is set.
type Timer struct {
	t   *time.Timer
	gen int
	set bool
}

// Start (re)starts t: f runs on the loop after d, unless t is stopped or
// started again before.
func (l *Loop) Start(t *Timer, d time.Duration, f func()) {
	t.Stop()
	t.gen++
	t.set = true
	gen := t.gen
	t.t = time.AfterFunc(d, func() {
		l.Post(func() {
			if t.set && t.gen == gen {
				t.set = false
				f()
			}
		})
	})
}

// Stop unsets t: what it would do is not done.
func (t *Timer) Stop() {
	if t.t != nil {
		t.t.Stop()
	}
	t.set = false
}

// readGUI hands the GUI's lines to the loop, a batch at a time (the
// goroutine loop's reader).
func (l *Loop) readGUI() {
	lr := uci.NewLineReader(l.stdin, 64<<10)
	for {
		var lines []string
		for {
			line, err := lr.ReadLine()
			if err != nil {
				l.post(event{kind: guiEvent, lines: lines, err: err})
				return
			}
			lines = append(lines, string(line))
			if !lr.HasBufferedLine() {
				break
			}
		}
		if !l.post(event{kind: guiEvent, lines: lines}) {
			return
		}
		// Let the loop answer on this thread before our next read blocks
		// it in a system call: saves a thread hand-off per command.
		runtime.Gosched()
	}
}

// engineBatch is a reader goroutine's buffer of an engine's whole lines,
// each ending in '\n'.
type engineBatch struct{ data []byte }

// batchPool recycles engine batches: a flood of info lines then costs no
// allocation per batch.
var batchPool = sync.Pool{New: func() any { return &engineBatch{data: make([]byte, 0, 64<<10)} }}

// readEngine hands an engine's output (attached as gen) to the loop in
// chunks of whole lines, as they arrive: a lone line goes at once, and a
// flood costs one read, one hand-over and one GUI write per chunk, not
// per line (the relay must keep up with cat). Lines of any length are
// kept whole. The last chunk carries the end of the output (its err).
func (l *Loop) readEngine(gen int, r io.Reader) {
	var carry []byte // the start of a line not yet complete
	for {
		b := batchPool.Get().(*engineBatch)
		b.data = append(b.data[:0], carry...)
		carry = carry[:0]
		for {
			if cap(b.data)-len(b.data) < 16<<10 {
				b.data = append(b.data, make([]byte, 64<<10)...)[:len(b.data)]
			}
			n, err := r.Read(b.data[len(b.data):cap(b.data)])
			b.data = b.data[:len(b.data)+n]
			if err != nil {
				if len(b.data) > 0 && b.data[len(b.data)-1] != '\n' {
					b.data = append(b.data, '\n') // a last line without its end
				}
				l.post(event{kind: engineEvent, gen: gen, data: b.data, err: err, batch: b})
				return
			}
			if last := bytes.LastIndexByte(b.data, '\n'); last >= 0 {
				carry = append(carry, b.data[last+1:]...)
				b.data = b.data[:last+1]
				break
			}
		}
		if !l.post(event{kind: engineEvent, gen: gen, data: b.data, batch: b}) {
			return
		}
	}
}
