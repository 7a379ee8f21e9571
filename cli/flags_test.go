package cli

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book/formats"
)

// commandFlags returns the flags of every command, as each command
// defines them (seen through seeFlags while "COMMAND -h" runs).
func commandFlags(t *testing.T) map[string]*flag.FlagSet {
	t.Helper()
	sets := map[string]*flag.FlagSet{}
	var seen *flag.FlagSet
	seeFlags = func(fs *flag.FlagSet) { seen = fs }
	defer func() { seeFlags = nil }()
	for _, c := range commands {
		seen = nil
		if code, _, stderr := runCmd(t, c.name, "-h"); code != 0 || seen == nil {
			t.Fatalf("%s -h: exit %d, flags seen: %v\n%s", c.name, code, seen != nil, stderr)
		}
		sets[c.name] = seen
	}
	return sets
}

// isNumeric tells whether a flag takes a number.
func isNumeric(f *flag.Flag) bool {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	switch g.Get().(type) {
	case int, int64, uint, uint64, float64, time.Duration:
		return true
	}
	return false
}

// hostileNumbers are refused by every numeric flag, whatever its range.
var hostileNumbers = []string{
	"nan", "NaN", "inf", "+Inf", "-inf", "1e400", "-1e400",
	"99999999999999999999", "-99999999999999999999",
	"9223372036854775808", "-9223372036854775809", "", "ten", "0x10",
}

