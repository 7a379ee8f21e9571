package ucitest

import (
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Engine is the fake engine running in-process, driven as a process is:
// it has the methods of the core's Engine interface, and records what
// it was sent.
type Engine struct {
	in     *inbox
	outR   *io.PipeReader
	outW   *io.PipeWriter
	exited chan struct{}
	cancel context.CancelFunc
	once   sync.Once

	mu       sync.Mutex
	received []string
	misuse   []string
	exitErr  error
}

// Start starts a fake engine with settings s.
func Start(s Settings) *Engine {
	ctx, cancel := context.WithCancel(context.Background())
	e := &Engine{in: newInbox(), exited: make(chan struct{}), cancel: cancel}
	e.outR, e.outW = io.Pipe()
	onMisuse := s.OnMisuse
	s.OnMisuse = func(line string) {
		e.mu.Lock()
		e.misuse = append(e.misuse, line)
		e.mu.Unlock()
		if onMisuse != nil {
			onMisuse(line)
		}
	}
	go func() {
		var err error
		if code := Serve(ctx, e.in, e.outW, s); code != ExitOK {
			err = errors.New("exit status " + strconv.Itoa(code))
		}
		e.end(err)
	}()
	return e
}

// errKilled is how a killed engine ended.
var errKilled = errors.New("killed")

// end ends the engine once, as a process ends: its output closes first
// (so it says nothing more; writes blocked in it fail), then it stops, and
// Exited is closed.
func (e *Engine) end(err error) {
	e.once.Do(func() {
		e.mu.Lock()
		e.exitErr = err
		e.mu.Unlock()
		e.outW.Close()
		e.cancel()
		e.in.close()
		close(e.exited)
	})
}

// WriteLine sends the engine one line; it never blocks, as a write into a
// pipe's buffer does not.
func (e *Engine) WriteLine(s string) error {
	select {
	case <-e.exited:
		return io.ErrClosedPipe
	default:
	}
	e.mu.Lock()
	e.received = append(e.received, s)
	e.mu.Unlock()
	return e.in.write(s)
}

// Stdout is the engine's output.
func (e *Engine) Stdout() io.Reader { return e.outR }

// Exited is closed once the engine has ended.
func (e *Engine) Exited() <-chan struct{} { return e.exited }

// ExitErr is how the engine ended: nil for a clean exit, "exit status 3"
// for a crash, "killed".
func (e *Engine) ExitErr() error {
	<-e.exited
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.exitErr
}

// Kill ends the engine at once, as a crash does: its output closes.
func (e *Engine) Kill() { e.end(errKilled) }

// Quit sends quit, gives the engine grace to leave, then kills it.
func (e *Engine) Quit(grace time.Duration) {
	e.WriteLine("quit")
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-e.exited:
	case <-t.C:
		e.Kill()
	}
}

// Say writes lines to the engine's output as if it printed them.
func (e *Engine) Say(lines ...string) {
	for _, l := range lines {
		if _, err := io.WriteString(e.outW, l+"\n"); err != nil {
			return
		}
	}
}

// Output is the engine's output, to write to as if it printed what is
// written (whole lines); each write reaches the reader as one.
func (e *Engine) Output() io.Writer { return e.outW }

// Received is every line the engine was sent, in order.
func (e *Engine) Received() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.received)
}

// Misused is every command it got that a real engine would choke on (see
// Settings.OnMisuse).
func (e *Engine) Misused() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.misuse)
}

// inbox is the engine's input: lines queue without limit, so the sender
// never waits for the engine (which may be sleeping, as a slow one does).
type inbox struct {
	mu     sync.Mutex
	more   *sync.Cond
	buf    []byte
	closed bool
}

func newInbox() *inbox {
	b := &inbox{}
	b.more = sync.NewCond(&b.mu)
	return b
}

func (b *inbox) write(s string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return io.ErrClosedPipe
	}
	b.buf = append(append(b.buf, s...), '\n')
	b.more.Signal()
	return nil
}

func (b *inbox) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.buf) == 0 && !b.closed {
		b.more.Wait()
	}
	if len(b.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

func (b *inbox) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.more.Broadcast()
}
