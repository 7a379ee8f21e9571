package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// A PGN given as a book, to any tool or to the proxy, is told by its
// content and answered with what to do; read as a Polyglot book it gave
// info-book 30 entries and exit 0.
func TestPGNGivenAsBook(t *testing.T) {
	pgn := "testdata/pgn/small.pgn"
	out := filepath.Join(t.TempDir(), "out")
	want := pgn + " holds PGN games, not an opening book: make a book of them with \"polyproxy make-book -pgn " + pgn + " -bin book.bin\""
	for _, args := range [][]string{
		{"info-book", pgn},
		{"info-book", "-bin", pgn},
		{"probe", pgn},
		{"dump-book", pgn},
		{"book-to-pgn", pgn},
		{"book-to-openings", pgn},
		{"convert-book", pgn, "-out", out + ".abk"},
		{"merge-book", "testdata/book/header.bin", pgn, "-out", out + ".bin"},
		{"learn", pgn, "testdata/learn/games.pgn", "-player", "Alpha", "-dry-run"},
	} {
		code, stdout, stderr := runCmd(t, args...)
		if code != 1 || stdout != "" || stderr != args[0]+": "+want+"\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", args, code, stdout, stderr, want)
		}
	}
	fake := testenv.FakeEngine(t)
	// The engine's stderr is the proxy's: both write it, from their own
	// goroutines.
	var stdout bytes.Buffer
	var stderr lockedBuffer
	Run([]string{"-noini", "-ec", fake, "-pg", "Book=true", "-pg", "BookFile=" + pgn}, strings.NewReader("uci\nisready\nquit\n"), &stdout, &stderr)
	abs, _ := filepath.Abs(pgn)
	told := stdout.String() + stderr.String()
	if !strings.Contains(told, "info string book "+abs+" not used: it holds PGN games, not an opening book: make a book of them with") ||
		strings.Contains(told, "multiple of 16") || strings.Contains(told, "not sorted") {
		t.Errorf("the proxy with BookFile = %s:\n%s", pgn, told)
	}
}

// Errors say what is wrong with the user's own files, in words: no
// "stat", "open", temporary file or path given twice.
func TestPlainFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"info-book", "nothere.bin"}, "info-book: nothere.bin: no such file\n"},
		{[]string{"probe", "nothere.bin"}, "probe: nothere.bin: no such file\n"},
		{[]string{"convert-book", "testdata/learn/book.bin", "-out", "/nodir/x.abk"},
			"convert-book: -out /nodir/x.abk: the folder /nodir does not exist; nothing written\n"},
		{[]string{"make-book", "nothere.pgn", "-bin", filepath.Join(dir, "x.bin")}, "make-book: nothere.pgn: no such file; no book written\n"},
		{[]string{"compile-book", "nothere.txt", "-bin", filepath.Join(dir, "x.bin")}, "compile-book: nothere.txt: no such file\n"},
		{[]string{"sum-counts", "-out", filepath.Join(dir, "x.counts"), "nothere.counts"}, "sum-counts: nothere.counts: no such file\n"},
		{[]string{"merge-book", "testdata/learn/book.bin", dir, "-out", filepath.Join(dir, "x.bin")}, "merge-book: " + dir + " is a folder, not a book file\n"},
		{[]string{"dump-book", "testdata/learn/book.bin", "-out", dir}, "dump-book: -out " + dir + " is a folder: name the file to write; nothing written\n"},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != 1 || stderr != tc.want {
			t.Errorf("%q: exit %d, %q\nwant exit 1, %q", tc.args, code, stderr, tc.want)
		}
	}
}

// make-book says what its move rules left out, and by which rule: four
// games under the default -min-game 3 make a book of one move, and said
// nothing of the 11 left out.
func TestMakeBookSaysWhatRulesLeftOut(t *testing.T) {
	dir := t.TempDir()
	want := "make-book: the move rules left out 11 of the 12 position-moves: 11 played in fewer than 3 games (-min-game 3)\n"
	code, _, stderr := runCmd(t, "make-book", "testdata/pgn/small.pgn", "-bin", filepath.Join(dir, "a.bin"), "-counts", filepath.Join(dir, "a.counts"))
	if code != 0 || !strings.Contains(stderr, "1 entries written") || !strings.Contains(stderr, want) {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
	code, _, stderr = runCmd(t, "make-book", "-from-counts", filepath.Join(dir, "a.counts"), "-bin", filepath.Join(dir, "b.bin"))
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("-from-counts: exit %d:\n%s", code, stderr)
	}
	code, _, stderr = runCmd(t, "make-book", "testdata/pgn/small.pgn", "-bin", filepath.Join(dir, "c.bin"), "-min-game", "1", "-only-white", "-min-share", "30")
	if code != 0 || !strings.Contains(stderr, "make-book: the move rules left out 8 of the 12 position-moves: 3 lost in every game (no points: no weight, as in PolyGlot); 4 Black's (-only-white); 1 played in fewer than 30% of their position's games (-min-share 30)\n") {
		t.Errorf("several rules: exit %d:\n%s", code, stderr)
	}
}

// learn with a player who plays in no game of the file lists the players
// it found, exits non-zero and changes nothing; it said "entries
// updated: 0" and exit 0.
func TestLearnUnknownPlayer(t *testing.T) {
	path, before := learnFixtureCopy(t)
	for player, want := range map[string]string{
		"Zed":   `learn: no game of testdata/learn/games.pgn has a player named "Zed"; its players, with their games: "Beta" (8), "Alpha" (7), "Gamma" (1); nothing learned`,
		"alpha": `learn: no game of testdata/learn/games.pgn has a player named "alpha" (a name is matched exactly: did you mean "Alpha"?); its players`,
	} {
		code, stdout, stderr := runCmd(t, "learn", path, "testdata/learn/games.pgn", "-player", player)
		if code != 1 || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Errorf("-player %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", player, code, stdout, stderr, want)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the book changed")
	}
}

// lockedBuffer is a bytes.Buffer several goroutines write.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
