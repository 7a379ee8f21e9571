package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestMergeBookMatchesPolyGlot: on books whose weights do not overflow
// and where in2 has no learn data, PolyGlot's rule and ours agree byte for
// byte (PolyGlot drops in2's learn fields; we add them). The books: the
// real gnuchess book, one made from games that follow it (many keys in
// common) and one made from random games (few).
func TestMergeBookMatchesPolyGlot(t *testing.T) {
	polyglot := testenv.PolyGlot(t)
	dir := t.TempDir()
	gnu := fixture.CopyFile(t, testenv.GnuchessBook(t))
	games := filepath.Join(dir, "games.bin")
	ourMakeBook(t, bookGamesPGN(t, 2000), games, "-min-game", "1")
	random := randomBook(t)
	pairs := [][2]string{{gnu, games}, {games, gnu}, {random, games}, {games, random}}
	if testenv.RaceEnabled {
		pairs = [][2]string{{random, games}} // the race detector slows merging ~20x
	}
	for _, pair := range pairs {
		pgOut, ourOut := filepath.Join(dir, "pg.bin"), filepath.Join(dir, "ours.bin")
		msg, err := exec.Command(polyglot, "merge-book", "-in1", pair[0], "-in2", pair[1], "-out", pgOut).CombinedOutput()
		if err != nil || bytes.Contains(bytes.ToLower(msg), []byte("error")) {
			t.Fatalf("polyglot: %v\n%s", err, msg)
		}
		if code, _, stderr := runCmd(t, "merge-book", "-in1", pair[0], "-in2", pair[1], "-out", ourOut); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		pg, _ := os.ReadFile(pgOut)
		ours, _ := os.ReadFile(ourOut)
		if !bytes.Equal(pg, ours) {
			t.Errorf("merge %s %s: differs from PolyGlot: %s", filepath.Base(pair[0]), filepath.Base(pair[1]), firstDiff(ours, pg))
		}
	}
}

// TestMergeBookLearnFromMachines: two copies of a book learn different
// games; -learn-only brings both machines' counts together, weights and
// every other byte untouched.
func TestMergeBookLearnFromMachines(t *testing.T) {
	dir := t.TempDir()
	orig := fixture.CopyFile(t, testenv.GnuchessBook(t))
	data, _ := os.ReadFile(orig)
	m1, m2 := bytes.Clone(data), bytes.Clone(data)
	// Machine 1 learned 3 games / 4 points on entry 10; machine 2 learned
	// 2 games / 1 point on entries 10 and 20.
	setLearn := func(b []byte, i int, learn book.Learn) {
		e := polyglot.DecodeEntry(b[i*16:])
		e.Learn = learn
		polyglot.PutEntry(b[i*16:], e)
	}
	setLearn(m1, 10, 3<<16|4)
	setLearn(m2, 10, 2<<16|1)
	setLearn(m2, 20, 2<<16|1)
	p1, p2, out := filepath.Join(dir, "m1.bin"), filepath.Join(dir, "m2.bin"), filepath.Join(dir, "merged.bin")
	os.WriteFile(p1, m1, 0o644)
	os.WriteFile(p2, m2, 0o644)
	code, _, stderr := runCmd(t, "merge-book", "-learn-only", "-in1", p1, "-in2", p2, "-out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := os.ReadFile(out)
	want := bytes.Clone(data)
	setLearn(want, 10, 5<<16|5)
	setLearn(want, 20, 2<<16|1)
	if !bytes.Equal(got, want) {
		t.Errorf("learn-only merge: %s", firstDiff(got, want))
	}
}

func TestMergeBookCLIErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.bin")
	unsorted := filepath.Join(dir, "unsorted.bin")
	out := filepath.Join(dir, "out.bin")
	if err := polyglot.WriteFile(good, []book.Entry{{Key: 1, Move: 1, Weight: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := polyglot.WriteFile(unsorted, []book.Entry{{Key: 2, Move: 1, Weight: 1}, {Key: 1, Move: 1, Weight: 1}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-in1", good, "-in2", unsorted, "-out", out}, "not sorted"},
		{[]string{"-in1", good, "-in2", filepath.Join(dir, "missing.bin"), "-out", out}, "missing.bin"},
		{[]string{"-in1", good, "-in2", dir, "-out", out}, "is a folder, not a book file"},
		{[]string{"-in1", good, "-in2", good}, "required"},
		{[]string{"-in1", good, "-in2", good, "-out", dir}, "-out " + dir + " is a folder: name the file to write; nothing written"},
	} {
		code, _, stderr := runCmd(t, append([]string{"merge-book"}, tc.args...)...)
		if code == 0 || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want failure mentioning %q", tc.args, code, stderr, tc.msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: output written", tc.args)
		}
	}
}
