package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// The proxy's two loops as Run picks them on Linux, in process: with the
// GUI's pipe blocking (as GUIs hand it over) the poll loop, with a pipe
// that arrives non-blocking the goroutine loop; a session works on each,
// and the pipe's mode is left as it came (its open file is the GUI's too).
func TestLoopFollowsInputMode(t *testing.T) {
	fake := testenv.FakeEngine(t)
	for _, nonblocking := range []bool{false, true} {
		var p [2]int
		if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
			t.Fatal(err)
		}
		if nonblocking {
			unix.SetNonblock(p[0], true)
		}
		inR, inW := os.NewFile(uintptr(p[0]), "gui-in"), os.NewFile(uintptr(p[1]), "gui-out")
		outR, outW, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		log := filepath.Join(t.TempDir(), "proxy.log")
		code := make(chan int, 1)
		go func() {
			code <- Run([]string{"-noini", "-ec", fake, "-log", "true", "-lf", log}, inR, outW, os.Stderr)
			outW.Close()
		}()
		inW.WriteString("uci\nisready\nposition startpos\ngo depth 1\n")
		sc := bufio.NewScanner(outR)
		var got []string
		for sc.Scan() {
			got = append(got, sc.Text())
			if strings.HasPrefix(sc.Text(), "bestmove") {
				break
			}
		}
		if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "bestmove") || !slices.Contains(got, "readyok") {
			t.Fatalf("non-blocking %v: got %q", nonblocking, got)
		}
		inW.WriteString("quit\n")
		select {
		case c := <-code:
			if c != 0 {
				t.Fatalf("non-blocking %v: exit %d", nonblocking, c)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("non-blocking %v: still running after quit", nonblocking)
		}
		if fl, err := unix.FcntlInt(uintptr(p[0]), unix.F_GETFL, 0); err != nil || (fl&unix.O_NONBLOCK != 0) != nonblocking {
			t.Errorf("non-blocking %v: the input's mode changed: flags %#x, %v", nonblocking, fl, err)
		}
		if l := string(fixture.ReadFile(t, log)); strings.Contains(l, "loop: poll(2)") == nonblocking {
			t.Errorf("non-blocking %v: wrong loop; log:\n%s", nonblocking, l)
		}
		inW.Close()
		inR.Close()
		outR.Close()
	}
}
