// Package observe makes the proxy's calls to the game's observer (live
// learning) beside its loop: the loop queues them, and a worker of their
// own makes them in order, so that a slow call (a book locked by another
// process, a slow disk) never delays an answer to the GUI. What the
// observer says comes back to the loop, which alone writes to the log and
// the GUI.
package observe

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/learn"
)

// Observer follows the game for live learning (learn.Session has these
// methods). Every call comes from the queue's worker, in the order of the
// game's events.
type Observer interface {
	// UseLog gives the observer the core's log (logf) and a way to warn
	// (warnf: stderr, the log and the GUI); Start calls it first of all.
	UseLog(logf, warnf func(format string, args ...any))
	// SetLearning gives the learning settings: BookLearn, the books in use
	// (none when Book is off), resignation. the proxy calls it at the start and
	// after every setoption of ours; it holds for the calls after it.
	SetLearning(learn.Settings)
	NewGame()
	// Position and AfterBestmove pass the game's position, a value the
	// observer may keep, not the game's line: a move costs the same at
	// any length of game.
	Position(p board.Position, continues bool)
	// GameStart follows the Position that starts a game: when the GUI sent
	// it (the calls come later), the host's PGN file just after (a stat of
	// BookLearnPGN taken on the loop before its answer, the file's last
	// bytes read just after the answer), and the key of every position
	// from the GUI's base (its startpos or FEN) to it, the moves played
	// before we were asked anything (an opening suite's), so that learning
	// finds the game in the host's PGN from its start, among the games
	// written since.
	GameStart(at time.Time, line []board.Key, pgn learn.PGNStat)
	// BookMove passes the book entry played (stored in b) and line, the
	// keys of the game's positions from its start to the one it was
	// played in: the observer's own copy.
	BookMove(b *book.Book, line []board.Key, stored board.Move, whiteMoved bool)
	EngineScore(white bool, cp int, mate int, isMate bool)
	AfterBestmove(p board.Position)
	// GameResult ends the game with the result the GUI gave (CECP's
	// result command); Unknown ("*"): the game ended undecided.
	GameResult(o learn.Outcome, why string)
	Close()
}

// Queue is the Observer, if any, with the calls the loop has queued for
// it. The loop queues them as the game goes (Later, Now) and hands them
// over after the GUI's output is flushed (Flush); the worker makes them,
// in order: learning writes into books under a file lock another process
// may hold for a while, and syncs them, and none of that may hold up an
// answer to the GUI. What the observer says (its log lines and warnings)
// comes back to the loop (Said), which alone writes to the log and the
// GUI.
type Queue struct {
	obs    Observer // nil: none
	queued []func(Observer)
	// urgent: a queued call ends a game or changes the settings (Now),
	// and the worker is woken for it at once. The game's other calls (its
	// moves) wait for the next such call, or until batch of them are
	// pending: waking the worker's thread at every move took a CPU from
	// the engine on a small machine (about 20 µs per move through the
	// xboard front on 2 loaded cores, bench X2 and X3).
	urgent bool
	// afterOutput is work for the loop once the GUI's output is flushed,
	// before the calls are handed over (AfterOutput).
	afterOutput []func()

	// The worker's.
	mu       sync.Mutex
	pending  []func(Observer) // handed over, not yet made
	spare    []func(Observer) // the worker's last calls, made: the next pending, so handing over costs no allocation
	stopping bool             // no calls after pending
	wake     chan struct{}    // cap 1: pending has calls
	ended    chan struct{}    // closed when the worker is done
	// What the observer said, for the loop: tell hands the loop an event
	// for it, once until the loop has taken it.
	words []Words
	tell  func()
	told  atomic.Bool
	// said is set when the observer says something: the end of the run,
	// which no longer has the loop, passes the words on as they come.
	said chan struct{}
}

// Words is one line the observer logged; Warn: it is a warning, for
// stderr and the GUI too.
type Words struct {
	Msg  string
	Warn bool
}

// batch is how many calls may wait for the worker.
const batch = 64

