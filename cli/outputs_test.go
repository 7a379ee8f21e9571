package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/fixture"
)

// sameFileSpellings returns other names of the existing file path: the
// same path, one through "sub/..", one relative to the working folder,
// a symbolic link to it, one through a linked folder and a hard link.
// Links the system refuses are left out.
func sameFileSpellings(t *testing.T, path string) map[string]string {
	t.Helper()
	dir, name := filepath.Split(path)
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	s := map[string]string{
		"same path":  path,
		"via sub/..": filepath.Join(sub, "..") + string(filepath.Separator) + name,
	}
	if cwd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(cwd, path); err == nil {
			s["relative"] = rel
		}
	}
	if link := filepath.Join(dir, "symlink-"+name); os.Symlink(path, link) == nil {
		s["symlink"] = link
	}
	if linkDir := filepath.Join(dir, "linked-dir"); os.Symlink(dir, linkDir) == nil {
		s["linked folder"] = filepath.Join(linkDir, name)
	}
	if hard := filepath.Join(dir, "hardlink-"+name); os.Link(path, hard) == nil {
		s["hard link"] = hard
	}
	return s
}

// writerCases are, for each command, the ways it is run with one input
// and one output file: args builds the command line. The readers have
// none. Every command must be listed, so a new command is classified.
var writerCases = map[string][]struct {
	input string // which fixture the input is
	args  func(in, out string) []string
}{
	"make-book": {
		{"pgn", func(in, out string) []string { return []string{"-pgn", in, "-bin", out} }},
		{"pgn", func(in, out string) []string { return []string{"-pgn", in, "-counts", out} }},
		{"pgn", func(in, out string) []string {
			return []string{"-pgn", "-", "-pgn", in, "-bin", out + ".other", "-counts", out}
		}},
		{"counts", func(in, out string) []string { return []string{"-from-counts", in, "-bin", out} }},
		{"pgn", func(in, out string) []string { return []string{"-pgn", in, "-abk", out} }},
		{"counts", func(in, out string) []string { return []string{"-from-counts", in, "-abk", out} }},
		{"pgn", func(in, out string) []string { return []string{in, "-bin", out} }},
	},
	"convert-book": {
		{"book", func(in, out string) []string { return []string{"-in", in, "-out", out} }},
		{"counts", func(in, out string) []string { return []string{"-in", in, "-out", out} }},
		{"book", func(in, out string) []string { return []string{in, "-out", out} }},
	},
	"sum-counts": {
		{"counts", func(in, out string) []string { return []string{"-out", out, in} }},
	},
	"merge-book": {
		{"book", func(in, out string) []string {
			return []string{"-in1", in, "-in2", "testdata/book/header.bin", "-out", out}
		}},
		{"book", func(in, out string) []string {
			return []string{"-in1", "testdata/book/header.bin", "-in2", in, "-out", out}
		}},
		{"book", func(in, out string) []string { return []string{"testdata/book/header.bin", in, "-out", out} }},
	},
	"compile-book": {
		{"txt", func(in, out string) []string { return []string{"-txt", in, "-bin", out} }},
		{"txt", func(in, out string) []string { return []string{in, "-bin", out} }},
	},
	"book-to-pgn": {
		{"book", func(in, out string) []string { return []string{"-bin", in, "-out", out} }},
		{"book", func(in, out string) []string { return []string{"-out", out, in} }},
	},
	"book-to-openings": {
		{"book", func(in, out string) []string { return []string{"-bin", in, "-out", out} }},
	},
	"dump-book": {
		{"book", func(in, out string) []string { return []string{"-bin", in, "-out", out} }},
		{"book", func(in, out string) []string { return []string{in, "-out", out} }},
	},
	// learn writes -book in place: its input -pgn must not be that book.
	"learn": {
		{"book", func(in, out string) []string { return []string{"-book", in, "-pgn", out, "-player", "Alpha"} }},
		{"book", func(in, out string) []string { return []string{in, out, "-player", "Alpha"} }},
	},
	"probe":     nil,
	"info-book": nil,
	"explore":   nil, // with -edit it changes the books it shows, under learning's lock, and writes nothing else
	"version":   nil,
}

