package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/polyproxy/polyproxy/internal/filelock"
)

// stopSignals are the signals a book tool stops on: Ctrl-C (SIGINT),
// kill's default (SIGTERM), and a terminal or ssh session closing
// (SIGHUP).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// interrupt stops a book tool on a stop signal, the same way for every
// tool: the temporary files are removed (the outputs', and the tool's
// own: onStop), every output is left as it was, one message says so,
// and the process exits with 128 + the signal's number, as a shell
// reports a process the signal killed.
//
// Once the tool puts its outputs in place (finish), a signal waits for
// that and is then ignored: the work is done, and the tool ends as it
// would have.
type interrupt struct {
	e    *env
	sigs chan os.Signal
	done chan struct{}
	once sync.Once
	// ctx ends on a stop signal, with errStopped: a wait in finish before
	// anything is written (for a book's lock) ends with it, and the tool
	// stops as it would have before finish.
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu        sync.Mutex // held by finish, and by the handler from the signal on
	finishing bool
	cleanups  []func()
}

// halt is the process stopping on a signal: once begun, nothing else
// reports or exits (exitCode waits), and returned tells the handler the
// tool's goroutine has come back (its files closed).
var halt struct {
	begun        atomic.Bool
	returned     chan struct{}
	once, closed sync.Once
}

// haltGrace is how long the handler waits for the tool's goroutine to
// come back before it exits anyway: a tool blocked reading a pipe that
// sends nothing never does. (The signal tests, which block tools on
// purpose, wait less.)
var haltGrace = time.Second

func catchSignals(e *env) *interrupt {
	halt.once.Do(func() { halt.returned = make(chan struct{}) })
	s := &interrupt{e: e, sigs: make(chan os.Signal, 1), done: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancelCause(context.Background())
	signal.Notify(s.sigs, stopSignals...)
	go func() {
		select {
		case sig := <-s.sigs:
			s.handle(sig)
		case <-s.done:
		}
	}()
	return s
}

// onStop adds a cleanup the handler runs (make-book's sorted runs).
func (s *interrupt) onStop(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cleanups = append(s.cleanups, f)
}

// pauseBeforeFinish, when set, runs before a tool puts its outputs in
// place: the signal tests stop the tools there, their outputs written
// beside their files.
var pauseBeforeFinish func()

// errStopped ends the interrupt's ctx on a stop signal.
var errStopped = errors.New("stopped by a signal")

// finish runs put, which puts the outputs in place, with signals held:
// a wait in put that ends with the interrupt's ctx (errStopped, nothing
// written yet) lets the signal stop the tool after all.
func (s *interrupt) finish(put func() error) error {
	if pauseBeforeFinish != nil {
		pauseBeforeFinish()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finishing = true
	err := s.stoppedBy(put())
	if errors.Is(err, errStopped) {
		s.finishing = false
	}
	return err
}

// stoppedBy is err, from a wait that ended with the interrupt's ctx or
// not: when it did, the signal stops the tool, which reports nothing.
func (s *interrupt) stoppedBy(err error) error {
	if errors.Is(err, errStopped) {
		halt.begun.Store(true) // before the tool can report err
	}
	return err
}

// lockWait is the interrupt's ctx, with a word to the user whenever a
// wait for the lock of the book at path begins.
func (s *interrupt) lockWait(path string) context.Context {
	return filelock.OnWait(s.ctx, func() {
		fmt.Fprintf(s.e.stderr, "%s: waiting for the lock of %s (another program is writing it); Ctrl-C stops without writing\n", s.e.cmd, path)
	})
}

func (s *interrupt) handle(sig os.Signal) {
	s.cancel(errStopped) // a wait in finish ends, nothing written
	s.mu.Lock()          // never unlocked: the process exits, or the tool ends
	if s.finishing {
		s.mu.Unlock()
		return
	}
	halt.begun.Store(true)
	cleanup := func() {
		s.e.outs.Abort()
		for _, f := range s.cleanups {
			f()
		}
	}
	cleanup()
	// Files the tool still held open (Windows removes no open file) are
	// removed once it has come back.
	select {
	case <-halt.returned:
		cleanup()
	case <-time.After(haltGrace):
	}
	code := 130
	if n, ok := sig.(syscall.Signal); ok {
		code = 128 + int(n)
	}
	fmt.Fprintf(s.e.stderr, "%s: stopped by %v: temporary files removed; no file written\n", s.e.cmd, sig)
	os.Exit(code)
}

func (s *interrupt) release() {
	s.once.Do(func() {
		signal.Stop(s.sigs)
		close(s.done)
	})
}

// awaitHalt, in the one place that reports a tool's end, waits for ever
// when a signal is stopping the process: the handler says what happened
// and exits.
func awaitHalt() {
	if halt.begun.Load() {
		halt.closed.Do(func() { close(halt.returned) })
		select {}
	}
}
