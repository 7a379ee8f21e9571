package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestXboardMatch has XBoard play a 2-game match, Stockfish against
// Stockfish, with polyproxy as the adapter for both (XBoard's
// -adapterCommand, PolyGlot's command line) and a book whose moves
// Stockfish alone never plays (1.Nc3 a6): the PGN shows no forfeit, no
// illegal move, and both games open from the book. Both adapters learn
// into that book from the results XBoard sends them: its learn fields end
// equal to those learn -pgn writes from XBoard's PGN. XBoard runs headless
// under Xvfb, in a process group of its own that the test ends whatever
// happens (XBoard stays after the match in -noGUI mode).
func TestXboardMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2-game match takes about 45 s")
	}
	sf := testenv.Stockfish(t)
	xboard := testenv.Xboard(t)
	xvfbRun := testenv.XvfbRun(t)
	pp := testenv.Polyproxy(t)
	dir := t.TempDir()

	var entries []book.Entry
	for _, e := range []struct{ moves, move string }{{"", "b1c3"}, {"b1c3", "a7a6"}} {
		l := fixture.Line(t, "", e.moves)
		m, err := board.ParseMove(e.move)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, book.Entry{Key: l.Pos.Key(), Move: m, Weight: 10})
	}
	bookPath := fixture.WriteEntries(t, entries)
	// The same book, to learn into from the PGN afterwards.
	fromPGN := fixture.CopyFile(t, bookPath)
	original := fixture.ReadFile(t, fromPGN)
	pgnPath := filepath.Join(dir, "games.pgn")
	adapter := pp + ` -noini -ec "%fcp" -ed "%fd" -pg Book=true -pg BookLearn=true -pg BookFile=` + bookPath
	cmd := exec.Command(xvfbRun, "-a", xboard, "-fcp", sf, "-fUCI", "-scp", sf, "-sUCI",
		"-adapterCommand", adapter, "-mg", "2", "-tc", "0:05", "-inc", "0.05", "-sgf", pgnPath, "-noGUI")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir) // XBoard's settings file goes there
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		// XBoard, Xvfb and the adapters; the engines die with their
		// adapter (the parent's death signal).
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	deadline := start.Add(3 * time.Minute)
	for !strings.Contains(out.String(), "final score") {
		if time.Now().After(deadline) {
			t.Fatalf("no end of the match within 3 minutes; XBoard said:\n%s", out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("match over after %v: %s", time.Since(start).Round(time.Second), lastLineWith(out.String(), "final score"))
	pgn := string(fixture.ReadFile(t, pgnPath))
	games := strings.Split(pgn, "[Event ")[1:]
	if len(games) != 2 {
		t.Fatalf("%d games in the PGN, want 2:\n%s", len(games), pgn)
	}
	bad := regexp.MustCompile(`(?i)illegal|forfeit|on time|crash|disconnect|stall|exited`)
	result := regexp.MustCompile(`\[Result "(1-0|0-1|1/2-1/2)"\]`)
	opening := regexp.MustCompile(`\n\n1\. Nc3 (\{[^}]*\} )?a6 `)
	for i, g := range games {
		if m := bad.FindString(g); m != "" {
			t.Errorf("game %d: %q in\n%s", i+1, m, g)
		}
		if !result.MatchString(g) {
			t.Errorf("game %d has no result:\n%s", i+1, g)
		}
		if !opening.MatchString(g) {
			t.Errorf("game %d does not open with the book's 1.Nc3 a6:\n%s", i+1, g)
		}
	}
	player := regexp.MustCompile(`\[White "([^"]*)"\]`).FindStringSubmatch(pgn)
	if player == nil {
		t.Fatalf("no White tag:\n%s", pgn)
	}
	if out, err := exec.Command(pp, "learn", "-book", fromPGN, "-pgn", pgnPath, "-player", player[1]).CombinedOutput(); err != nil {
		t.Fatalf("learn -pgn: %v\n%s", err, out)
	}
	want := fixture.ReadFile(t, fromPGN)
	if bytes.Equal(want, original) {
		t.Fatalf("learn -pgn learned nothing from\n%s", pgn)
	}
	// The adapters learn when XBoard sends them the result, moments
	// before or after it prints the final score.
	var live []byte
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if live = fixture.ReadFile(t, bookPath); bytes.Equal(live, want) {
			return
		}
	}
	t.Errorf("learned from the results:\n%x\nlearn -pgn from the PGN:\n%x", live, want)
}

func lastLineWith(s, sub string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], sub) {
			return lines[i]
		}
	}
	return ""
}
