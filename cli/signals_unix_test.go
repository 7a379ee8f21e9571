//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/filelock"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/lichessgames"
)

var stopSignalsTested = []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// stopped runs cmd, waits for ready to say it is where the signal must
// find it, sends sig and checks how it ended: exit 128 + the signal's
// number, one message saying so, nothing else after it.
func stopped(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, ready func(stderr *bufio.Reader) error) {
	t.Helper()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stderr := bufio.NewReader(pipe)
	readyErr := make(chan error, 1)
	go func() { readyErr <- ready(stderr) }()
	select {
	case err = <-readyErr:
	case <-time.After(20 * time.Second):
		err = errors.New("not ready after 20 s")
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("%v: %v", sig, err)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v: did not stop", sig)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) {
		t.Errorf("%v: %v, want exit %d\n%s", sig, err, 128+int(sig), rest)
	}
	if n := strings.Count(string(rest), "stopped by "+sig.String()); n != 1 || !strings.Contains(string(rest), "temporary files removed") {
		t.Errorf("%v: %d messages saying so, want one:\n%s", sig, n, rest)
	}
}

// helper is polyproxy's command line run by the test binary, each tool
// paused where it would put its outputs in place (see TestMain).
func helper(t *testing.T, args ...string) *exec.Cmd {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	return cmd
}

// folderHolds checks dir holds exactly names.
func folderHolds(t *testing.T, what, dir string, names ...string) {
	t.Helper()
	got := dirNames(t, dir)
	slices.Sort(got)
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("%s: %s holds %q, want %q", what, dir, got, names)
	}
}

// TestSignalsStopEveryWriter: every command that writes files, stopped by
// SIGINT, SIGTERM or SIGHUP with its outputs written beside their files
// and not yet in place, exits with 128 + the signal's number and one
// message, removes the temporary files and leaves the outputs as they
// were; learn leaves its book unchanged.
func TestSignalsStopEveryWriter(t *testing.T) {
	fixtures := writerFixtures(t)
	paused := func(stderr *bufio.Reader) error {
		for {
			line, err := stderr.ReadString('\n')
			if err != nil {
				return errors.New("ended before pausing")
			}
			if strings.Contains(line, pausedMark) {
				return nil
			}
		}
	}
	commandsTested := map[string]bool{}
	for name, cases := range writerCases {
		for i, tc := range cases {
			if name == "learn" || slices.Contains(tc.args("in", "out"), "-") {
				continue // below; "-" reads standard input
			}
			commandsTested[name] = true
			for _, sig := range stopSignalsTested {
				in := fixture.CopyFile(t, fixtures[tc.input])
				dir := t.TempDir()
				out := filepath.Join(dir, "out")
				os.WriteFile(out, []byte("old"), 0o644)
				t.Run(name, func(t *testing.T) {
					stopped(t, helper(t, append([]string{name}, tc.args(in, out)...)...), sig, paused)
					if got, _ := os.ReadFile(out); string(got) != "old" {
						t.Errorf("%s case %d, %v: the output holds %d bytes, want its old 3", name, i, sig, len(got))
					}
					folderHolds(t, name, dir, "out")
				})
			}
		}
	}
	for _, sig := range stopSignalsTested {
		bookPath, before := learnFixtureCopy(t)
		commandsTested["learn"] = true
		t.Run("learn", func(t *testing.T) {
			stopped(t, helper(t, "learn", "-book", bookPath, "-pgn", "testdata/learn/games.pgn", "-player", "Alpha"), sig, paused)
			if after, _ := os.ReadFile(bookPath); !bytes.Equal(after, before) {
				t.Errorf("%v: the book changed", sig)
			}
			folderHolds(t, "learn", filepath.Dir(bookPath), "book.bin")
		})
	}
	if len(commandsTested) < 9 {
		t.Errorf("only %d commands stopped: %v", len(commandsTested), commandsTested)
	}
}

