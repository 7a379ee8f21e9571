package cli

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// runCmd runs polyproxy in-process.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = Run(args, strings.NewReader(""), &o, &e)
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
	cmd := exec.Command(testenv.PolyGlot(t), args...)
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

// bookGamesPGN writes n games that follow the gnuchess book as far as it
// goes (as an opening suite's games do) and returns the file.
func bookGamesPGN(t *testing.T, n int) string {
	t.Helper()
	b := fixture.OpenPath(t, testenv.GnuchessBook(t))
	path := filepath.Join(t.TempDir(), fmt.Sprintf("book-games-%d.pgn", n))
	if err := os.WriteFile(path, fixture.BookGames(b, n, "Stockfish", 7), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// randomBook is the book make-book builds from random.pgn's random legal
// games (castling, en passant and promotions in every game), both colours.
func randomBook(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "random.bin")
	ourMakeBook(t, "testdata/pgn/random.pgn", path, "-min-game", "1", "-max-ply", "40")
	return path
}

// firstDiff describes where two books differ.
func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i += polyglot.EntrySize {
		if !bytes.Equal(a[i:min(i+polyglot.EntrySize, n)], b[i:min(i+polyglot.EntrySize, n)]) {
			if i+polyglot.EntrySize <= n {
				return fmt.Sprintf("entry %d: ours %+v, PolyGlot %+v", i/polyglot.EntrySize, polyglot.DecodeEntry(a[i:]), polyglot.DecodeEntry(b[i:]))
			}
			return fmt.Sprintf("entry %d", i/polyglot.EntrySize)
		}
	}
	return fmt.Sprintf("sizes %d and %d", len(a), len(b))
}

