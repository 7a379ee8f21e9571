//go:build unix

package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/lichessgames"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestMakeBookSignalRemovesTemp: make-book reading games from a pipe
// that stays open is stopped by SIGINT or SIGTERM: it exits with 128 +
// the signal's number, says so, writes no book and leaves no temporary
// file.
func TestMakeBookSignalRemovesTemp(t *testing.T) {
	bin := testenv.Binary(t, "", testenv.Module)
	games := lichessgames.PGN(lichessgames.Options{Seed: 4, Games: 50})
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		tmp, dir := t.TempDir(), t.TempDir()
		out := filepath.Join(dir, "book.bin")
		cmd := exec.Command(bin, "make-book", "-pgn", "-", "-bin", out, "-tmp", tmp)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if _, err := stdin.Write(games); err != nil {
			t.Fatal(err)
		}
		// The pipe stays open: make-book waits for more games, its
		// temporary folder made.
		deadline := time.Now().Add(20 * time.Second)
		for {
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("%v: no temporary folder made in %s", sig, tmp)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: make-book did not stop", sig)
		}
		stdin.Close()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) || !strings.Contains(stderr.String(), "temporary files removed") {
			t.Fatalf("%v: %v, stderr: %s", sig, err, stderr.String())
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Fatalf("%v: temporary files left: %v", sig, left)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%v: a book was written", sig)
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Fatalf("%v: files left beside the book: %v", sig, left)
		}
	}
}
