package cli

import (
	"bytes"
	"fmt"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/randgames"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// splitPGN cuts a PGN file into n files at game starts, in order.
func splitPGN(t *testing.T, path string, n int, dir string) []string {
	t.Helper()
	data := fixture.ReadFile(t, path)
	var starts []int
	for i := 0; i < len(data); i++ {
		if (i == 0 || data[i-1] == '\n') && bytes.HasPrefix(data[i:], []byte("[Event ")) {
			starts = append(starts, i)
		}
	}
	var out []string
	for k := range n {
		a, b := starts[k*len(starts)/n], len(data)
		if k+1 < n {
			b = starts[(k+1)*len(starts)/n]
		}
		p := filepath.Join(dir, fmt.Sprintf("part-%d.pgn", k+1))
		if err := os.WriteFile(p, data[a:b], 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// readmeRecipe is the shell block of the README's sharding recipe.
func readmeRecipe(t *testing.T) string {
	t.Helper()
	readme := string(fixture.ReadFile(t, "docs/making-books.md"))
	_, after, ok := strings.Cut(readme, "The whole recipe on one machine")
	if !ok {
		t.Fatal("README: no sharding recipe")
	}
	_, block, ok := strings.Cut(after, "```sh\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("README: the recipe has no sh block")
	}
	return block
}

// TestShardedBuildWithXargs runs the README's recipe as written: the
// games cut into four parts by awk, counted by xargs -P 2, the counts
// added in order, the book made from the sum; it is the same bytes as
// one make-book over the whole file, and the summed counts are the
// whole file's. On Chess960 games the book's @PG@ header names the
// variant, as one run's does.
func TestShardedBuildWithXargs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds polyproxy; skipped with -short")
	}
	testenv.Program(t, "xargs", "findutils")
	testenv.Program(t, "awk", "mawk")
	bin := filepath.Dir(testenv.Polyproxy(t)) // the recipe finds polyproxy on PATH
	n := 4000
	if testenv.RaceEnabled {
		n = 1000
	}
	for _, kind := range []struct {
		name     string
		games    func() []byte
		chess960 bool
	}{
		{"standard", func() []byte { return fixture.ReadFile(t, bookGamesPGN(t, n)) }, false},
		// Few starts, so that lines repeat and pass -min-game 2.
		{"chess960", func() []byte {
			return []byte(randgames.Chess960PGN(randgames.Options{Seed: 5, Games: n, Starts: randgames.TestStarts}))
		}, true},
	} {
		t.Run(kind.name, func(t *testing.T) {
			dir := t.TempDir()
			whole := filepath.Join(dir, "all.pgn")
			if err := os.WriteFile(whole, kind.games(), 0o644); err != nil {
				t.Fatal(err)
			}
			want := ourMakeBook(t, whole, filepath.Join(dir, "one.bin"), "-max-ply", "20", "-min-game", "2")

			cmd := exec.Command("bash", "-c", "set -e\n"+readmeRecipe(t))
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("recipe: %v\n%s", err, out)
			}
			parts, _ := filepath.Glob(filepath.Join(dir, "part-*.pgn"))
			if len(parts) != 4 {
				t.Errorf("%d parts", len(parts))
			}
			sharded := filepath.Join(dir, "book.bin")
			if got := fixture.ReadFile(t, sharded); !bytes.Equal(got, want) {
				t.Errorf("sharded book differs from one run: %s", firstDiff(got, want))
			}
			b := fixture.OpenPath(t, sharded)
			if h, err := polyglot.ReadHeader(b); err != nil || (h != nil && h.Chess960()) != kind.chess960 {
				t.Errorf("sharded book's header %+v, %v; want Chess960 named: %v", h, err, kind.chess960)
			}
			ourMakeBook(t, whole, filepath.Join(dir, "w.bin"), "-max-ply", "20", "-counts", filepath.Join(dir, "whole.counts"))
			if !bytes.Equal(fixture.ReadFile(t, filepath.Join(dir, "whole.counts")), fixture.ReadFile(t, filepath.Join(dir, "all.counts"))) {
				t.Error("the parts' counts added up differ from the whole's")
			}
		})
	}
}

// TestCountsCLI: -counts alone, -from-counts with several files, the
// flags that do not go together, and damaged input.
func TestCountsCLI(t *testing.T) {
	dir := t.TempDir()
	parts := splitPGN(t, "testdata/pgn/random.pgn", 3, dir)
	var counts []string
	for _, p := range parts {
		c := p + ".counts"
		if code, _, stderr := runCmd(t, "make-book", "-q", "-pgn", p, "-counts", c); code != 0 || !strings.Contains(stderr, "counts written to") {
			t.Fatalf("make-book -counts: exit %d\n%s", code, stderr)
		}
		counts = append(counts, c)
	}
	want := ourMakeBook(t, "testdata/pgn/random.pgn", filepath.Join(dir, "one.bin"), "-min-game", "1", "-uniform")
	out := filepath.Join(dir, "from.bin")
	args := []string{"make-book", "-bin", out, "-min-game", "1", "-uniform"}
	for _, c := range counts {
		args = append(args, "-from-counts", c)
	}
	if code, _, stderr := runCmd(t, args...); code != 0 {
		t.Fatalf("-from-counts: exit %d\n%s", code, stderr)
	}
	if got := fixture.ReadFile(t, out); !bytes.Equal(got, want) {
		t.Errorf("-from-counts of 3 parts differs from one run: %s", firstDiff(got, want))
	}
	code, _, stderr := runCmd(t, append([]string{"sum-counts", "-out", filepath.Join(dir, "all.counts")}, counts...)...)
	if code != 0 || !strings.Contains(stderr, "3 files") {
		t.Errorf("sum-counts: exit %d\n%s", code, stderr)
	}

	damaged := filepath.Join(dir, "damaged.counts")
	data := fixture.ReadFile(t, counts[0])
	os.WriteFile(damaged, data[:len(data)-3], 0o644)
	for _, bad := range [][]string{
		{"make-book", "-from-counts", counts[0], "-bin", out, "-max-ply", "5"},
		{"make-book", "-from-counts", counts[0], "-bin", out, "-pgn", parts[0]},
		{"make-book", "-from-counts", counts[0]},
		{"make-book", "-pgn", parts[0]},
		{"make-book", "-from-counts", damaged, "-bin", out},
		{"make-book", "-from-counts", parts[0], "-bin", out},
		{"sum-counts", "-out", filepath.Join(dir, "x.counts")},
		{"sum-counts", counts[0]},
		{"sum-counts", "-out", filepath.Join(dir, "x.counts"), counts[0], damaged},
	} {
		if code, _, stderr := runCmd(t, bad...); code == 0 || stderr == "" {
			t.Errorf("%v: exit %d, %q", bad, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.counts")); err == nil {
		t.Error("a failed sum-counts left its output")
	}
}

// TestCountsReplacedAsBooksAre: make-book -counts and sum-counts replace
// their output through the books' writer: a replaced file keeps its mode
// (a counts file shared by a group stays group-writable), no temporary
// file is left.
func TestCountsReplacedAsBooksAre(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes")
	}
	dir := t.TempDir()
	part := filepath.Join(dir, "part.counts")
	all := filepath.Join(dir, "all.counts")
	for _, f := range []string{part, all} {
		if err := os.WriteFile(f, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(f, 0o664); err != nil { // past the umask
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"make-book", "-q", "-pgn", "testdata/pgn/small.pgn", "-counts", part},
		{"sum-counts", "-out", all, part},
	} {
		if code, _, stderr := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
	}
	for _, f := range []string{part, all} {
		if st, err := os.Stat(f); err != nil || st.Mode().Perm() != 0o664 || st.Size() < 20 {
			t.Errorf("%s: %v, %v; want the new counts with mode 0664", f, st.Mode(), err)
		}
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestCountsVersion1CLI: a counts file of the version before variants
// (testdata/counts/README.md) still makes the book of its games and adds
// up with a current one; a version from the future is refused, saying
// which versions are read.
func TestCountsVersion1CLI(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join("testdata", "counts", "small-v1.counts")
	want := ourMakeBook(t, "testdata/pgn/small.pgn", filepath.Join(dir, "one.bin"), "-min-game", "1")
	from := filepath.Join(dir, "from.bin")
	if code, _, stderr := runCmd(t, "make-book", "-from-counts", old, "-bin", from, "-min-game", "1"); code != 0 {
		t.Fatalf("-from-counts version 1: exit %d\n%s", code, stderr)
	}
	if got := fixture.ReadFile(t, from); !bytes.Equal(got, want) {
		t.Errorf("-from-counts version 1 differs from one run: %s", firstDiff(got, want))
	}
	current := filepath.Join(dir, "current.counts")
	if code, _, stderr := runCmd(t, "make-book", "-q", "-pgn", "testdata/pgn/small.pgn", "-counts", current); code != 0 {
		t.Fatalf("make-book -counts: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCmd(t, "sum-counts", "-out", filepath.Join(dir, "sum.counts"), old, current); code != 0 || !strings.Contains(stderr, "8 games") {
		t.Errorf("sum-counts version 1 + 2: exit %d\n%s", code, stderr)
	}
	future := filepath.Join(dir, "future.counts")
	data := fixture.ReadFile(t, current)
	data[8] = 9 // the version, after the 8-byte magic
	if err := os.WriteFile(future, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "make-book", "-from-counts", future, "-bin", from)
	if code == 0 || !strings.Contains(stderr, "counts file version 9; this polyproxy reads versions 1 to 2") {
		t.Errorf("version 9: exit %d\n%s", code, stderr)
	}
}
