package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
)

const polyglotPath = "/usr/games/polyglot"

// shared8Moves is the 34,700-game opening PGN of the Stockfish project.
const shared8Moves = "../shared/pgn/8moves_v3.pgn"

func needPolyGlot(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(polyglotPath); err != nil {
		t.Skipf("PolyGlot not installed (%v): apt-get install polyglot to compare make-book byte for byte", err)
	}
}

// runCmd runs polyproxy in-process.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

// polyglotMakeBook runs PolyGlot's make-book and returns the book. PolyGlot
// exits 0 even when it gives up, so its output is checked for errors.
func polyglotMakeBook(t *testing.T, pgn, out string, flags ...string) []byte {
	t.Helper()
	pgn, err := filepath.Abs(pgn)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"make-book", "-pgn", pgn, "-bin", out}, flags...)
	cmd := exec.Command(polyglotPath, args...)
	cmd.Dir = t.TempDir() // PolyGlot may leave files in its directory
	msg, err := cmd.CombinedOutput()
	if err != nil || bytes.Contains(bytes.ToLower(msg), []byte("error")) {
		t.Fatalf("polyglot %v: %v\n%s", args, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("polyglot wrote no book: %v\n%s", err, msg)
	}
	return data
}

func ourMakeBook(t *testing.T, pgn, out string, flags ...string) []byte {
	t.Helper()
	args := append([]string{"make-book", "-q", "-pgn", pgn, "-bin", out}, flags...)
	if code, _, stderr := runCmd(t, args...); code != 0 {
		t.Fatalf("make-book %v: exit %d\n%s", args, code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// firstGames copies the first n games of a PGN (split at "[Event ").
func firstGames(t *testing.T, src, dst string, n int) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Skipf("reference PGN not available: %v", err)
	}
	defer f.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(f)
	games := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "[Event ") {
			games++
			if games > n {
				break
			}
		}
		out.WriteString(sc.Text() + "\n")
	}
	if err := os.WriteFile(dst, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstDiff describes where two books differ.
func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i += book.EntrySize {
		if !bytes.Equal(a[i:min(i+book.EntrySize, n)], b[i:min(i+book.EntrySize, n)]) {
			if i+book.EntrySize <= n {
				return fmt.Sprintf("entry %d: ours %+v, PolyGlot %+v", i/book.EntrySize, book.DecodeEntry(a[i:]), book.DecodeEntry(b[i:]))
			}
			return fmt.Sprintf("entry %d", i/book.EntrySize)
		}
	}
	return fmt.Sprintf("sizes %d and %d", len(a), len(b))
}

