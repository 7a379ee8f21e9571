// Package proxytest is the one harness of the proxy's tests: it runs the
// core between a scripted GUI and the fake engine (uci/ucitest),
// in-process, with the front a test gives it: a front of the proxy's, or
// for the core's own tests the Script front, which records what the core
// tells a front. It makes the small books they play from too.
package proxytest

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// The fake engine the tests run in-process.
var _ core.Engine = (*ucitest.Engine)(nil)

// Harness is a run of the proxy between a scripted GUI and fake engines.
type Harness struct {
	T    testing.TB
	Core *core.Core
	// GUI is the GUI's end of the proxy's input; Out has the proxy's
	// output, line by line, closed when the run ends; Done has the run's
	// result.
	GUI     io.WriteCloser
	Out     chan string
	Done    chan error
	Stderr  *SyncBuffer
	mu      sync.Mutex
	engines []*ucitest.Engine
	calls   []func() // for Do, in order
}

// doLine is the line the GUI sends for Do: the front the harness wraps
// around the proxy's runs the next call instead of reading it.
const doLine = "\x00proxytest: do"

// onLoop is the proxy's front, with the harness's calls (Do) taken out of
// the GUI's lines.
type onLoop struct {
	core.Front
	h *Harness
}

func (f onLoop) GUILine(line string) {
	if line != doLine {
		f.Front.GUILine(line)
		return
	}
	f.h.mu.Lock()
	call := f.h.calls[0]
	f.h.calls = f.h.calls[1:]
	f.h.mu.Unlock()
	call()
}

// Do runs f on the proxy's loop, between events, and waits for it: for a
// test that looks at what the loop owns (the core's state). The GUI's
// quit must not have been sent.
func (h *Harness) Do(f func()) {
	h.T.Helper()
	done := make(chan struct{})
	h.mu.Lock()
	h.calls = append(h.calls, func() { f(); close(done) })
	h.mu.Unlock()
	h.Send(doLine)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		h.T.Fatal("the proxy's loop did not run the call within 5 s")
	}
}

// SyncBuffer is a buffer written by one goroutine and read by another.
type SyncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Config is a configuration with the book at bookPath ("": none) and a
// fixed seed.
func Config(t testing.TB, bookPath string) *config.Config {
	dir := t.TempDir()
	cfg := config.Default(dir)
	cfg.EngineArgv = []string{"fake"}
	cfg.Book = bookPath != ""
	cfg.BookFiles = []string{bookPath}
	cfg.BookSeed = 1
	cfg.BookMode = book.Best
	return cfg
}

// Start runs the core for cfg and obs with the front front makes (the
// proxy's chooser, a front of its own, or Script). Its engines are fake
// ones that play a7a6 whatever the
// position, with a score of 21 before it; setup, when given, changes the
// settings of the nth engine started (0: the first, 1: its restart);
// adjust changes the core's options.
func Start(t testing.TB, cfg *config.Config, front func(*core.Core) core.Front, setup func(n int, s *ucitest.Settings), obs core.GameObserver, adjust ...func(*core.Options)) *Harness {
	h := &Harness{T: t, Out: make(chan string, 1<<16), Done: make(chan error, 1), Stderr: &SyncBuffer{}}
	guiR, guiW := guiPipe(t)
	outR, outW := io.Pipe()
	h.GUI = guiW
	opts := core.Options{
		StartEngine: func() (core.Engine, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			s := ucitest.Settings{BestMove: "a7a6", Score: 21}
			if setup != nil {
				setup(len(h.engines), &s)
			}
			e := ucitest.Start(s)
			h.engines = append(h.engines, e)
			return engineAsStarted(t, e), nil
		},
		Stderr:   h.Stderr,
		Observer: obs,
		// Generous for a busy machine (fuzzing): tests of these limits
		// set their own. A slow handshake's notice, told to the GUI too,
		// must not land in what a test compares when a loaded machine is
		// slow to start the fake engine.
		QuitGrace:     time.Second,
		QuitWait:      2 * time.Second,
		SlowHandshake: time.Minute,
	}
	for _, f := range adjust {
		f(&opts)
	}
	h.Core = core.New(cfg, opts)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			h.Out <- sc.Text()
		}
		close(h.Out)
	}()
	go func() {
		err := h.Core.Run(guiR, outW, onLoop{front(h.Core), h})
		outW.Close()
		h.Done <- err
	}()
	t.Cleanup(func() {
		guiW.Close()
		select {
		case <-h.Done:
		case <-time.After(5 * time.Second):
			t.Error("the proxy did not stop")
		}
	})
	return h
}

