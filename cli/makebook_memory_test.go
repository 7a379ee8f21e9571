package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/lichessgames"
)

// lichessPGN writes n generated lichess-style games ([%clk] and [%eval]
// comments, "1..." move numbers) and returns the file.
func lichessPGN(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lichess.pgn")
	if err := os.WriteFile(path, lichessgames.PGN(lichessgames.Options{Seed: 3, Games: n}), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMakeBookMemory: -memory and -tmp leave a book that fits the same
// bytes as PolyGlot's (on lichess-style games with their comments), and
// nothing in the temporary folder; bad sizes are usage errors.
func TestMakeBookMemory(t *testing.T) {
	pgn := lichessPGN(t, 300)
	dir := t.TempDir()
	want := polyglotMakeBook(t, pgn, filepath.Join(dir, "polyglot.bin"), "-max-ply", "30", "-min-game", "1")
	tmp := t.TempDir()
	got := ourMakeBook(t, pgn, filepath.Join(dir, "ours.bin"), "-max-ply", "30", "-min-game", "1", "-memory", "64M", "-tmp", tmp)
	if !bytes.Equal(got, want) {
		t.Fatalf("-memory 64M: %s", firstDiff(got, want))
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("temporary files left after success: %v", left)
	}
	for _, bad := range []string{"10M", "lots", "-5G", "0"} {
		code, _, stderr := runCmd(t, "make-book", "-pgn", pgn, "-bin", filepath.Join(dir, "x.bin"), "-memory", bad)
		if code != 2 || !strings.Contains(stderr, "-memory") {
			t.Errorf("-memory %s: exit %d, %s", bad, code, stderr)
		}
	}
	for _, good := range []string{"48M", "1.5G", "4g", "512MiB", "100000000"} {
		var f sizeFlag
		if err := f.Set(good); err != nil {
			t.Errorf("-memory %s: %v", good, err)
		}
	}
}

// TestMakeBookUnusableTmp: a -tmp make-book cannot write in is an error
// naming it before any game is read, and the old book stays.
func TestMakeBookUnusableTmp(t *testing.T) {
	pgn := lichessPGN(t, 20)
	dir := t.TempDir()
	out := filepath.Join(dir, "book.bin")
	old := []byte("the old book, kept")
	if err := os.WriteFile(out, old, 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(notDir, "runs")
	code, _, stderr := runCmd(t, "make-book", "-pgn", pgn, "-bin", out, "-tmp", tmp)
	if code != 1 || !strings.Contains(stderr, tmp) || !strings.Contains(stderr, "-tmp") || !strings.Contains(stderr, "no book written") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, old) {
		t.Fatal("the old book was not kept")
	}
}
