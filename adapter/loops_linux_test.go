//go:build linux

package adapter

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// Every test of the package again, on the poll loop: the same behaviours
// (reply order, quit and the end of input, restarts, timers, books) must
// hold on both loops.
func TestSuiteOnPollLoop(t *testing.T) {
	if onPollLoop {
		t.Skip("this is the run on the poll loop")
	}
	if testing.Short() {
		t.Skip("short")
	}
	cmd := exec.Command(os.Args[0], "-test.run=.", "-test.skip=^TestSuiteOnPollLoop$", "-test.count=1", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), testLoopEnv+"=poll")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tests on the poll loop: %v\n%s", err, out)
	}
	t.Logf("on the poll loop: %s", strings.TrimSpace(string(out)))
}

// osPipe is a blocking OS pipe, as a GUI hands one over.
func osPipe(t testing.TB) (*os.File, *os.File) {
	t.Helper()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "gui-r"), os.NewFile(uintptr(p[1]), "gui-w")
	t.Cleanup(func() { r.Close() }) // after the adapter has stopped (cleanups run last first)
	return r, w
}

// fdEngine is an in-process engine whose output reaches the adapter
// through a blocking OS pipe, as a process's does.
type fdEngine struct {
	*ucitest.Engine
	r *os.File
}

func withOutputFD(t testing.TB, e *ucitest.Engine) Engine {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "engine-r"), os.NewFile(uintptr(p[1]), "engine-w")
	go func() {
		io.Copy(w, e.Stdout())
		w.Close() // the engine ended: the adapter reads the end of its output
	}()
	return &fdEngine{Engine: e, r: r}
}

func (e *fdEngine) Stdout() io.Reader           { return e.r }
func (e *fdEngine) StdoutFD() (fd int, ok bool) { return int(e.r.Fd()), true }

// Quit closes our end of its output, as uci.Process does.
func (e *fdEngine) Quit(grace time.Duration) {
	e.Engine.Quit(grace)
	e.r.Close()
}

// The poll loop spins only when an answer is due at once (answerDue):
// never while the engine searches and prints info lines.
func TestPollLoopSpinsOnlyWhenAnswerDue(t *testing.T) {
	if !onPollLoop {
		t.Skip("runs on the poll loop (TestSuiteOnPollLoop)")
	}
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	spins := func() int32 { return h.a.poll.spins.Load() }
	time.Sleep(10 * time.Millisecond) // the loop has begun the wait after readyok
	before := spins()
	h.send("position startpos", "go infinite")
	h.waitReceived(0, "go infinite")
	for i := range 50 {
		h.engine(0).Say("info depth " + strconv.Itoa(i+1) + " score cp 3 pv e2e4")
	}
	for range 50 {
		if l := h.next(); !strings.HasPrefix(l, "info depth") {
			t.Fatalf("got %q", l)
		}
	}
	if got := spins(); got != before {
		t.Fatalf("%d busy-waits during a search", got-before)
	}
	h.send("stop")
	h.until("bestmove")
	h.send("isready")
	h.until("readyok")
	time.Sleep(10 * time.Millisecond) // the loop has begun the wait after readyok
	// After the bestmove (the GUI's turn), after isready (the engine's
	// readyok), after readyok (the GUI's turn).
	if got := spins() - before; got != 3 {
		t.Fatalf("%d busy-waits after bestmove, isready, readyok; want 3", got)
	}
}

// A busy-wait ends after its bound when nothing comes, and at once when
// something is there. The upper limits are far above the bounds, so a
// loaded machine's scheduling cannot fail the test, and far below what a
// wait that ignored its bound (or the data) would take.
func TestSpinPollBound(t *testing.T) {
	r, w := osPipe(t)
	defer w.Close()
	fds := []unix.PollFd{{Fd: int32(r.Fd()), Events: unix.POLLIN}}
	for range 20 {
		start := time.Now()
		if n := spinPoll(fds, spinFor); n != 0 {
			t.Fatalf("spinPoll found %d ready on an empty pipe", n)
		}
		if d := time.Since(start); d < spinFor || d > time.Second {
			t.Fatalf("a busy-wait of %v took %v", spinFor, d)
		}
	}
	w.WriteString("x\n")
	start := time.Now()
	if n := spinPoll(fds, time.Hour); n != 1 {
		t.Fatalf("spinPoll: %d ready, want 1", n)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("spinPoll took %v with data waiting", d)
	}
}
