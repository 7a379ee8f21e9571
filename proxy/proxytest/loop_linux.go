//go:build linux

package proxytest

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// RunOnPollLoop runs every test of the package again, on the poll loop:
// the same behaviours (reply order, quit and the end of input, restarts,
// timers, books) must hold on both loops. A package calls it from a test
// named TestSuiteOnPollLoop.
func RunOnPollLoop(t *testing.T) {
	if OnPollLoop {
		t.Skip("this is the run on the poll loop")
	}
	if testing.Short() {
		t.Skip("short")
	}
	cmd := exec.Command(os.Args[0], "-test.run=.", "-test.skip=^TestSuiteOnPollLoop$", "-test.count=1", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), LoopEnv+"=poll")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tests on the poll loop: %v\n%s", err, out)
	}
	t.Logf("on the poll loop: %s", strings.TrimSpace(string(out)))
}

// OSPipe is a blocking OS pipe, as a GUI hands one over.
func OSPipe(t testing.TB) (*os.File, *os.File) {
	t.Helper()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "gui-r"), os.NewFile(uintptr(p[1]), "gui-w")
	t.Cleanup(func() { r.Close() }) // after the proxy has stopped (cleanups run last first)
	return r, w
}

// fdEngine is an in-process engine whose output reaches the core through
// a blocking OS pipe, as a process's does.
type fdEngine struct {
	*ucitest.Engine
	r *os.File
}

func withOutputFD(t testing.TB, e *ucitest.Engine) core.Engine {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "engine-r"), os.NewFile(uintptr(p[1]), "engine-w")
	go func() {
		io.Copy(w, e.Stdout())
		w.Close() // the engine ended: the core reads the end of its output
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
