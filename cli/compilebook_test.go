package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
)

// TestCompileBookCLI: compile, then probe the book through the reader; a
// text book with errors reports each with file:line:column and writes
// nothing.
func TestCompileBookCLI(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "small.bin")
	code, stdout, stderr := runCmd(t, "compile-book", "-txt", "testdata/txt/small.txt", "-bin", out)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "5 lines, 23 moves, 16 entries (1 never played)") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	b, err := formats.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	pos := board.StartPosition()
	for _, s := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"} {
		m, _ := board.ParseMove(s)
		pos.Play(m)
	}
	es := b.Entries(pos.Key())
	if len(es) != 1 || es[0].Move.String() != "e1h1" || pos.ToPlayed(es[0].Move).String() != "e1g1" || es[0].Weight != 1 {
		t.Errorf("castling entry %v", es)
	}

	bad := filepath.Join(dir, "bad.bin")
	code, _, stderr = runCmd(t, "compile-book", "-txt", "testdata/txt/errors.txt", "-bin", bad)
	if code == 0 {
		t.Fatal("errors.txt compiled")
	}
	for _, want := range []string{"testdata/txt/errors.txt:3:11: ", "errors.txt:4:6: bad token \"Nf6\"", "errors.txt:7:41: ", "5 error(s); nothing written"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a book was written despite errors")
	}
	for _, args := range [][]string{
		{"compile-book", "-txt", filepath.Join(dir, "missing.txt"), "-bin", bad},
		{"compile-book", "-txt", "testdata/txt/small.txt"},
		{"compile-book", "-txt", dir, "-bin", bad},
	} {
		if code, _, stderr := runCmd(t, args...); code == 0 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a book was written by a failing run")
	}
}