// Engine is the ith engine started (0: the first), once it has started.
func (h *Harness) Engine(i int) *ucitest.Engine {
	h.T.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		h.mu.Lock()
		if i < len(h.engines) {
			e := h.engines[i]
			h.mu.Unlock()
			return e
		}
		h.mu.Unlock()
		if time.Now().After(deadline) {
			h.T.Fatalf("engine %d never started", i)
		}
		time.Sleep(time.Millisecond)
	}
}

// Started is how many engines have started.
func (h *Harness) Started() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.engines)
}

// Send writes lines to the proxy, as the GUI does.
func (h *Harness) Send(lines ...string) {
	h.T.Helper()
	if _, err := io.WriteString(h.GUI, strings.Join(lines, "\n")+"\n"); err != nil {
		h.T.Fatalf("GUI write: %v", err)
	}
}

// Next is the next line to the GUI.
func (h *Harness) Next() string {
	h.T.Helper()
	select {
	case l, ok := <-h.Out:
		if !ok {
			h.T.Fatal("GUI output closed")
		}
		return l
	case <-time.After(5 * time.Second):
		h.T.Fatal("no output for 5 s")
	}
	return ""
}

// Until reads lines up to and including the first starting with prefix.
func (h *Harness) Until(prefix string) []string {
	h.T.Helper()
	var lines []string
	for {
		l := h.Next()
		lines = append(lines, l)
		if strings.HasPrefix(l, prefix) {
			return lines
		}
	}
}

// WaitFor reads lines up to the first that equals want.
func (h *Harness) WaitFor(want string) []string {
	h.T.Helper()
	var lines []string
	for {
		l := h.Next()
		lines = append(lines, l)
		if l == want {
			return lines
		}
	}
}

// BestmoveAfter sends lines (if any) and returns the next bestmove line.
func (h *Harness) BestmoveAfter(lines ...string) string {
	h.T.Helper()
	if len(lines) > 0 {
		h.Send(lines...)
	}
	l := h.Until("bestmove")
	return l[len(l)-1]
}

// Quiet asserts nothing reaches the GUI for d.
func (h *Harness) Quiet(d time.Duration) {
	h.T.Helper()
	select {
	case l := <-h.Out:
		h.T.Fatalf("unexpected output %q", l)
	case <-time.After(d):
	}
}

// Handshake does the GUI's uci/isready and returns all output up to
// readyok.
func (h *Harness) Handshake() []string {
	h.T.Helper()
	h.Send("uci")
	lines := h.Until("uciok")
	h.Send("isready")
	return append(lines, h.Until("readyok")...)
}

// WaitReceived waits until engine i has received a line with prefix and
// returns everything it received.
func (h *Harness) WaitReceived(i int, prefix string) []string {
	h.T.Helper()
	e := h.Engine(i)
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := e.Received()
		for _, l := range got {
			if strings.HasPrefix(l, prefix) {
				return got
			}
		}
		if time.Now().After(deadline) {
			h.T.Fatalf("engine %d never received %q; got %q", i, prefix, got)
		}
		time.Sleep(time.Millisecond)
	}
}

