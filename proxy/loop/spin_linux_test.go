//go:build linux

package loop

import (
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

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

// osPipe is a blocking OS pipe.
func osPipe(t testing.TB) (*os.File, *os.File) {
	t.Helper()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
	t.Cleanup(func() { r.Close() })
	return r, w
}