// TestMakeBookMatchesPolyGlot builds books with PolyGlot 2.0.4 and with us
// from the same PGNs and flags and compares the bytes.
func TestMakeBookMatchesPolyGlot(t *testing.T) {
	needPolyGlot(t)
	dir := t.TempDir()

	// Generated: one move reaching 16384 games twice (halving), the other
	// move of its position halved along.
	halving := filepath.Join(dir, "halving.pgn")
	var sb strings.Builder
	results := []string{"1-0", "0-1", "1/2-1/2", "*"}
	for i := 0; i < 29000; i++ {
		move := "e4 e5"
		if i%7 == 0 {
			move = "d4 d5"
		}
		fmt.Fprintf(&sb, "[Result \"%s\"]\n\n1. %s *\n\n", results[(i*7/3)%4], move)
	}
	if err := os.WriteFile(halving, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	flagSets := [][]string{
		nil,
		{"-min-game", "1"},
		{"-max-ply", "1", "-min-game", "1"},
		{"-max-ply", "16"},
		{"-max-ply", "8", "-min-game", "2", "-uniform"},
		{"-min-game", "1", "-min-score", "50"},
		{"-min-game", "2", "-min-score", "33.4"},
		{"-min-game", "1", "-only-white"},
		{"-min-game", "1", "-only-black"},
		{"-min-game", "1", "-only-white", "-only-black"},
		{"-min-game", "1", "-only-black", "-only-white", "-uniform"},
	}
	// The bigger inputs cost 0.05-0.2 s per run (10-20 times more under
	// -race): fewer flag sets.
	fewFlagSets := [][]string{flagSets[0], flagSets[1], flagSets[4], flagSets[6], flagSets[8]}
	inputs := []struct {
		pgn   string
		flags [][]string
	}{
		{"testdata/pgn/small.pgn", flagSets},
		{"testdata/pgn/ties.pgn", flagSets},
		{"testdata/pgn/forms.pgn", flagSets},
		{"testdata/pgn/random.pgn", fewFlagSets},
		{halving, fewFlagSets[:3]},
	}
	eightMoves, realGames, realFlags := "", 3000, fewFlagSets
	if makeBookRace {
		realGames, realFlags = 1000, fewFlagSets[:2]
		inputs[3].flags, inputs[4].flags = fewFlagSets[:2], fewFlagSets[:1]
	}
	if _, err := os.Stat(shared8Moves); err == nil {
		eightMoves = filepath.Join(dir, "8moves_part.pgn")
		firstGames(t, shared8Moves, eightMoves, realGames)
		inputs = append(inputs, struct {
			pgn   string
			flags [][]string
		}{eightMoves, realFlags})
	} else {
		t.Logf("%s not available: real games not compared", shared8Moves)
	}
	for _, in := range inputs {
		pgn := in.pgn
		for i, flags := range in.flags {
			pg := polyglotMakeBook(t, pgn, filepath.Join(dir, fmt.Sprintf("pg%d.bin", i)), flags...)
			ours := ourMakeBook(t, pgn, filepath.Join(dir, fmt.Sprintf("ours%d.bin", i)), flags...)
			if !bytes.Equal(ours, pg) {
				t.Errorf("%s %v: books differ (%d and %d bytes): %s", filepath.Base(pgn), flags, len(ours), len(pg), firstDiff(ours, pg))
			} else if len(pg) == 0 && len(flags) > 0 && flags[0] == "-min-game" && flags[1] == "1" && len(flags) == 2 {
				t.Errorf("%s %v: empty books compare nothing", pgn, flags)
			}
		}
	}

	// The whole reference file, as the speed target uses it.
	if eightMoves != "" && (testing.Short() || makeBookRace) {
		t.Logf("the whole of %s is compared only without -short and -race", shared8Moves)
	}
	if eightMoves != "" && !testing.Short() && !makeBookRace {
		pg := polyglotMakeBook(t, shared8Moves, filepath.Join(dir, "pg-full.bin"), "-max-ply", "16")
		ours := ourMakeBook(t, shared8Moves, filepath.Join(dir, "ours-full.bin"), "-max-ply", "16")
		if !bytes.Equal(ours, pg) {
			t.Errorf("8moves_v3.pgn -max-ply 16: books differ: %s", firstDiff(ours, pg))
		}
		if len(pg) != 22054*book.EntrySize {
			t.Errorf("PolyGlot's book has %d entries, want 22054", len(pg)/book.EntrySize)
		}
	}
}

// TestMakeBookCLI: flags, the summary, skipped games, round trip through
// the book reader, and no book left behind on failure.
func TestMakeBookCLI(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "robust.bin")
	code, stdout, stderr := runCmd(t, "make-book", "-pgn", "testdata/pgn/robust.pgn", "-pgn", "testdata/pgn/small.pgn", "-bin", out, "-min-game", "1")
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"robust.pgn:13: game skipped: ply 3 (2.): illegal move: \"Ke3\"",
		"17 games read, 7 used, 10 skipped",
		"null move: 3",
		"bad tag: 1",
		"entries written to " + out,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	b, err := book.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	start := book.StartPosition()
	var got []string
	for _, e := range b.Entries(start.Key()) {
		got = append(got, fmt.Sprintf("%v %d", e.Move, e.Weight))
	}
	// e4: robust 2+1, small 2+0+1; d4: small 1.
	if strings.Join(got, ",") != "e2e4 6,d2d4 1" {
		t.Errorf("start position entries %v", got)
	}

	// Failures: exit non-zero and the old book stays as it was.
	old := []byte("an old book")
	if err := os.WriteFile(out, old, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"make-book", "-pgn", "testdata/pgn/small.pgn", "-pgn", filepath.Join(dir, "missing.pgn"), "-bin", out},
		{"make-book", "-pgn", dir, "-bin", out},
		{"make-book", "-bin", out},
		{"make-book", "-pgn", "testdata/pgn/small.pgn"},
		{"make-book", "-pgn", "testdata/pgn/small.pgn", "-bin", out, "-max-ply", "x"},
		{"make-book", "-pgn", "testdata/pgn/small.pgn", "-bin", out, "extra"},
		{"make-book", "-pgn", os.DevNull, "-bin", out},
		{"make-book", "-pgn", "testdata/txt/small.txt", "-bin", out},
	} {
		code, _, stderr := runCmd(t, args...)
		if code == 0 {
			t.Errorf("%v: exit 0", args)
		}
		if stderr == "" {
			t.Errorf("%v: no message", args)
		}
		if data, _ := os.ReadFile(out); !bytes.Equal(data, old) {
			t.Errorf("%v: the old book was changed", args)
		}
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 {
		t.Errorf("leftover files: %v", names)
	}
	if code, _, stderr := runCmd(t, "make-book", "-h"); code != 0 || !strings.Contains(stderr, "-min-score") {
		t.Errorf("-h: exit %d\n%s", code, stderr)
	}
}
