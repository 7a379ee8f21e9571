package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command that reads a book takes it as its argument, in any
// format, and the flags it took before (-bin, -book, -in) keep working:
// the two give the same output. (probe book.bin and info-book book.bin
// were "unexpected argument".)
func TestBookAsArgument(t *testing.T) {
	bin := "testdata/learn/book.bin"
	abkPath := filepath.Join(t.TempDir(), "learn.abk")
	if code, _, errs := runCmd(t, "convert-book", bin, "-out", abkPath); code != 0 {
		t.Fatalf("convert-book BOOK -out: exit %d\n%s", code, errs)
	}
	for _, book := range []string{bin, abkPath} {
		for _, tc := range []struct {
			flagged, positional []string
		}{
			{[]string{"probe", "-book", book, "-moves", "e2e4"}, []string{"probe", book, "-moves", "e2e4"}},
			{[]string{"info-book", "-bin", book}, []string{"info-book", book}},
			{[]string{"dump-book", "-bin", book, "-color", "black"}, []string{"dump-book", "-color", "black", book}},
			{[]string{"book-to-pgn", "-bin", book}, []string{"book-to-pgn", book}},
			{[]string{"book-to-openings", "-bin", book, "-ply", "2"}, []string{"book-to-openings", book, "-ply", "2"}},
		} {
			code1, out1, err1 := runCmd(t, tc.flagged...)
			code2, out2, err2 := runCmd(t, tc.positional...)
			if code1 != 0 || code2 != 0 || out1 == "" || out1 != out2 {
				t.Errorf("%q: exit %d\n%s%s\n%q: exit %d\n%s%s", tc.flagged, code1, out1, err1, tc.positional, code2, out2, err2)
			}
		}
	}
	// Two books, as probe -book "a;b" reads them, and merge-book's two.
	code1, out1, _ := runCmd(t, "probe", "-book", "testdata/book/oddities.bin;"+bin)
	code2, out2, _ := runCmd(t, "probe", "testdata/book/oddities.bin", bin)
	if code1 != 0 || out1 != out2 || !strings.Contains(out2, "books for white: ") {
		t.Errorf("probe with two books: exit %d %d\n%s\n%s", code1, code2, out1, out2)
	}
	merged := filepath.Join(t.TempDir(), "m.bin")
	if code, _, errs := runCmd(t, "merge-book", bin, abkPath, "-out", merged); code != 0 || !strings.Contains(errs, "written to "+merged) {
		t.Errorf("merge-book A B -out C: exit %d\n%s", code, errs)
	}
	// A book given both ways is refused, as is a second one where one
	// is read.
	for _, args := range [][]string{
		{"info-book", bin, "-bin", bin},
		{"info-book", bin, "testdata/book/oddities.bin"},
		{"convert-book", bin, abkPath + ".bin"},
	} {
		code, out, errs := runCmd(t, args...)
		if code != 2 || out != "" || strings.Count(errs, "\n") != 2 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a two-line usage error", args, code, out, errs)
		}
	}
	if _, _, errs := runCmd(t, "convert-book", bin, "out.abk"); !strings.Contains(errs, `unexpected argument "out.abk": the arguments are BOOK; name the file to write with -out`) {
		t.Errorf("convert-book IN OUT: %q", errs)
	}
}

// Moves are UCI or SAN, with move numbers or without, in probe as in the
// explorer. (probe -moves "e4 e5" was "bad move".)
func TestProbeMovesSAN(t *testing.T) {
	_, want, _ := runCmd(t, "probe", "testdata/learn/book.bin", "-moves", "e2e4 e7e5 g1f3")
	if !strings.Contains(want, "b8c6") {
		t.Fatalf("UCI moves:\n%s", want)
	}
	for _, moves := range []string{"e4 e5 Nf3", "1.e4 e5 2.Nf3", "1. e4 e5 2. Nf3 *", "e4,e5,g1f3"} {
		code, out, errs := runCmd(t, "probe", "testdata/learn/book.bin", "-moves", moves)
		if code != 0 || out != want {
			t.Errorf("-moves %q: exit %d\n%s%s", moves, code, out, errs)
		}
	}
	// Moves left unquoted are moves, not books.
	code, _, errs := runCmd(t, "probe", "testdata/learn/book.bin", "-moves", "e4", "e5")
	if code != 2 || !strings.Contains(errs, `"e5" is a move, not a book: quote the moves, as in -moves "e4 e5"`) {
		t.Errorf("unquoted moves: exit %d, %q", code, errs)
	}
	code, _, errs = runCmd(t, "probe", "testdata/learn/book.bin", "-moves", "1.e4 e5 2.Ke3")
	if code != 2 || !strings.Contains(errs, "-moves: move 3 (Ke3): not a legal move here") {
		t.Errorf("illegal move: exit %d, %q", code, errs)
	}
}

