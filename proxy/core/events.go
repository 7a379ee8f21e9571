package core

import (
	"time"
)

// event is one thing the loop handles. Both loops hand every event to
// dispatch: the goroutine loop receives them all from the events channel;
// the poll loop makes the GUI's and the engine's reads into events itself
// and receives the rest (timers, the engine's exit, a book's check, the
// observer's words, an engine read by a goroutine) from the same channel
// when it is woken.
type event struct {
	kind eventKind
	// gen is the engine start an engine event comes from, or the start of
	// the timer that fired: an older one's event is stale and dropped.
	gen   int
	lines []string // evGUI: the GUI's lines as one read delivered them
	data  []byte   // evEngine: the engine's whole lines, each ending in '\n'
	// err (evGUI, evEngine) is set when that input ended: io.EOF or the
	// read's error.
	err     error
	batch   *engineBatch // evEngine from a reader goroutine: recycled once handled
	verdict bookVerdict  // evBookVerdict
	call    func()       // evCall
}

type eventKind int

const (
	evGUI           eventKind = iota // lines of the GUI's
	evEngine                         // lines of the engine's
	evEngineExited                   // the engine process ended
	evBookVerdict                    // a book's check in the background is done
	evQuitWait                       // a quit has waited long enough (QuitWait) for the answers owed before it
	evDrain                          // the engine has had its grace to leave after quit
	evSlowHandshake                  // the engine has not finished its handshake in time
	evObserverSaid                   // the observer logged or warned
	// evCall runs a function on the loop, between events: another
	// goroutine's look at the loop's state (onLoop).
	evCall
)

// dispatch handles one event, then ends it (afterEvent): ended is true
// when the run ends here (err: why, if it failed).
func (c *Core) dispatch(ev event) (ended bool, err error) {
	switch ev.kind {
	case evGUI:
		c.onGUIBatch(ev.lines, ev.err)
	case evEngine:
		if ev.gen == c.engine.gen { // else a dead engine's last words
			err = c.onEngineOutput(ev.data, ev.err)
		}
		if ev.batch != nil {
			batchPool.Put(ev.batch)
		}
	case evEngineExited:
		if ev.gen == c.engine.gen {
			c.onEngineExited()
		}
	case evBookVerdict:
		c.onBookVerdict(ev.verdict)
	case evQuitWait:
		if c.end.wait.fired(ev) {
			c.onQuitWaitOver()
		}
	case evDrain:
		if c.end.drain.fired(ev) {
			c.onDrainOver()
		}
	case evSlowHandshake:
		if c.engine.slowHandshake.fired(ev) {
			c.onSlowHandshake()
		}
	case evObserverSaid:
		c.onObserverSaid()
	case evCall:
		ev.call()
	}
	return c.afterEvent(err)
}

// post hands an event to the loop from another goroutine, and wakes the
// poll loop for it; false: the run is over, and nobody takes it.
func (c *Core) post(ev event) bool {
	if !sendOrDone(c.events, ev, c.done) {
		return false
	}
	c.kick()
	return true
}

// onLoop runs f on the loop, between events, and waits for it: for a
// goroutine that looks at the loop's state. false: the run is over, and f
// did not run.
func (c *Core) onLoop(f func()) bool {
	done := make(chan struct{})
	if !c.post(event{kind: evCall, call: func() { f(); close(done) }}) {
		return false
	}
	select {
	case <-done:
		return true
	case <-c.done:
		return false
	}
}

// loopTimer is a timer of the loop's: its event counts only while it is
// set, and only for its latest start.
type loopTimer struct {
	t   *time.Timer
	gen int
	set bool
}

// start (re)starts the timer: an event of kind comes after d.
func (c *Core) startTimer(lt *loopTimer, kind eventKind, d time.Duration) {
	lt.stop()
	lt.gen++
	lt.set = true
	gen := lt.gen
	lt.t = time.AfterFunc(d, func() { c.post(event{kind: kind, gen: gen}) })
}

// stop unsets the timer: an event it already sent is dropped.
func (lt *loopTimer) stop() {
	if lt.t != nil {
		lt.t.Stop()
	}
	lt.set = false
}

// fired reports whether ev is the timer's, set and of its latest start;
// the timer is then unset.
func (lt *loopTimer) fired(ev event) bool {
	if !lt.set || ev.gen != lt.gen {
		return false
	}
	lt.set = false
	return true
}

// watchExit posts the engine's exit (start gen) to the loop.
func (c *Core) watchExit(exited <-chan struct{}, gen int) {
	select {
	case <-exited:
		c.post(event{kind: evEngineExited, gen: gen})
	case <-c.done:
	}
}
