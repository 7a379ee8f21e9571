//go:build linux

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/cli"
	"github.com/polyproxy/polyproxy/internal/testenv"
	"golang.org/x/sys/unix"
)

// The proxy's two loops, end to end on Linux: the built binary, given a
// GUI's pipe as GUIs hand it over (blocking), runs the poll loop (and
// every integration test with it); given a pipe that arrives
// non-blocking, it leaves it so and runs the goroutine loop.

func loopLog(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBinaryRunsPollLoop(t *testing.T) {
	fake := testenv.FakeEngine(t)
	log := filepath.Join(t.TempDir(), "proxy.log")
	p := startProxy(t, nil, "-noini", "-ec", fake, "-log", "true", "-lf", log)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	p.send("isready", "position startpos", "go depth 1")
	p.until("readyok", 10*time.Second)
	p.until("bestmove", 10*time.Second)
	p.send("quit")
	if code := p.waitExit(10 * time.Second); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, p.stderr.String())
	}
	if l := loopLog(t, log); !strings.Contains(l, "loop: poll(2)") {
		t.Fatalf("not the poll loop; log:\n%s", l)
	}
}

// In process, with the GUI's pipe blocking (the poll loop) and
// non-blocking (the goroutine loop): a session works, and the pipe's mode
// is left as it came (its open file is the GUI's too).
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
			code <- cli.Run([]string{"-noini", "-ec", fake, "-log", "true", "-lf", log}, inR, outW, os.Stderr)
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
		if l := loopLog(t, log); strings.Contains(l, "loop: poll(2)") == nonblocking {
			t.Errorf("non-blocking %v: wrong loop; log:\n%s", nonblocking, l)
		}
		inW.Close()
		inR.Close()
		outR.Close()
	}
}