// New is the queue of obs (nil: none, and the queue does nothing).
func New(obs Observer) *Queue { return &Queue{obs: obs} }

// On reports whether there is an observer: a caller that would work out
// what to pass it asks first.
func (q *Queue) On() bool { return q.obs != nil }

// Later queues a call to the observer, if there is one. f must capture
// values, not the caller's state, which may have moved on by then.
func (q *Queue) Later(f func(Observer)) {
	if q.obs != nil {
		q.queued = append(q.queued, f)
	}
}

// Now is Later for a call the worker must make without waiting for more:
// one that ends a game (its learning lands at once) or changes the
// settings.
func (q *Queue) Now(f func(Observer)) {
	if q.obs != nil {
		q.queued = append(q.queued, f)
		q.urgent = true
	}
}

// AfterOutput has f made on the loop at the next Flush, which follows the
// flush of the GUI's output, before the calls queued are handed over: work
// that the calls need done on the loop, soon, but after the answer (the
// host's PGN read as a game starts).
func (q *Queue) AfterOutput(f func()) {
	if q.obs != nil {
		q.afterOutput = append(q.afterOutput, f)
	}
}

// Start gives the observer its log (UseLog) and runs the worker that
// makes the calls from now on; tell hands the loop an event when the
// observer said something (Said). Without an observer it does nothing.
func (q *Queue) Start(tell func()) {
	if q.obs == nil {
		return
	}
	q.obs.UseLog(q.logf, q.warnf)
	q.wake, q.ended = make(chan struct{}, 1), make(chan struct{})
	q.mu.Lock()
	q.tell, q.said = tell, make(chan struct{}, 1)
	q.mu.Unlock()
	go q.work()
}

// Flush makes the loop's work after the output (AfterOutput), then hands
// the calls queued to the worker (once Start has run).
func (q *Queue) Flush() {
	for _, f := range q.afterOutput {
		f()
	}
	clear(q.afterOutput)
	q.afterOutput = q.afterOutput[:0]
	if len(q.queued) == 0 {
		return
	}
	q.mu.Lock()
	q.pending = append(q.pending, q.queued...)
	wake := q.urgent || len(q.pending) >= batch
	q.mu.Unlock()
	if wake {
		signal(q.wake)
	}
	q.urgent = false
	clear(q.queued)
	q.queued = q.queued[:0]
}

// Stop queues Close after the calls still to make and waits until all are
// made: the last game is learned before the run ends. What the observer
// says meanwhile goes to pass as it is said: a host that kills the proxy
// at its grace after quit (cutechess-cli's 5 s) keeps the lines said.
func (q *Queue) Stop(pass func()) {
	if q.obs == nil {
		return
	}
	q.Now(Observer.Close)
	q.Flush()
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

func (q *Queue) work() {
	defer close(q.ended)
	for range q.wake {
		q.mu.Lock()
		calls, stopping := q.pending, q.stopping
		q.pending, q.spare = q.spare, nil
		q.mu.Unlock()
		for _, f := range calls {
			f(q.obs)
		}
		clear(calls)
		q.mu.Lock()
		q.spare = calls[:0]
		q.mu.Unlock()
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
func (q *Queue) logf(format string, args ...any)  { q.say(false, format, args...) }
func (q *Queue) warnf(format string, args ...any) { q.say(true, format, args...) }

func (q *Queue) say(warn bool, format string, args ...any) {
	q.mu.Lock()
	q.words = append(q.words, Words{fmt.Sprintf(format, args...), warn})
	tell := q.tell
	if q.said != nil {
		signal(q.said)
	}
	q.mu.Unlock()
	if tell != nil && !q.told.Swap(true) {
		tell()
	}
}

// Said takes what the observer said since it was last asked, for the
// loop to pass on; words said from now on are told again.
func (q *Queue) Said() []Words {
	q.told.Store(false)
	q.mu.Lock()
	words := q.words
	q.words = nil
	q.mu.Unlock()
	return words
}

// signal sets a channel of capacity 1 without waiting: set is set.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