// TestSignalsWhileReading: make-book reading games from a pipe that stays
// open (the counts outgrow -memory: sorted runs in -tmp), and learn
// reading its games so, stop on each signal: exit 128 + its number, one
// message, no book, no temporary file. (SIGHUP left the sorted runs, and
// make-book interrupted while reading exited 1 with the message twice.)
func TestSignalsWhileReading(t *testing.T) {
	games := lichessgames.PGN(lichessgames.Options{Seed: 4, Games: 50})
	for _, sig := range stopSignalsTested {
		tmp, dir := t.TempDir(), t.TempDir()
		out := filepath.Join(dir, "book.bin")
		cmd := helper(t, "make-book", "-pgn", "-", "-bin", out, "-tmp", tmp, "-memory", "48M")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stopped(t, cmd, sig, func(*bufio.Reader) error {
			if _, err := stdin.Write(games); err != nil {
				return err
			}
			// The pipe stays open: make-book waits for more games, its
			// temporary folder made.
			for {
				if left, _ := os.ReadDir(tmp); len(left) > 0 {
					return nil
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
		stdin.Close()
		folderHolds(t, "make-book's -tmp", tmp)
		folderHolds(t, "make-book's -bin", dir)

		bookPath, before := learnFixtureCopy(t)
		cmd = helper(t, "learn", "-book", bookPath, "-pgn", "-", "-player", "Alpha")
		if stdin, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		stopped(t, cmd, sig, func(*bufio.Reader) error {
			games, err := os.ReadFile("testdata/learn/games.pgn")
			if err != nil {
				return err
			}
			// Blank lines after the games, four times what a pipe buffers:
			// the write returns only once learn is reading (its signals
			// caught before), however late a loaded machine starts it.
			_, err = stdin.Write(append(games, bytes.Repeat([]byte("\n"), 256<<10)...))
			return err // reading, the pipe open
		})
		stdin.Close()
		if after, _ := os.ReadFile(bookPath); !bytes.Equal(after, before) {
			t.Errorf("learn %v: the book changed", sig)
		}
	}
}

// TestSignalsWhileWaitingForALock: learn waiting for its book's lock,
// which another program holds, stops on each signal: exit 128 + its
// number, one message, the book unchanged. (It waited for the lock with
// the signals held, then wrote and exited 0.) So do merge-book and
// convert-book waiting for the lock of the book they replace.
func TestSignalsWhileWaitingForALock(t *testing.T) {
	commandLines := [][]string{
		{"learn", "-pgn", "testdata/learn/games.pgn", "-player", "Alpha", "-book"},
		{"merge-book", "testdata/learn/book.bin", "testdata/book/header.bin", "-out"},
		{"convert-book", "testdata/learn/book.bin", "-out"},
	}
	for _, args := range commandLines {
		for _, sig := range stopSignalsTested {
			waitStopped(t, args, sig)
		}
	}
}

// waitStopped runs the command line args with a book, whose lock another
// program holds, as its last operand, and stops it with sig while it
// waits for that lock.
func waitStopped(t *testing.T, args []string, sig syscall.Signal) {
	t.Helper()
	bookPath, before := learnFixtureCopy(t)
	holder, err := os.Open(bookPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := filelock.Lock(t.Context(), holder, true); err != nil {
		t.Fatal(err)
	}
	cmd := helper(t, append(slices.Clip(args), bookPath)...)
	cmd.Env = append(cmd.Env, helperEnv+"="+unpaused)
	stopped(t, cmd, sig, func(stderr *bufio.Reader) error {
		for {
			line, err := stderr.ReadString('\n')
			if err != nil {
				return errors.New("ended before waiting for the lock")
			}
			if strings.Contains(line, "waiting for the lock of "+bookPath) {
				return nil
			}
		}
	})
	holder.Close()
	if after, _ := os.ReadFile(bookPath); !bytes.Equal(after, before) {
		t.Errorf("%s %v: the book changed", args[0], sig)
	}
	folderHolds(t, args[0], filepath.Dir(bookPath), "book.bin")
}