// Flags go before or after the arguments, or between them. (explore
// after.bin -edit took -edit for a book: "open book: stat -edit".)
func TestFlagsAfterArguments(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run([]string{"explore", "testdata/book/lasker-trap.bin", "-edit", "-addr", "nonsense"}, nil, &out, &errb)
	if code != 2 || !strings.HasPrefix(errb.String(), "explore: -addr nonsense: want HOST:PORT") || strings.Contains(errb.String(), "-edit") {
		t.Errorf("explore BOOK -edit -addr nonsense: exit %d, %q; want -addr refused, -edit taken", code, errb.String())
	}
	_, a, _ := runCmd(t, "info-book", "-json", "testdata/book/oddities.bin")
	_, b, _ := runCmd(t, "info-book", "testdata/book/oddities.bin", "-json")
	_, c, _ := runCmd(t, "info-book", "testdata/book/oddities.bin", "--json=true")
	if a == "" || a != b || a != c || a[0] != '{' {
		t.Errorf("-json before, after, with two dashes:\n%s\n%s\n%s", a, b, c)
	}
	// "--" ends the flags: a file may start with a dash.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "-odd.bin"), readAll(t, "testdata/book/oddities.bin"), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	t.Chdir(dir)
	_, d, errs := runCmd(t, "info-book", "-json", "--", "-odd.bin")
	t.Chdir(wd)
	if !strings.Contains(d, `"file":"-odd.bin"`) {
		t.Errorf("-- -odd.bin: %s%s", d, errs)
	}
}

// A mistyped command, flag or help topic is a short usage error (exit 2,
// two lines on stderr) naming the nearest name, and where help is. (The
// flag put one line above 50 lines of help; "polyproxy prob" looked for
// an ini file named prob; now it says both what prob is not.)
func TestDidYouMean(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"prob"}, `polyproxy: unknown command "prob" (did you mean probe?), and no ini file ` + filepath.Join(wd, "prob") + " is there"},
		{[]string{"infobook", "x.bin"}, `polyproxy: unknown command "infobook" (did you mean info-book?)` + "\n"},
		{[]string{"make-book", "-min-gmae", "3"}, "make-book: unknown flag -min-gmae; did you mean -min-game?\n" + `run "polyproxy make-book -h" for its usage`},
		{[]string{"probe", "--jsn", "x.bin"}, "probe: unknown flag -jsn; did you mean -json?"},
		{[]string{"help", "exlpore"}, `polyproxy: help: no command "exlpore"; did you mean explore?`},
		{[]string{"info-book", "-json=maybe", "x.bin"}, "info-book: -json maybe: want true or false"},
		{[]string{"dump-book", "x.bin", "-color"}, "dump-book: -color needs a value: -color WHITE|BLACK"},
		{[]string{"info-book"}, "info-book: BOOK (or -bin) is required"},
		{[]string{"frobnicate"}, `polyproxy: unknown command "frobnicate", and no ini file ` + filepath.Join(wd, "frobnicate") + " is there\n"},
	} {
		var out, errb bytes.Buffer
		code := Run(tc.args, strings.NewReader(""), &out, &errb)
		lines := strings.Count(errb.String(), "\n")
		if code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), tc.want) || lines != 2 {
			t.Errorf("%q: exit %d, stdout %q, stderr (%d lines):\n%s\nwant exit 2 and %q in two lines", tc.args, code, out.String(), lines, errb.String(), tc.want)
		}
	}
}

// PolyGlot's command line keeps its first argument: an ini file that is
// there, or a name with a folder or an extension, is the proxy's ini,
// never a mistyped command.
func TestIniStillFirst(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("probe2", []byte("[PolyGlot]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"probe2", "missing.ini", "./prob"} {
		var out, errb bytes.Buffer
		Run([]string{arg}, strings.NewReader(""), &out, &errb)
		if strings.Contains(errb.String(), "unknown command") || !strings.Contains(errb.String(), "ini") && !strings.Contains(errb.String(), "EngineCommand") {
			t.Errorf("polyproxy %s: %q; want the proxy's word on its ini", arg, errb.String())
		}
	}
}

// Help asked for goes to stdout with exit 0: polyproxy help | less shows
// it. help COMMAND and COMMAND -h are the command's own help; version -h
// works. (help probe printed the general help; all of it went to
// stderr; version -h was an error.)
func TestHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"-help"}} {
		var out, errb bytes.Buffer
		if code := Run(args, nil, &out, &errb); code != 0 || errb.Len() != 0 || !strings.Contains(out.String(), "Commands:") || !strings.Contains(out.String(), "help COMMAND") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
	for _, c := range commands {
		var out1, out2, out3, errb bytes.Buffer
		code1 := Run([]string{"help", c.name}, nil, &out1, &errb)
		code2 := Run([]string{c.name, "-h"}, nil, &out2, &errb)
		code3 := Run([]string{c.name, "--help"}, nil, &out3, &errb)
		if code1 != 0 || code2 != 0 || code3 != 0 || errb.Len() != 0 || out1.String() != out2.String() || out1.String() != out3.String() ||
			!strings.HasPrefix(out1.String(), "usage: polyproxy "+c.name) {
			t.Errorf("help %s: exit %d %d %d, stderr %q\n%s", c.name, code1, code2, code3, errb.String(), out1.String())
		}
	}
	var out, errb bytes.Buffer
	if code := Run([]string{"help", "probe"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "-moves") || strings.Contains(out.String(), "Commands:") {
		t.Errorf("help probe: exit %d\n%s", code, out.String())
	}
}
