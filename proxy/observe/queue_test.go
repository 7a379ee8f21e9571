package observe_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/observe"
)

// calls is an Observer that writes down what it is called with, and the
// goroutine it was called on is never the test's.
type calls struct {
	mu   sync.Mutex
	got  []string
	logf func(string, ...any)
	warn func(string, ...any)
}

func (c *calls) add(s string) { c.mu.Lock(); c.got = append(c.got, s); c.mu.Unlock() }
func (c *calls) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.got)
}

func (c *calls) UseLog(logf, warnf func(string, ...any)) { c.logf, c.warn = logf, warnf }
func (c *calls) SetLearning(learn.Settings)              { c.add("settings") }
func (c *calls) NewGame()                                { c.add("newgame") }
func (c *calls) Position(board.Position, bool)           { c.add("position") }
func (c *calls) GameStart(time.Time, []board.Key, learn.PGNStat) {
	c.add("start")
}
func (c *calls) BookMove(*book.Book, []board.Key, board.Move, bool) { c.add("bookmove") }
func (c *calls) EngineScore(bool, int, int, bool)                   { c.add("score") }
func (c *calls) AfterBestmove(board.Position)                       { c.add("after") }
func (c *calls) GameResult(learn.Outcome, string)                   { c.add("result") }
func (c *calls) Close()                                             { c.add("close") }

// waitFor waits until the observer has been called n times.
func waitFor(t *testing.T, c *calls, n int) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(c.list()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d calls made, want %d: %q", len(c.list()), n, c.list())
		}
		time.Sleep(time.Millisecond)
	}
	return c.list()
}

// The calls are made in order, beside the caller: a game's moves wait for
// a call that ends a game or changes the settings (Now), or for a batch
// of them; Stop makes every call left and Close last.
func TestQueueOrder(t *testing.T) {
	c := &calls{}
	q := observe.New(c)
	q.Start(func() {})
	q.Later(observe.Observer.NewGame)
	q.Later(func(o observe.Observer) { o.Position(board.Position{}, true) })
	q.Flush()
	time.Sleep(20 * time.Millisecond)
	if got := c.list(); len(got) != 0 {
		t.Fatalf("moves made before a call that asks for it: %q", got)
	}
	q.Now(func(o observe.Observer) { o.GameResult(learn.Unknown, "") })
	q.Flush()
	if got := waitFor(t, c, 3); !slices.Equal(got, []string{"newgame", "position", "result"}) {
		t.Fatalf("calls %q", got)
	}
	for range 64 {
		q.Later(func(o observe.Observer) { o.AfterBestmove(board.Position{}) })
	}
	q.Flush() // a batch: made without a call that asks for it
	waitFor(t, c, 3+64)
	q.Later(func(o observe.Observer) { o.EngineScore(true, 1, 0, false) })
	q.Stop(func() {})
	if got := c.list(); len(got) != 3+64+2 || got[len(got)-2] != "score" || got[len(got)-1] != "close" {
		t.Fatalf("after Stop: %q", got[3+64:])
	}
}

// What the observer says comes back through Said, and tell is called once
// until the words are taken.
func TestQueueSaid(t *testing.T) {
	c := &calls{}
	q := observe.New(c)
	told := make(chan struct{}, 10)
	q.Start(func() { told <- struct{}{} })
	c.logf("learned %d", 1)
	c.warn("cannot write %s", "a.bin")
	<-told
	select {
	case <-told:
		t.Fatal("told twice before the words were taken")
	default:
	}
	want := []observe.Words{{Msg: "learned 1"}, {Msg: "cannot write a.bin", Warn: true}}
	if got := q.Said(); !slices.Equal(got, want) {
		t.Fatalf("said %+v, want %+v", got, want)
	}
	c.logf("again")
	<-told
	if got := q.Said(); len(got) != 1 || got[0].Msg != "again" {
		t.Fatalf("said %+v", got)
	}
	q.Stop(func() {})
}

// Without an observer the queue does nothing, and asks for nothing.
func TestQueueWithoutObserver(t *testing.T) {
	q := observe.New(nil)
	if q.On() {
		t.Fatal("on without an observer")
	}
	q.Start(func() { t.Error("told") })
	q.Now(observe.Observer.NewGame)
	q.Flush()
	q.Stop(func() {})
}

// closing warns as it closes, then holds Stop until released.
type closing struct {
	calls
	release chan struct{}
}

func (c *closing) Close() {
	c.warn("counting the last games")
	<-c.release
}

// What the observer says while Stop waits for it is passed on as it is
// said, not once it is done.
func TestStopPassesWordsAsSaid(t *testing.T) {
	c := &closing{release: make(chan struct{})}
	q := observe.New(c)
	q.Start(func() {})
	passed := make(chan []observe.Words, 10)
	stopped := make(chan struct{})
	go func() {
		q.Stop(func() { passed <- q.Said() })
		close(stopped)
	}()
	select {
	case w := <-passed:
		if len(w) != 1 || w[0].Msg != "counting the last games" || !w[0].Warn {
			t.Fatalf("passed %+v", w)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the words said while closing were not passed on")
	}
	close(c.release)
	<-stopped
}

// Work after the output is made by Flush, on the caller's goroutine, once,
// before the calls queued with it are made: they may read what it did.
func TestAfterOutput(t *testing.T) {
	c := &calls{}
	q := observe.New(c)
	q.Start(func() {})
	var done []string // the caller's: the work writes, the worker's call reads
	q.AfterOutput(func() { done = append(done, "tail read") })
	q.Now(func(o observe.Observer) {
		if len(done) != 1 {
			t.Errorf("the call ran with the work after the output done %d times", len(done))
		}
		o.GameStart(time.Time{}, nil, learn.PGNStat{})
	})
	if len(done) != 0 {
		t.Fatal("the work ran before Flush")
	}
	q.Flush()
	if len(done) != 1 {
		t.Fatalf("the work after the output ran %d times at Flush", len(done))
	}
	waitFor(t, c, 1)
	q.Flush()
	q.Stop(func() {})
	if len(done) != 1 {
		t.Fatalf("the work after the output ran %d times", len(done))
	}
}