// TestMakeBookMatchesPolyGlot builds books with PolyGlot 2.0.4 and with us
// from the same PGNs and flags and compares the bytes.
func TestMakeBookMatchesPolyGlot(t *testing.T) {
	testenv.PolyGlot(t)
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
	bookGames, realFlags := 3000, fewFlagSets
	if testenv.RaceEnabled {
		bookGames, realFlags = 1000, fewFlagSets[:2]
		inputs[3].flags, inputs[4].flags = fewFlagSets[:2], fewFlagSets[:1]
	}
	inputs = append(inputs, struct {
		pgn   string
		flags [][]string
	}{bookGamesPGN(t, bookGames), realFlags})
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

	// A large input, 20,000 games at -max-ply 16 (as make-book is used on
	// opening suites), without -short and -race only.
	if !testing.Short() && !testenv.RaceEnabled {
		large := bookGamesPGN(t, 20000)
		pg := polyglotMakeBook(t, large, filepath.Join(dir, "pg-large.bin"), "-max-ply", "16")
		ours := ourMakeBook(t, large, filepath.Join(dir, "ours-large.bin"), "-max-ply", "16")
		if !bytes.Equal(ours, pg) {
			t.Errorf("20,000 games -max-ply 16: books differ: %s", firstDiff(ours, pg))
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
	b, err := formats.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	start := board.StartPosition()
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
	if code, stdout, _ := runCmd(t, "make-book", "-h"); code != 0 || !strings.Contains(stdout, "-min-score") {
		t.Errorf("-h: exit %d\n%s", code, stdout)
	}
}

// halvingPGN writes n games where one move reaches 16384 games (PolyGlot
// halves its position) and returns the file.
func halvingPGN(t *testing.T, n int) string {
	t.Helper()
	var sb strings.Builder
	results := []string{"1-0", "0-1", "1/2-1/2", "*"}
	for i := range n {
		move := "e4 e5"
		if i%7 == 0 {
			move = "d4 d5"
		}
		fmt.Fprintf(&sb, "[Result \"%s\"]\n\n1. %s *\n\n", results[(i*7/3)%4], move)
	}
	path := filepath.Join(t.TempDir(), "halving.pgn")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// compressedCopies writes path gzipped, bzip2ed (with the bzip2 program)
// and zstd-compressed, plus a gzip named .pgn, and returns the files.
func compressedCopies(t *testing.T, path string) []string {
	t.Helper()
	data := fixture.ReadFile(t, path)
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"games.pgn.gz": gz.Bytes(), "gzip-named.pgn": gz.Bytes(), "games.pgn.zst": enc.EncodeAll(data, nil)}
	enc.Close()
	bz, err := exec.Command(testenv.Program(t, "bzip2", "bzip2"), "-c", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	files["games.pgn.bz2"] = bz
	var out []string
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// TestMakeBookThreadsAndInputs: the book is the same bytes with one
// thread, several, from compressed copies and from standard input, and
// equals PolyGlot's (halving included) with one thread and with four.
func TestMakeBookThreadsAndInputs(t *testing.T) {
	n := 3000
	if testenv.RaceEnabled {
		n = 800
	}
	for _, pgn := range []string{bookGamesPGN(t, n), halvingPGN(t, 17000)} {
		dir := t.TempDir()
		want := ourMakeBook(t, pgn, filepath.Join(dir, "one.bin"), "-threads", "1", "-min-game", "1")
		if len(want) == 0 {
			t.Fatal("empty book")
		}
		for _, threads := range []string{"2", "4"} {
			if got := ourMakeBook(t, pgn, filepath.Join(dir, "t.bin"), "-threads", threads, "-min-game", "1"); !bytes.Equal(got, want) {
				t.Errorf("%s -threads %s: differs from -threads 1: %s", filepath.Base(pgn), threads, firstDiff(got, want))
			}
		}
		for _, in := range compressedCopies(t, pgn) {
			if got := ourMakeBook(t, in, filepath.Join(dir, "c.bin"), "-min-game", "1"); !bytes.Equal(got, want) {
				t.Errorf("%s: differs from the plain file: %s", filepath.Base(in), firstDiff(got, want))
			}
		}
		old := pgnStdin
		pgnStdin = bytes.NewReader(fixture.ReadFile(t, pgn))
		got := ourMakeBook(t, "-", filepath.Join(dir, "stdin.bin"), "-min-game", "1")
		pgnStdin = old
		if !bytes.Equal(got, want) {
			t.Errorf("%s from stdin: differs: %s", filepath.Base(pgn), firstDiff(got, want))
		}
		if testenv.RaceEnabled {
			continue // PolyGlot's side is compared above, without -race
		}
		pg := polyglotMakeBook(t, pgn, filepath.Join(dir, "pg.bin"), "-min-game", "1")
		if !bytes.Equal(want, pg) {
			t.Errorf("%s: -threads 1 differs from PolyGlot: %s", filepath.Base(pgn), firstDiff(want, pg))
		}
		if got := ourMakeBook(t, pgn, filepath.Join(dir, "t4.bin"), "-threads", "4", "-min-game", "1"); !bytes.Equal(got, pg) {
			t.Errorf("%s: -threads 4 differs from PolyGlot: %s", filepath.Base(pgn), firstDiff(got, pg))
		}
	}
}

// TestMakeBookFilterFlags: the filter flags reach the build and the
// summary counts what they dropped; bad values are usage errors.
func TestMakeBookFilterFlags(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "f.pgn")
	games := `[White "Ann"]
[Black "Bo"]
[Result "1/2-1/2"]
[WhiteElo "2500"]
[BlackElo "2400"]
[UTCDate "2024.05.01"]
[TimeControl "180+2"]
[Termination "Normal"]

1. e4 e5 1/2-1/2

[White "Bo"]
[Black "Ann"]
[Result "1/2-1/2"]
[WhiteElo "1500"]
[BlackElo "2500"]
[Date "2020.??.??"]
[TimeControl "60+0"]
[Termination "Time forfeit"]

1. d4 d5 1/2-1/2
`
	os.WriteFile(pgn, []byte(games), 0o644)
	out := filepath.Join(dir, "f.bin")
	for _, c := range []struct {
		flags   []string
		entries int
		summary string
	}{
		{nil, 4, "2 games read, 2 used, 0 skipped\n"},
		{[]string{"-min-elo", "2000"}, 2, "1 filtered out; rating: 1"},
		{[]string{"-min-mover-elo", "2000"}, 3, "2 games read, 2 used"},
		{[]string{"-from-date", "2021"}, 2, "date: 1"},
		{[]string{"-to-date", "2020.12"}, 2, "date: 1"},
		{[]string{"-player", "ann"}, 2, "2 games read, 2 used"},
		{[]string{"-time-control", "blitz,rapid"}, 2, "time control: 1"},
		{[]string{"-min-base-time", "120"}, 2, "time control: 1"},
		{[]string{"-skip-forfeits"}, 2, "termination: 1"},
		{[]string{"-skip-termination", "normal"}, 2, "termination: 1"},
		{[]string{"-min-share", "60"}, 2, ""}, // 1. e4 and 1. d4 have 50% each
	} {
		args := append([]string{"make-book", "-pgn", pgn, "-bin", out, "-min-game", "1"}, c.flags...)
		code, _, stderr := runCmd(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d\n%s", c.flags, code, stderr)
			continue
		}
		if n := len(fixture.ReadFile(t, out)) / polyglot.EntrySize; n != c.entries {
			t.Errorf("%v: %d entries, want %d", c.flags, n, c.entries)
		}
		if !strings.Contains(stderr, c.summary) {
			t.Errorf("%v: summary lacks %q:\n%s", c.flags, c.summary, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "make-book", "-pgn", pgn, "-bin", out, "-player", "Nobody"); code != 1 || !strings.Contains(stderr, "no game passed the filters") {
		t.Errorf("no game left: exit %d\n%s", code, stderr)
	}
	for _, bad := range [][]string{
		{"-from-date", "2024.13"}, {"-to-date", "x"}, {"-time-control", "blitzz"}, {"-min-share", "101"}, {"-threads", "0"},
	} {
		if code, _, _ := runCmd(t, append([]string{"make-book", "-pgn", pgn, "-bin", out}, bad...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}

// TestMakeBookCompressedTail: a .pgn.gz padded with zeros was refused
// ("invalid header"), where gzip reads it; now it makes the same book
// with a warning naming the file. A zstd file with a tail is refused as
// zstd refuses it, and the error says what is wrong.
func TestMakeBookCompressedTail(t *testing.T) {
	dir := t.TempDir()
	plain, err := os.ReadFile("testdata/pgn/small.pgn")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	padded := filepath.Join(dir, "padded.pgn.gz")
	os.WriteFile(padded, append(gz.Bytes(), make([]byte, 4096)...), 0o644)
	want := ourMakeBook(t, "testdata/pgn/small.pgn", filepath.Join(dir, "want.bin"), "-min-game", "1")
	out := filepath.Join(dir, "out.bin")
	code, _, stderr := runCmd(t, "make-book", "-pgn", padded, "-bin", out, "-min-game", "1")
	got, _ := os.ReadFile(out)
	if code != 0 || !bytes.Equal(got, want) || !strings.Contains(stderr, "warning: "+padded+": 4096 bytes of zero padding") {
		t.Errorf("zero-padded gzip: exit %d, same book %v\n%s", code, bytes.Equal(got, want), stderr)
	}
	enc, _ := zstd.NewWriter(nil)
	tailed := filepath.Join(dir, "tailed.pgn.zst")
	os.WriteFile(tailed, append(enc.EncodeAll(plain, nil), "junk"...), 0o644)
	enc.Close()
	code, _, stderr = runCmd(t, "make-book", "-pgn", tailed, "-bin", filepath.Join(dir, "z.bin"))
	if code != 1 || !strings.Contains(stderr, "not zstd data") {
		t.Errorf("zstd with a tail: exit %d\n%s", code, stderr)
	}
}

// settingSamples are values make-book's settings take, by flag (a
// setting of the table without one fails TestMakeBookSettingsFromCounts).
var settingSamples = map[string]string{
	"max-ply": "20", "min-game": "1", "min-score": "10", "only-white": "true", "only-black": "true", "uniform": "true",
	"min-share": "1", "min-elo": "2000", "min-mover-elo": "2000", "from-date": "2020", "to-date": "2024.06",
	"player": "Carlsen, Magnus", "time-control": "blitz", "min-base-time": "60", "skip-termination": "Abandoned",
	"skip-forfeits": "true", "pgn": "testdata/pgn/small.pgn", "counts": "x.counts", "threads": "2", "memory": "64M", "tmp": ".",
}

// TestMakeBookSettingsFromCounts walks make-book's table of settings
// and its reading flags: -from-counts takes a move rule, and refuses
// what is counted (max-ply, a game filter) and what reads PGN, before
// anything is written.
func TestMakeBookSettingsFromCounts(t *testing.T) {
	flags := slices.Clone(readingFlags)
	for _, s := range build.Settings() {
		flags = append(flags, s.Flag)
	}
	refused := 0
	for _, name := range flags {
		v, ok := settingSamples[name]
		if !ok {
			t.Fatalf("no sample value for -%s", name)
		}
		out := filepath.Join(t.TempDir(), "out.bin")
		code, _, stderr := runCmd(t, "make-book", "-from-counts", "testdata/counts/small-v1.counts", "-bin", out, "-"+name+"="+v)
		s, _ := settingOf(name)
		takes := s != nil && !s.Counted()
		_, statErr := os.Stat(out)
		switch {
		case takes && code != 0:
			t.Errorf("-from-counts -%s=%s (a move rule): exit %d\n%s", name, v, code, stderr)
		case !takes && (code != 2 || !strings.Contains(stderr, "-"+name+" does not go with -from-counts") || statErr == nil):
			t.Errorf("-from-counts -%s=%s: exit %d, book written %v, want a usage error naming it\n%s", name, v, code, statErr == nil, stderr)
		case !takes:
			refused++
		}
	}
	if refused < 13 {
		t.Errorf("only %d flags refused with -from-counts", refused)
	}
}

func settingOf(flag string) (*build.Setting, bool) {
	settings := build.Settings()
	for i := range settings {
		if settings[i].Flag == flag {
			return &settings[i], true
		}
	}
	return nil, false
}
