package ucitest

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// fakeSession drives one fake engine process line by line.
type fakeSession struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startFake(t *testing.T, bin string, env ...string) *fakeSession {
	t.Helper()
	return startFakeWithStderr(t, bin, nil, env...)
}

func startFakeWithStderr(t *testing.T, bin string, stderr io.Writer, env ...string) *fakeSession {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Stderr = stderr
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &fakeSession{t: t, cmd: cmd, in: in, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return s
}

func (s *fakeSession) send(lines ...string) {
	s.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			s.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// until reads lines up to and including the first one starting with prefix.
func (s *fakeSession) until(prefix string) []string {
	s.t.Helper()
	return untilLine(s.t, s.lines, prefix, 10*time.Second)
}

func TestFakeEngineProtocolAndLog(t *testing.T) {
	log := filepath.Join(t.TempDir(), "received.log")
	s := startFake(t, testenv.FakeEngine(t), "FAKEENGINE_LOG="+log)
	s.send("uci")
	hello := s.until("uciok")
	for _, want := range []string{"id name FakeEngine", "type spin", "type check", "type string", "type combo", "type button"} {
		if !strings.Contains(strings.Join(hello, "\n"), want) {
			t.Errorf("uci answer lacks %q: %q", want, hello)
		}
	}
	// After 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# black is mated: no legal move.
	s.send("isready")
	s.until("readyok")
	s.send("position startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7", "go movetime 10")
	if got := s.until("bestmove"); got[len(got)-1] != "bestmove 0000" {
		t.Errorf("mated side: %q", got)
	}
	// Black king h1 against white king a1, black to move: g1, g2 and h2; g1 sorts first.
	s.send("position fen 8/8/8/8/8/8/8/K6k b - -", "go")
	got := s.until("bestmove")
	if got[0] != "info depth 1 score cp 0 nodes 1 time 0 pv h1g1" || got[len(got)-1] != "bestmove h1g1" {
		t.Errorf("got %q", got)
	}
	s.send("position startpos moves e2e5", "go")
	if got := s.until("bestmove"); got[0] != "info string illegal move e2e5" || got[len(got)-1] != "bestmove a2a3" {
		t.Errorf("illegal move: %q", got)
	}
	s.send("quit")
	if err := s.cmd.Wait(); err != nil {
		t.Errorf("quit: %v", err)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "uci\nisready\nposition startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7\ngo movetime 10\n" +
		"position fen 8/8/8/8/8/8/8/K6k b - -\ngo\nposition startpos moves e2e5\ngo\nquit\n"
	if string(data) != want {
		t.Errorf("log:\n%s\nwant:\n%s", data, want)
	}
}

func TestFakeEngineMisbehaves(t *testing.T) {
	bin := testenv.FakeEngine(t)
	t.Run("infinite search answers isready and waits for stop", func(t *testing.T) {
		s := startFake(t, bin)
		s.send("go infinite", "isready")
		if got := s.until("readyok"); strings.Contains(strings.Join(got, "\n"), "bestmove") {
			t.Errorf("bestmove before stop: %q", got)
		}
		s.send("stop")
		s.until("bestmove a2a3")
	})
	t.Run("slow search ends on stop", func(t *testing.T) {
		s := startFake(t, bin, "FAKEENGINE_SEARCH_MS=60000")
		start := time.Now()
		s.send("go wtime 1000", "stop")
		s.until("bestmove")
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("stop took %v", d)
		}
	})
	t.Run("flood", func(t *testing.T) {
		for _, buffered := range []string{"0", "1"} {
			s := startFake(t, bin, "FAKEENGINE_FLOOD_BUFFERED="+buffered)
			s.send("setoption name Flood value 5000", "go")
			if got := s.until("bestmove"); len(got) != 5002 {
				t.Errorf("buffered=%s: %d lines, want 5002", buffered, len(got))
			}
		}
	})
	t.Run("crash on second go", func(t *testing.T) {
		s := startFake(t, bin, "FAKEENGINE_CRASH_ON_GO=2")
		s.send("go")
		s.until("bestmove")
		s.send("go")
		var exit *exec.ExitError
		if err := s.cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != 3 {
			t.Errorf("exit: %v", err)
		}
	})
	t.Run("crash once across processes", func(t *testing.T) {
		mark := filepath.Join(t.TempDir(), "crashed")
		s := startFake(t, bin, "FAKEENGINE_CRASH_ON_GO=1", "FAKEENGINE_CRASH_ONCE="+mark)
		s.send("go")
		if err := s.cmd.Wait(); err == nil {
			t.Fatal("first process did not crash")
		}
		s = startFake(t, bin, "FAKEENGINE_CRASH_ON_GO=1", "FAKEENGINE_CRASH_ONCE="+mark)
		s.send("go")
		s.until("bestmove")
	})
	t.Run("crash on setoption", func(t *testing.T) {
		s := startFake(t, bin)
		s.send("setoption name Crash")
		if err := s.cmd.Wait(); err == nil {
			t.Error("still alive after setoption name Crash")
		}
	})
	t.Run("exit without answering", func(t *testing.T) {
		s := startFake(t, bin, "FAKEENGINE_EXIT_ON=isready")
		s.send("isready")
		if err := s.cmd.Wait(); err != nil {
			t.Errorf("exit: %v", err)
		}
		if l, ok := <-s.lines; ok {
			t.Errorf("answered %q", l)
		}
	})
	t.Run("odd lines", func(t *testing.T) {
		s := startFake(t, bin, "FAKEENGINE_ODD=1")
		s.send("go")
		got := s.until("bestmove")
		want := []string{"info depth 1 score cp 0 nodes 1 time 0 pv a2a3", "info string 100% sure %d %s", "", " \t  ", "bestmove a2a3"}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("slow start, stderr echo, ignored quit, child process", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "child.pid")
		var stderr strings.Builder
		s := startFakeWithStderr(t, bin, &stderr, "FAKEENGINE_START_MS=150", "FAKEENGINE_STDERR=1",
			"FAKEENGINE_IGNORE_QUIT=1", "FAKEENGINE_CHILD_PID="+pidFile)
		start := time.Now()
		s.send("uci")
		s.until("uciok")
		if d := time.Since(start); d < 150*time.Millisecond {
			t.Errorf("uciok after %v, want at least 150ms", d)
		}
		s.send("quit", "isready")
		s.until("readyok") // still there after quit
		pid, err := os.ReadFile(pidFile)
		if err != nil || len(pid) == 0 {
			t.Errorf("child pid file: %q, %v", pid, err)
		}
		s.in.Close() // EOF ends it even now
		s.cmd.Wait()
		if !strings.Contains(stderr.String(), "fakeengine: got quit") {
			t.Errorf("stderr = %q", stderr.String())
		}
		if p, err := strconv.Atoi(string(pid)); err == nil {
			if proc, err := os.FindProcess(p); err == nil {
				proc.Kill()
			}
		}
	})
}
