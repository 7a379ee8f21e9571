package core

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// observerQueue is the GameObserver, if any, with the calls the loop has
// queued for it. They are made after the GUI's output is flushed, and,
// once Run has started the worker, on a goroutine of their own, in order:
// learning writes into books under a file lock another process may hold
// for a while, and syncs them, and none of that may hold up an answer to
// the GUI. What the observer says (its log lines and warnings) comes back
// to the loop (said), which alone writes to the log and the GUI.
type observerQueue struct {
	obs    GameObserver // nil: none
	queued []func(GameObserver)
	// urgent: a queued call ends a game or changes the settings (laterNow),
	// and the worker is woken for it at once. The game's other calls (its
	// moves) wait for the next such call, or until observerBatch of them
	// are pending: waking the worker's thread at every move took a CPU
	// from the engine on a small machine (about 20 µs per move through the
	// xboard front on 2 loaded cores, bench X2 and X3).
	urgent bool

	// The worker, once started.
	mu       sync.Mutex
	pending  []func(GameObserver) // handed over, not yet made
	stopping bool                 // no calls after pending
	wake     chan struct{}        // cap 1: pending has calls
	ended    chan struct{}        // closed when the worker is done
	// What the observer said, for the loop: tell posts it to the loop
	// (nil until the worker starts), once until the loop has taken it.
	words []observerWords
	tell  func()
	told  atomic.Bool
	// said is set when the observer says something: the end of the run,
	// which no longer has the loop, passes the words on as they come.
	said chan struct{}
}

// observerWords is one line the observer logged; warn: it is a warning,
// for stderr and the GUI too.
type observerWords struct {
	msg  string
	warn bool
}

// observerBatch is how many calls may wait for the worker.
const observerBatch = 64

// later queues a call to the observer, if there is one. f must capture
// values, not the core's state, which may have moved on by then.
func (q *observerQueue) later(f func(GameObserver)) {
	if q.obs != nil {
		q.queued = append(q.queued, f)
	}
}

// laterNow is later for a call the worker must make without waiting for
// more: one that ends a game (its learning lands at once) or changes the
// settings.
func (q *observerQueue) laterNow(f func(GameObserver)) {
	if q.obs != nil {
		q.queued = append(q.queued, f)
		q.urgent = true
	}
}

// start runs the worker that makes the calls from now on; tell hands the
// loop an event when the observer said something.
func (q *observerQueue) start(tell func()) {
	q.wake, q.ended = make(chan struct{}, 1), make(chan struct{})
	q.mu.Lock()
	q.tell, q.said = tell, make(chan struct{}, 1)
	q.mu.Unlock()
	go q.work()
}

// run hands the queued calls to the worker; before it starts (tests that
// drive the loop's handlers directly) it makes them itself.
func (q *observerQueue) run() {
	if len(q.queued) == 0 {
		return
	}
	if q.wake == nil {
		for i := 0; i < len(q.queued); i++ {
			q.queued[i](q.obs)
		}
	} else {
		q.mu.Lock()
		q.pending = append(q.pending, q.queued...)
		wake := q.urgent || len(q.pending) >= observerBatch
		q.mu.Unlock()
		if wake {
			signal(q.wake)
		}
	}
	q.urgent = false
	clear(q.queued)
	q.queued = q.queued[:0]
}

// stop queues Close after the calls still to make and waits until all are
// made: the last game is learned before the run ends. What the observer
// says meanwhile goes to pass as it is said: a host that kills the proxy
// at its grace after quit (cutechess-cli's 5 s) keeps the lines said.
func (q *observerQueue) stop(pass func()) {
	q.laterNow(GameObserver.Close)
	q.run()
	if q.wake == nil {
		return
	}
	q.mu.Lock()
	q.stopping = true
	q.mu.Unlock()
	signal(q.wake)
	for {
		select {
		case <-q.ended:
			return
		case <-q.said:
			pass()
		}
	}
}

func (q *observerQueue) work() {
	defer close(q.ended)
	for range q.wake {
		q.mu.Lock()
		calls, stopping := q.pending, q.stopping
		q.pending = nil
		q.mu.Unlock()
		for _, f := range calls {
			f(q.obs)
		}
		if stopping {
			q.mu.Lock()
			done := len(q.pending) == 0
			q.mu.Unlock()
			if done {
				return
			}
		}
	}
}

// logf and warnf are the observer's log (UseLog), from its goroutine.
func (q *observerQueue) logf(format string, args ...any) { q.say(false, format, args...) }
func (q *observerQueue) warnf(format string, args ...any) {
	q.say(true, format, args...)
}

func (q *observerQueue) say(warn bool, format string, args ...any) {
	q.mu.Lock()
	q.words = append(q.words, observerWords{fmt.Sprintf(format, args...), warn})
	tell := q.tell
	if q.said != nil {
		signal(q.said)
	}
	q.mu.Unlock()
	if tell != nil && !q.told.Swap(true) {
		tell()
	}
}

// onObserverSaid passes on what the observer said: to the log, and its
// warnings to stderr and the GUI too.
func (c *Core) onObserverSaid() {
	q := &c.observer
	q.told.Store(false) // words said from now on are told again
	q.mu.Lock()
	words := q.words
	q.words = nil
	q.mu.Unlock()
	for _, w := range words {
		if w.warn {
			c.notify("%s", w.msg)
		} else {
			c.log.printf("%s", w.msg)
		}
	}
}

// signal sets a channel of capacity 1 without waiting: set is set.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
