package adapter

import (
	"io"
	"os"
	"testing"

	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// The adapter has two loops (see loop and pollLoop); its tests run on
// both. The harness's GUI and engines are io.Pipes, which no descriptor
// backs: the goroutine loop runs. With POLYPROXY_TEST_LOOP=poll (Linux,
// TestSuiteOnPollLoop sets it for a second run of every test) the GUI's
// input is a blocking OS pipe and each engine's output one too: the poll
// loop runs and reads both itself.
const testLoopEnv = "POLYPROXY_TEST_LOOP"

var onPollLoop = os.Getenv(testLoopEnv) == "poll"

// harnessGUIPipe is the GUI's side of the adapter's input.
func harnessGUIPipe(t testing.TB) (io.Reader, io.WriteCloser) {
	if onPollLoop {
		return osPipe(t)
	}
	return io.Pipe()
}

// harnessEngine is e as the adapter gets it.
func harnessEngine(t testing.TB, e *ucitest.Engine) Engine {
	if onPollLoop {
		return withOutputFD(t, e)
	}
	return e
}

// The harness runs the loop its mode asks for.
func TestHarnessLoop(t *testing.T) {
	h := startHarness(t, testConfig(t, ""), nil, nil)
	h.handshake()
	if got := h.a.poll != nil; got != onPollLoop {
		t.Fatalf("poll loop running: %v, want %v", got, onPollLoop)
	}
}
