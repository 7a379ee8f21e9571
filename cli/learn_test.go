package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// learnFixtureCopy copies the test book of testdata/learn (its entries and
// the learn fields expected after games.pgn are in learn/pgn_test.go).
func learnFixtureCopy(t *testing.T) (path string, data []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/learn/book.bin")
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "book.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

func runLearnCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(append([]string{"learn"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestLearnCommand(t *testing.T) {
	path, before := learnFixtureCopy(t)
	code, out, errs := runLearnCmd(t, "-book", path, "-pgn", "testdata/learn/games.pgn", "-player", "Alpha", "-v")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"games read: 8\n",
		"games skipped: 3\n  no result: 1\n  player not in the game: 1\n  illegal move: 1\n",
		"skipped game 4 (line 26): no result",
		"skipped game 5 (line 34): Alpha does not play",
		"skipped game 6 (line 42): ply 3 (2.): illegal move",
		"games with book moves of Alpha: 5 (9 book moves)\n",
		"entries updated: 6\n",
		"move e2e4: 3 game(s): 0 games 0 points -> 3 games 5 points",
		"move e1h1: 1 game(s): 3 games 4 points -> 4 games 6 points",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	after, _ := os.ReadFile(path)
	if bytes.Equal(before, after) || len(before) != len(after) {
		t.Fatal("book not updated")
	}
	for i := range before {
		if before[i] != after[i] && i%16 < 12 {
			t.Fatalf("byte %d outside a learn field changed", i)
		}
	}
}

func TestLearnCommandDryRun(t *testing.T) {
	path, before := learnFixtureCopy(t)
	code, out, errs := runLearnCmd(t, "-book", path, "-pgn", "testdata/learn/games.pgn", "-player", "Alpha", "-dry-run")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "entries that would be updated (dry run: book unchanged): 6") ||
		!strings.Contains(out, "move e7e5: 1 game(s): 1 games 0 points -> 2 games 2 points") {
		t.Errorf("dry run output:\n%s", out)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("dry run changed the book")
	}
}

func TestLearnCommandErrors(t *testing.T) {
	path, before := learnFixtureCopy(t)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-book", path, "-pgn", "testdata/learn/games.pgn"}, 2, "-player"},
		{[]string{"-book", path, "-pgn", "testdata/learn/none.pgn", "-player", "Alpha"}, 1, "none.pgn"},
		{[]string{"-book", filepath.Join(t.TempDir(), "none.bin"), "-pgn", "testdata/learn/games.pgn", "-player", "Alpha"}, 1, "none.bin"},
		{[]string{"-book", t.TempDir(), "-pgn", "testdata/learn/games.pgn", "-player", "Alpha"}, 1, "learn:"},
		{[]string{"-book", path, "-pgn", "testdata/learn/games.pgn", "-player", "Alpha", "extra"}, 2, `"extra" and -book both name the file`},
	} {
		code, _, errs := runLearnCmd(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.msg)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("a failed run changed the book")
	}
}

// TestLearnCompressedAndStdin: learn reads gzip, bzip2 and zstd games and
// standard input, with the same result as from the plain file.
func TestLearnCompressedAndStdin(t *testing.T) {
	plainBook, _ := learnFixtureCopy(t)
	if code, _, errs := runLearnCmd(t, "-book", plainBook, "-pgn", "testdata/learn/games.pgn", "-player", "Alpha"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, _ := os.ReadFile(plainBook)
	for _, in := range compressedCopies(t, "testdata/learn/games.pgn") {
		path, _ := learnFixtureCopy(t)
		if code, _, errs := runLearnCmd(t, "-book", path, "-pgn", in, "-player", "Alpha"); code != 0 {
			t.Fatalf("%s: exit %d: %s", in, code, errs)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Errorf("%s: book differs from learning the plain file", filepath.Base(in))
		}
	}
	path, _ := learnFixtureCopy(t)
	games, _ := os.ReadFile("testdata/learn/games.pgn")
	old := pgnStdin
	pgnStdin = bytes.NewReader(games)
	defer func() { pgnStdin = old }()
	if code, _, errs := runLearnCmd(t, "-book", path, "-pgn", "-", "-player", "Alpha"); code != 0 {
		t.Fatalf("stdin: exit %d: %s", code, errs)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Error("stdin: book differs from learning the plain file")
	}
}