// Ended reads what the proxy says until its run ends, within a time.
func (h *Harness) Ended(within time.Duration) []string {
	h.T.Helper()
	var got []string
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-h.Out:
			if !ok {
				if err := <-h.Done; err != nil {
					h.T.Fatalf("run ended with %v; got %q", err, got)
				}
				h.Done <- nil
				return got
			}
			got = append(got, l)
		case <-deadline:
			h.T.Fatalf("still running after %v; got %q", within, got)
		}
	}
}

// LegalEngine makes the fake engines play the legal move that sorts
// first, with a score.
func LegalEngine(score int) func(int, *ucitest.Settings) {
	return func(_ int, s *ucitest.Settings) { s.BestMove, s.Score = "", score }
}

// BookEntry is a move and its weight after a line of moves from the start.
type BookEntry = fixture.BookMove

// WriteBook writes a small sorted Polyglot book (test.bin).
func WriteBook(t testing.TB, entries []BookEntry) string { return fixture.MovesBook(t, entries) }

// SmallBook: 1.e4 (weight 3) or 1.d4 (1); after 1.e4 e5 2.Nf3 Nc6 only
// Bb5; after 1.e4 only c5 (the reply for ponder).
func SmallBook(t testing.TB) string {
	return WriteBook(t, []BookEntry{
		{Move: "e2e4", Weight: 300}, {Move: "d2d4", Weight: 100},
		{Moves: "e2e4", Move: "c7c5", Weight: 50},
		{Moves: "e2e4 e7e5", Move: "g1f3", Weight: 10},
		{Moves: "e2e4 e7e5 g1f3 b8c6", Move: "f1b5", Weight: 10},
	})
}

// Contains reports whether lines holds want.
func Contains(lines []string, want string) bool { return slices.Contains(lines, want) }

// HasPrefix reports whether a line of lines starts with prefix.
func HasPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// The proxy has two loops (core's goroutine loop and its poll loop); the
// tests run on both. The harness's GUI and engines are io.Pipes, which no
// descriptor backs: the goroutine loop runs. With LoopEnv=poll (Linux:
// RunOnPollLoop sets it for a second run of a package's tests) the GUI's
// input is a blocking OS pipe and each engine's output one too: the poll
// loop runs and reads both itself.
const LoopEnv = "POLYPROXY_TEST_LOOP"

// OnPollLoop: this run of the tests is on the poll loop.
var OnPollLoop = os.Getenv(LoopEnv) == "poll"

// guiPipe is the GUI's side of the proxy's input.
func guiPipe(t testing.TB) (io.Reader, io.WriteCloser) {
	if OnPollLoop {
		return OSPipe(t)
	}
	return io.Pipe()
}

// engineAsStarted is e as the core gets it.
func engineAsStarted(t testing.TB, e *ucitest.Engine) core.Engine {
	if OnPollLoop {
		return withOutputFD(t, e)
	}
	return e
}

// SampleValue is a value setting s may take other than cur, for a test
// that walks the option table; it fails the test when it has none for it
// (a new String setting: add one here).
func SampleValue(t testing.TB, s config.Setting, cur string) string {
	switch s.Kind {
	case config.Check:
		return strconv.FormatBool(cur != "true")
	case config.Spin:
		if cur != strconv.Itoa(s.Min) {
			return strconv.Itoa(s.Min)
		}
		return strconv.Itoa(s.Max)
	case config.Combo:
		for _, v := range s.Vars {
			if v != cur {
				return v
			}
		}
	case config.String:
		switch s.Name {
		case "BookFile", "BookFileWhite", "BookFileBlack":
			return WriteBook(t, []BookEntry{{Moves: "", Move: "d2d4", Weight: 1}})
		case "BookSeed":
			return "7"
		case "LogFile":
			return filepath.Join(t.TempDir(), "other.log")
		case "BookLearnPGN":
			return filepath.Join(t.TempDir(), "games.pgn")
		}
	}
	t.Fatalf("no sample value for %s: add one to tableSample", s.Name)
	return ""
}
