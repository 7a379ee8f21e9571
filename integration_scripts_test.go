package main

import (
	"bufio"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// uciLine matches what an engine may print in reply to uci, isready and go.
var uciLine = regexp.MustCompile(`^(id (name|author) .+|option name .+|uciok|readyok|info .*|bestmove \S+( ponder \S+)?)$`)

// scripts/run.sh is documented as a working engine command: on the Debian
// default it must speak UCI on stdout and nothing else, and play a book move.
func TestRunScriptSpeaksOnlyUCI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds polyproxy; skipped with -short")
	}
	testenv.Stockfish(t)
	testenv.GnuchessBook(t)
	cmd := exec.Command("./scripts/run.sh")
	// Read while the script runs (in the failure messages): locked.
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	io.WriteString(stdin, "uci\nisready\nposition startpos\ngo wtime 1000 btime 1000\n")

	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	timeout := time.After(2 * time.Minute)
read:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed before bestmove; got %q\nstderr:\n%s", got, stderr.String())
			}
			got = append(got, l)
			if !uciLine.MatchString(l) {
				t.Errorf("not a UCI line on stdout: %q", l)
			}
			if strings.HasPrefix(l, "bestmove") {
				break read
			}
		case <-timeout:
			t.Fatalf("no bestmove within 2 minutes; got %q\nstderr:\n%s", got, stderr.String())
		}
	}
	io.WriteString(stdin, "quit\n")
	stdin.Close()
	for l := range lines {
		t.Errorf("stdout after quit: %q", l)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v\nstderr:\n%s", err, stderr.String())
	}
	out := strings.Join(got, "\n")
	if !strings.Contains(out, "\nuciok\n") || !strings.Contains(out, "\nreadyok\n") || !strings.Contains(out, "info string book move") {
		t.Errorf("stdout lacks the handshake or a book move:\n%s\nstderr:\n%s", out, stderr.String())
	}
}