// TestNumericFlagsBounded walks every numeric flag of every command (a
// new one is walked too) and checks that it has a range, that values
// outside it, NaN, the infinities and overflows are a usage error naming
// the flag before anything runs, and that both ends of the range are
// taken.
func TestNumericFlagsBounded(t *testing.T) {
	numeric := 0
	for name, fs := range commandFlags(t) {
		fs.VisitAll(func(f *flag.Flag) {
			if !isNumeric(f) {
				return
			}
			numeric++
			b, ok := f.Value.(interface{ Bounds() (float64, float64) })
			if !ok {
				t.Errorf("%s -%s takes a number without bounds: define it with a bounded value (flagval, the option table)", name, f.Name)
				return
			}
			lo, hi := b.Bounds()
			_, isInt := f.Value.(flag.Getter).Get().(int)
			format := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
			below, above := format(lo-1), format(hi+1)
			if !isInt {
				below, above = format(math.Nextafter(lo, math.Inf(-1))), format(math.Nextafter(hi, math.Inf(1)))
			}
			for _, v := range append([]string{below, above}, hostileNumbers...) {
				code, _, stderr := runCmd(t, name, "-"+f.Name+"="+v)
				if code != 2 || !strings.Contains(stderr, "-"+f.Name+" "+v+": want ") {
					t.Errorf("%s -%s=%q: exit %d, want 2 and an error naming the flag; stderr:\n%s", name, f.Name, v, code, firstLine(stderr))
				}
			}
			for _, v := range []string{format(lo), format(hi)} {
				if err := f.Value.Set(v); err != nil {
					t.Errorf("%s -%s=%s (an end of its range) refused: %v", name, f.Name, v, err)
				}
			}
		})
	}
	if numeric < 15 {
		t.Errorf("only %d numeric flags found: the walk misses some", numeric)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestMakeBookThreadsBounded: -threads beyond the cap was taken, and
// 100000000 threads took 5 GB and 100 s; 2147483648 crashed the process
// out of memory.
func TestMakeBookThreadsBounded(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.bin")
	for _, v := range []string{"0", "-1", strconv.Itoa(maxThreads + 1), "100000000", "2147483648"} {
		start := time.Now()
		code, _, stderr := runCmd(t, "make-book", "-q", "-pgn", "testdata/pgn/small.pgn", "-bin", out, "-threads", v)
		if code != 2 || !strings.Contains(stderr, "-threads") {
			// Fatal: the old code would go on to the huge values.
			t.Fatalf("-threads %s: exit %d after %v, want a usage error naming -threads\n%s", v, code, time.Since(start), stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("-threads %s: a book was written", v)
		}
	}
	ourMakeBook(t, "testdata/pgn/small.pgn", out, "-threads", strconv.Itoa(maxThreads), "-min-game", "1")
}

// TestMakeBookMoveRulesBounded: -min-score 101 wrote an empty book over
// the old one; -min-share nan filtered nothing.
func TestMakeBookMoveRulesBounded(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.bin")
	before := ourMakeBook(t, "testdata/pgn/small.pgn", out, "-min-game", "1")
	for _, flags := range [][]string{
		{"-min-score", "101"}, {"-min-score", "-1"}, {"-min-score", "nan"},
		{"-min-share", "nan"}, {"-min-share", "100.5"}, {"-min-share", "-inf"},
		{"-min-game", "-1"}, {"-max-ply", "-1"}, {"-min-elo", "-5"},
	} {
		args := append([]string{"make-book", "-q", "-pgn", "testdata/pgn/small.pgn", "-bin", out, "-min-game", "1"}, flags...)
		code, _, stderr := runCmd(t, args...)
		if code != 2 || !strings.Contains(stderr, flags[0]) {
			t.Errorf("%v: exit %d, want a usage error naming %s\n%s", flags, code, flags[0], firstLine(stderr))
		}
		if after, _ := os.ReadFile(out); !bytes.Equal(after, before) {
			t.Errorf("%v: the book was replaced (%d -> %d bytes)", flags, len(before), len(after))
		}
	}
}

// carlsenPGN writes two games of a player named "Last, First" as PGN
// writes names.
func carlsenPGN(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "carlsen.pgn")
	games := `[White "Carlsen, Magnus"]
[Black "Nakamura, Hikaru"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[White "Nakamura, Hikaru"]
[Black "Carlsen, Magnus"]
[Result "0-1"]

1. d4 Nf6 2. c4 e6 0-1

[White "Magnus"]
[Black "Carlsen"]
[Result "1/2-1/2"]

1. c4 c5 1/2-1/2
`
	if err := os.WriteFile(path, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPlayerFlag: make-book split -player at commas, so "Carlsen,
// Magnus" matched nobody (and would have matched players "Carlsen" and
// "Magnus"), while learn took the name whole; an empty -player meant no
// filter. Both now read the flag with one parser.
func TestPlayerFlag(t *testing.T) {
	pgnPath := carlsenPGN(t)
	out := filepath.Join(t.TempDir(), "carlsen.bin")
	code, _, stderr := runCmd(t, "make-book", "-pgn", pgnPath, "-bin", out, "-min-game", "1", "-player", "  Carlsen, Magnus ")
	if code != 0 {
		t.Fatalf("make-book -player \"Carlsen, Magnus\": exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "3 games read, 2 used") {
		t.Errorf("want the two games of Carlsen, Magnus used:\n%s", stderr)
	}
	// His moves only: e2e4 and g1f3 as White, g8f6 and e7e6 as Black.
	b, err := formats.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var moves []string
	for i := range b.Len() {
		moves = append(moves, b.Entry(i).Move.String())
	}
	if got := strings.Join(slices.Sorted(slices.Values(moves)), " "); got != "e2e4 e7e6 g1f3 g8f6" {
		t.Errorf("book moves %q, want Carlsen, Magnus's four", got)
	}
	// Several players: the flag repeated.
	code, _, stderr = runCmd(t, "make-book", "-pgn", pgnPath, "-bin", out, "-min-game", "1", "-player", "Carlsen, Magnus", "-player", "magnus")
	if code != 0 || !strings.Contains(stderr, "3 games read, 3 used") {
		t.Errorf("two -player flags: exit %d, want all 3 games used\n%s", code, stderr)
	}

	bookPath, _ := learnFixtureCopy(t)
	for _, bad := range []string{"", ",", "  ", " , ", "\t"} {
		for _, args := range [][]string{
			{"make-book", "-pgn", pgnPath, "-bin", out, "-player", bad},
			{"learn", "-book", bookPath, "-pgn", pgnPath, "-player", bad},
		} {
			code, _, stderr := runCmd(t, args...)
			if code != 2 || !strings.Contains(stderr, "-player") {
				t.Errorf("%s -player %q: exit %d, want a usage error naming -player\n%s", args[0], bad, code, firstLine(stderr))
			}
		}
	}
	code, stdout, stderr := runCmd(t, "learn", "-book", bookPath, "-pgn", pgnPath, "-player", "Carlsen, Magnus", "-dry-run")
	if code != 0 || !strings.Contains(stdout, "games with book moves of Carlsen, Magnus") {
		t.Errorf("learn -player \"Carlsen, Magnus\": exit %d\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := runCmd(t, "learn", "-book", bookPath, "-pgn", pgnPath, "-player", "a", "-player", "b"); code != 2 || !strings.Contains(stderr, "-player") {
		t.Errorf("learn with two -player: exit %d\n%s", code, stderr)
	}
}
