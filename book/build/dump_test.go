package build

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

// polyglotDump runs PolyGlot's dump-book on a copy of the book (PolyGlot
// only reads it, but shared books are never handed to other tools in
// place) and returns its output file, with the copy's name replaced by name.
func polyglotDump(t *testing.T, src, name string, white bool) []byte {
	t.Helper()
	polyglot := testenv.PolyGlot(t)
	data := fixture.ReadFile(t, src)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	colour := "black"
	if white {
		colour = "white"
	}
	cmd := exec.Command(polyglot, "dump-book", "-bin", "in.bin", "-color", colour, "-out", "out.txt")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("polyglot: %v\n%s", err, out)
	}
	out, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Replace(out, []byte(`"in.bin"`), []byte(`"`+name+`"`), 1)
}

func dumpString(t *testing.T, b *book.Book, name string, white bool) (string, int) {
	t.Helper()
	var buf bytes.Buffer
	res, err := Dump(&buf, b, name, white)
	if err != nil {
		t.Fatal(err)
	}
	return buf.String(), res.Lines
}

func TestDumpLaskerTrap(t *testing.T) {
	b := fixture.Open(t, "lasker-trap.bin")
	got, n := dumpString(t, b, "lasker-trap.bin", false)
	want := "Dump of \"lasker-trap.bin\" for black.\n" +
		"1: 1. d4 d5{100%} 2. c4 e5{100%} 3. dxe5 d4{100%} 4. e3 Bb4+{100%} 5. Bd2 dxe3{100%} 6. Bxb4 exf2+{100%} 7. Ke2 fxg1=N+{100%} \n"
	if got != want || n != 1 {
		t.Errorf("got %d lines:\n%s\nwant:\n%s", n, got, want)
	}
	// A book with only Black's moves has no lines for White.
	if got, n := dumpString(t, b, "lasker-trap.bin", true); n != 0 || got != "Dump of \"lasker-trap.bin\" for white.\n" {
		t.Errorf("white: %d lines %q", n, got)
	}
}

// A book whose lines return to earlier positions must end them with
// {cycle} and {trans} notes instead of looping.
func TestDumpCyclesAndTranspositions(t *testing.T) {
	var poss []fixture.Pos
	add := func(moves string, stored ...fixture.Stored) {
		poss = append(poss, fixture.Pos{Name: moves, FEN: fixture.Line(t, "", moves).Pos.FEN(), Entries: stored})
	}
	add("", fixture.Stored{Move: "g1f3", Weight: 2}, fixture.Stored{Move: "e2e4", Weight: 1}, fixture.Stored{Move: "d2d4", Weight: 1})
	add("g1f3 g8f6", fixture.Stored{Move: "f3g1", Weight: 1}, fixture.Stored{Move: "d2d4", Weight: 1})
	add("e2e4 d7d5", fixture.Stored{Move: "d2d4", Weight: 1})
	add("d2d4 d7d5", fixture.Stored{Move: "e2e4", Weight: 1})
	add("g1f3 g8f6 d2d4 d7d5", fixture.Stored{Move: "f3g1", Weight: 3})
	data := fixture.BookBytes(t, poss)
	b := fixture.WriteBook(t, data)
	got, n := dumpString(t, b, "cycle.bin", true)
	t.Logf("\n%s", got)
	if n == 0 || !strings.Contains(got, "{cycle: ply=0}") || !strings.Contains(got, "{trans: line=") {
		t.Errorf("no cycle/trans notes in %d lines:\n%s", n, got)
	}
	// And exactly as PolyGlot prints it.
	path := filepath.Join(t.TempDir(), "cycle.bin")
	os.WriteFile(path, data, 0o644)
	for _, white := range []bool{true, false} {
		ours, _ := dumpString(t, b, "cycle.bin", white)
		if theirs := string(polyglotDump(t, path, "cycle.bin", white)); ours != theirs {
			t.Errorf("white=%v: differs from PolyGlot\nours:\n%s\nPolyGlot:\n%s", white, ours, theirs)
		}
	}
}

// dump-book's output is byte for byte PolyGlot's: on the Lasker trap, on
// a book made from random games (castling, en passant, promotions, lines
// crossing), and with POLYPROXY_FULL_DUMP=1 on the gnuchess book both
// ways (about a minute).
func TestDumpMatchesPolyGlot(t *testing.T) {
	lasker := fixture.Path("lasker-trap.bin")
	random := filepath.Join(t.TempDir(), "random.bin")
	_, entries := buildFile(t, filepath.Join(fixture.Testdata, "pgn", "random.pgn"), Options{MaxPly: 40, MinGame: 1})
	if err := polyglot.WriteFile(random, entries); err != nil {
		t.Fatal(err)
	}
	type dumpCase struct {
		path  string
		white bool
	}
	cases := []dumpCase{{lasker, false}, {random, true}, {random, false}}
	if os.Getenv("POLYPROXY_FULL_DUMP") != "" {
		gnuchess := testenv.GnuchessBook(t)
		cases = append(cases, dumpCase{gnuchess, true}, dumpCase{gnuchess, false})
	}
	for _, tc := range cases {
		b := fixture.OpenPath(t, tc.path)
		ours, n := dumpString(t, b, "book.bin", tc.white)
		if n < 1 {
			t.Errorf("%s white=%v: no lines", tc.path, tc.white)
		}
		theirs := string(polyglotDump(t, tc.path, "book.bin", tc.white))
		if ours != theirs {
			ol, tl := strings.Split(ours, "\n"), strings.Split(theirs, "\n")
			for i := 0; i < min(len(ol), len(tl)); i++ {
				if ol[i] != tl[i] {
					t.Errorf("%s white=%v: first difference at line %d:\n ours: %s\n them: %s", tc.path, tc.white, i+1, ol[i], tl[i])
					break
				}
			}
			t.Errorf("%s white=%v: %d lines, PolyGlot %d", tc.path, tc.white, len(ol), len(tl))
		}
	}
}
