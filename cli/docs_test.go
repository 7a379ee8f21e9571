package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/fixture"
)

// The make-book example of docs/making-books.md is what make-book prints:
// its command is run as written, and each line shown ("..." for lines
// left out) is a line of the output, in order, timings aside. The page
// showed robust.pgn:13: and "no result at the end of the moves: 1" where
// make-book printed testdata/pgn/robust.pgn:13: and "no result: 1".
func TestMakingBooksExampleOutput(t *testing.T) {
	page := string(fixture.ReadFile(t, "docs/making-books.md"))
	m := regexp.MustCompile("\\(`polyproxy (make-book [^`]*robust\\.pgn[^`]*)`\\):\n\n((?:    .*\n)+)").FindStringSubmatch(page)
	if m == nil {
		t.Fatal("docs/making-books.md: no make-book example on robust.pgn with its output")
	}
	args, shown := strings.Fields(m[1]), m[2]
	dir := t.TempDir()
	for _, f := range args {
		if strings.HasPrefix(f, "testdata/") {
			dst := filepath.Join(dir, f)
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if err := os.WriteFile(dst, fixture.ReadFile(t, f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Chdir(dir)
	code, _, stderr := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d\n%s", m[1], code, stderr)
	}
	timing := regexp.MustCompile(`in [0-9]+\.[0-9]+s`)
	out := strings.Split(timing.ReplaceAllString(stderr, "in Ts"), "\n")
	at := 0
	for _, want := range strings.Split(strings.TrimRight(shown, "\n"), "\n") {
		want = timing.ReplaceAllString(strings.TrimPrefix(want, "    "), "in Ts")
		if want == "..." {
			continue
		}
		for at < len(out) && out[at] != want {
			at++
		}
		if at == len(out) {
			t.Errorf("docs/making-books.md shows %q, which make-book does not print (in that order):\n%s", want, stderr)
			return
		}
	}
}
