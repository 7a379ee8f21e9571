package adapter

import (
	"bufio"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// The fake engine the adapter's tests run in-process.
var _ Engine = (*ucitest.Engine)(nil)

// harness runs an adapter between a scripted GUI and fake engines.
type harness struct {
	t       testing.TB
	a       *Adapter
	guiW    io.WriteCloser
	out     chan string
	done    chan error
	mu      sync.Mutex
	engines []*ucitest.Engine
	stderr  *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testConfig is a configuration with the test book and a fixed seed.
func testConfig(t testing.TB, bookPath string) *config.Config {
	dir := t.TempDir()
	cfg := config.Default(dir)
	cfg.EngineArgv = []string{"fake"}
	cfg.Book = bookPath != ""
	cfg.BookFiles = []string{bookPath}
	cfg.BookSeed = 1
	cfg.BookMode = book.Best
	return cfg
}

// startHarness runs an adapter for cfg and obs. Its engines are fake ones
// that play a7a6 whatever the position, with a score of 21 before it;
// setup, when given, changes the settings of the nth engine started (0:
// the first, 1: its restart); adjust changes the adapter's options.
func startHarness(t testing.TB, cfg *config.Config, setup func(n int, s *ucitest.Settings), obs GameObserver, adjust ...func(*Options)) *harness {
	h := &harness{t: t, out: make(chan string, 1<<16), done: make(chan error, 1), stderr: &syncBuffer{}}
	guiR, guiW := harnessGUIPipe(t)
	outR, outW := io.Pipe()
	h.guiW = guiW
	opts := Options{
		StartEngine: func() (Engine, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			s := ucitest.Settings{BestMove: "a7a6", Score: 21}
			if setup != nil {
				setup(len(h.engines), &s)
			}
			e := ucitest.Start(s)
			h.engines = append(h.engines, e)
			return harnessEngine(t, e), nil
		},
		Stderr:   h.stderr,
		Observer: obs,
		// Generous for a busy machine (fuzzing): tests of these limits
		// set their own.
		QuitGrace:     time.Second,
		QuitWait:      2 * time.Second,
		SlowHandshake: 200 * time.Millisecond,
	}
	for _, f := range adjust {
		f(&opts)
	}
	a := New(cfg, opts)
	h.a = a
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			h.out <- sc.Text()
		}
		close(h.out)
	}()
	go func() {
		err := a.Run(guiR, outW)
		outW.Close()
		h.done <- err
	}()
	t.Cleanup(func() {
		guiW.Close()
		select {
		case <-h.done:
		case <-time.After(5 * time.Second):
			t.Error("adapter did not stop")
		}
	})
	return h
}

func (h *harness) engine(i int) *ucitest.Engine {
	h.t.Helper()
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
			h.t.Fatalf("engine %d never started", i)
		}
		time.Sleep(time.Millisecond)
	}
}

func (h *harness) send(lines ...string) {
	h.t.Helper()
	if _, err := io.WriteString(h.guiW, strings.Join(lines, "\n")+"\n"); err != nil {
		h.t.Fatalf("GUI write: %v", err)
	}
}

// next is the next line to the GUI.
func (h *harness) next() string {
	h.t.Helper()
	select {
	case l, ok := <-h.out:
		if !ok {
			h.t.Fatal("GUI output closed")
		}
		return l
	case <-time.After(5 * time.Second):
		h.t.Fatal("no output for 5 s")
	}
	return ""
}

// until reads lines up to and including the first starting with prefix.
func (h *harness) until(prefix string) []string {
	h.t.Helper()
	var lines []string
	for {
		l := h.next()
		lines = append(lines, l)
		if strings.HasPrefix(l, prefix) {
			return lines
		}
	}
}

// bestmoveAfter sends lines (if any) and returns the next bestmove line.
func (h *harness) bestmoveAfter(lines ...string) string {
	h.t.Helper()
	if len(lines) > 0 {
		h.send(lines...)
	}
	l := h.until("bestmove")
	return l[len(l)-1]
}

// quiet asserts nothing reaches the GUI for d.
func (h *harness) quiet(d time.Duration) {
	h.t.Helper()
	select {
	case l := <-h.out:
		h.t.Fatalf("unexpected output %q", l)
	case <-time.After(d):
	}
}

// handshake does the GUI's uci/isready and returns all output up to
// readyok.
func (h *harness) handshake() []string {
	h.t.Helper()
	h.send("uci")
	lines := h.until("uciok")
	h.send("isready")
	return append(lines, h.until("readyok")...)
}

// waitReceived waits until engine i has received a line with prefix and
// returns everything it received.
func (h *harness) waitReceived(i int, prefix string) []string {
	h.t.Helper()
	e := h.engine(i)
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := e.Received()
		for _, l := range got {
			if strings.HasPrefix(l, prefix) {
				return got
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("engine %d never received %q; got %q", i, prefix, got)
		}
		time.Sleep(time.Millisecond)
	}
}

// bookEntry is a move and its weight after a line of moves from the start.
type bookEntry struct {
	moves  string // played before, from the start position
	move   string
	weight uint16
}

// writeBook writes a small sorted Polyglot book.
func writeBook(t testing.TB, entries []bookEntry) string {
	t.Helper()
	var es []book.Entry
	for _, e := range entries {
		l := fixture.Line(t, "", e.moves)
		m, err := board.ParseMove(e.move)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, book.Entry{Key: l.Pos.Key(), Move: l.Pos.ToBook(m), Weight: e.weight})
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Key < es[j].Key })
	path := filepath.Join(t.TempDir(), "test.bin")
	if err := book.WriteFile(path, es); err != nil {
		t.Fatal(err)
	}
	return path
}

// smallBook: 1.e4 (weight 3) or 1.d4 (1); after 1.e4 e5 2.Nf3 Nc6 only Bb5;
// after 1.e4 only c5 (the reply for ponder).
func smallBook(t testing.TB) string {
	return writeBook(t, []bookEntry{
		{"", "e2e4", 300}, {"", "d2d4", 100},
		{"e2e4", "c7c5", 50},
		{"e2e4 e7e5", "g1f3", 10},
		{"e2e4 e7e5 g1f3 b8c6", "f1b5", 10},
	})
}

func contains(lines []string, want string) bool { return slices.Contains(lines, want) }

func hasPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