// TestWritersNeverClobberInputs: every command that writes refuses an
// output that is one of its inputs, under every spelling of the same
// file; the input keeps its bytes and nothing is written. (make-book
// -pgn r.pgn -bin r.pgn replaced the PGN with the book.)
func TestWritersNeverClobberInputs(t *testing.T) {
	for _, c := range commands {
		if _, ok := writerCases[c.name]; !ok {
			t.Errorf("command %s is not in writerCases: list how it writes (or nil if it does not)", c.name)
		}
	}
	fixtures := writerFixtures(t)
	for name, cases := range writerCases {
		for i, tc := range cases {
			if replacesBooks(name) && tc.input == "book" {
				continue // a book it may replace: TestReplacingAnInputThatChanged
			}
			in := fixture.CopyFile(t, fixtures[tc.input])
			dir := filepath.Dir(in)
			want, _ := os.ReadFile(in)
			for how, out := range sameFileSpellings(t, in) {
				args := append([]string{name}, tc.args(in, out)...)
				code, _, stderr := runCmd(t, args...)
				if code != 2 || !strings.Contains(stderr, "nothing written") {
					t.Errorf("%s case %d, output = input (%s): exit %d, want 2 and \"nothing written\"\n%s", name, i, how, code, stderr)
				}
				if got, _ := os.ReadFile(in); !bytes.Equal(got, want) {
					t.Fatalf("%s case %d, output = input (%s): the input changed", name, i, how)
				}
				if how == "symlink" {
					if fi, err := os.Lstat(out); err != nil || fi.Mode()&os.ModeSymlink == 0 {
						t.Errorf("%s case %d: the symbolic link was replaced", name, i)
					}
				}
			}
			leftovers, _ := filepath.Glob(filepath.Join(dir, "*.other"))
			temps, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
			if len(leftovers)+len(temps) > 0 {
				t.Errorf("%s case %d: files written: %v %v", name, i, leftovers, temps)
			}
		}
	}
}

// TestMakeBookOutputsDiffer: -bin X -counts X said both were written,
// but only the book survived. Two outputs naming one file are refused,
// existing or not, however spelled.
func TestMakeBookOutputsDiffer(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	x := filepath.Join(dir, "x")
	other := filepath.Join(dir, "sub", "..", "x")
	for _, exist := range []bool{false, true} {
		if exist {
			if err := os.WriteFile(x, []byte("keep"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, pair := range [][2]string{{x, x}, {x, other}} {
			code, _, stderr := runCmd(t, "make-book", "-q", "-pgn", "testdata/pgn/small.pgn", "-bin", pair[0], "-counts", pair[1])
			if code != 2 || !strings.Contains(stderr, "same file") {
				t.Errorf("-bin %s -counts %s (existing %v): exit %d, want a usage error\n%s", pair[0], pair[1], exist, code, stderr)
			}
			data, err := os.ReadFile(x)
			if exist && string(data) != "keep" || !exist && err == nil {
				t.Errorf("-bin %s -counts %s (existing %v): the file was written", pair[0], pair[1], exist)
			}
		}
	}
	if runtime.GOOS == "windows" {
		return
	}
	// An output through a dangling link names where the link points.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "y"), link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, "make-book", "-q", "-pgn", "testdata/pgn/small.pgn", "-bin", filepath.Join(dir, "y"), "-counts", link); code != 2 {
		t.Errorf("-counts through a link to -bin: exit %d\n%s", code, stderr)
	}
}

// TestOutputIsStdin: "-pgn -" with standard input redirected from the
// output file is refused too (make-book -pgn - -bin r.pgn < r.pgn).
func TestOutputIsStdin(t *testing.T) {
	in := fixture.CopyFile(t, "testdata/pgn/small.pgn") // r.pgn in the messages
	dir := filepath.Dir(in)
	want, _ := os.ReadFile(in)
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := pgnStdin
	pgnStdin = f
	defer func() { pgnStdin = saved }()
	for _, args := range [][]string{
		{"make-book", "-pgn", "-", "-bin", in},
		{"make-book", "-pgn", "-", "-counts", filepath.Join(dir, "sub", "..", filepath.Base(in))},
		{"learn", "-book", in, "-pgn", "-", "-player", "Alpha"},
	} {
		os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
		code, _, stderr := runCmd(t, args...)
		if code != 2 || !strings.Contains(stderr, "is the input -pgn -") {
			t.Errorf("%v < r.pgn: exit %d\n%s", args, code, stderr)
		}
		if got, _ := os.ReadFile(in); !bytes.Equal(got, want) {
			t.Fatalf("%v < r.pgn: the file changed", args)
		}
	}
	// Another file on standard input is fine.
	if code, _, stderr := runCmd(t, "make-book", "-q", "-pgn", "-", "-bin", filepath.Join(dir, "out.bin"), "-min-game", "1"); code != 0 {
		t.Errorf("make-book -pgn - < r.pgn -bin out.bin: exit %d\n%s", code, stderr)
	}
}

// writerFixtures are the inputs writerCases name, by kind: a PGN, a
// counts file made from it, a book and a text book.
func writerFixtures(t *testing.T) map[string]string {
	t.Helper()
	counts := filepath.Join(t.TempDir(), "small.counts")
	if code, _, stderr := runCmd(t, "make-book", "-q", "-pgn", "testdata/pgn/small.pgn", "-counts", counts); code != 0 {
		t.Fatalf("make-book -counts: exit %d\n%s", code, stderr)
	}
	return map[string]string{
		"pgn":    "testdata/pgn/small.pgn",
		"counts": counts,
		"book":   "testdata/learn/book.bin",
		"txt":    "testdata/txt/small.txt",
	}
}

// thenAtEOF is a reader that runs atEOF once, when its data is read
// through, before it says so: a folder removed while a command reads.
type thenAtEOF struct {
	r     io.Reader
	atEOF func()
}

func (t *thenAtEOF) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err == io.EOF && t.atEOF != nil {
		t.atEOF()
		t.atEOF = nil
	}
	return n, err
}

// TestSeveralOutputsAllOrNothing: make-book, the one command with
// several outputs (from games: -bin, -abk, -counts; from counts: -bin,
// -abk), writes all of them or none: a setting one output cannot take is
// a usage error before any input is read, an output that cannot be
// written is found before any input is read, and one that fails while
// written (its folder removed meanwhile) leaves the others as they were.
// Existing files keep their bytes and nothing is left beside them.
// (-bin keep.bin -abk keep.abk -max-ply 0 left keep.bin empty.)
func TestSeveralOutputsAllOrNothing(t *testing.T) {
	counts := writerFixtures(t)["counts"]
	for _, from := range []string{"games", "counts"} {
		flags := []string{"-bin", "-abk", "-counts"}
		input := []string{"-pgn", "testdata/pgn/small.pgn", "-min-game", "1"}
		if from == "counts" {
			flags, input = flags[:2], []string{"-from-counts", counts, "-min-game", "1"}
		}
		// outputs makes every output existing with old bytes, in a
		// folder of its own, and checks they are still so.
		outputs := func(t *testing.T) (args []string, dirs map[string]string, kept func(what string)) {
			dirs = map[string]string{}
			for _, f := range flags {
				dirs[f] = t.TempDir()
				path := filepath.Join(dirs[f], "keep"+map[string]string{"-bin": ".bin", "-abk": ".abk", "-counts": ".counts"}[f])
				os.WriteFile(path, []byte("old "+f), 0o644)
				args = append(args, f, path)
			}
			return args, dirs, func(what string) {
				t.Helper()
				for f, dir := range dirs {
					names := dirNames(t, dir)
					if len(names) != 1 {
						t.Errorf("%s, from %s: %s's folder holds %q", what, from, f, names)
						continue
					}
					if got, _ := os.ReadFile(filepath.Join(dir, names[0])); string(got) != "old "+f {
						t.Errorf("%s, from %s: %s was replaced (%d bytes)", what, from, f, len(got))
					}
				}
			}
		}

		if from == "games" {
			args, _, kept := outputs(t)
			code, _, stderr := runCmd(t, append(append([]string{"make-book"}, input...), append(args, "-max-ply", "0")...)...)
			if code != 2 || !strings.Contains(stderr, "-max-ply 0") {
				t.Errorf("-abk with -max-ply 0: exit %d, want a usage error\n%s", code, stderr)
			}
			kept("-abk with -max-ply 0")
		}

		for _, bad := range flags {
			args, dirs, kept := outputs(t)
			gone := filepath.Join(dirs[bad], "gone")
			args[slices.Index(args, bad)+1] = filepath.Join(gone, "x")
			// A missing input: the output is found wanting first.
			in := slices.Clone(input)
			in[1] += ".missing"
			code, _, stderr := runCmd(t, append(append([]string{"make-book"}, in...), args...)...)
			if code != 1 || !strings.Contains(stderr, bad+" "+filepath.Join(gone, "x")+": the folder "+gone+" does not exist") || strings.Contains(stderr, ".missing") {
				t.Errorf("%s in a missing folder: exit %d, want 1 naming %s before reading\n%s", bad, code, bad, stderr)
			}
			kept(bad + " in a missing folder")

			// The folder made for the check, removed while reading.
			os.Mkdir(gone, 0o755)
			data, _ := os.ReadFile(input[1])
			saved := pgnStdin
			pgnStdin = &thenAtEOF{bytes.NewReader(data), func() { os.RemoveAll(gone) }}
			in = slices.Clone(input)
			in[1] = "-"
			code, _, stderr = runCmd(t, append(append([]string{"make-book"}, in...), args...)...)
			pgnStdin = saved
			if code != 1 || !strings.Contains(stderr, filepath.Join(gone, "x")) {
				t.Errorf("%s's folder removed while reading: exit %d, want 1 naming it\n%s", bad, code, stderr)
			}
			kept(bad + "'s folder removed while reading")
		}
	}
}

// dirNames lists a folder's names.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// replacesBooks tells a command that may write over a book it reads
// (inputReplacer).
func replacesBooks(name string) bool {
	for _, c := range commands {
		if c.name == name {
			_, ok := c.new().(inputReplacer)
			return ok
		}
	}
	return false
}
