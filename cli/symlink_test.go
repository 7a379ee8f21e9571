package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestWritersWriteThroughSymlinks: every command that writes a file, given
// a symbolic link as its output (current.bin -> v7.bin), writes the
// link's target, the same bytes as to a plain file, and keeps the link, as
// PolyGlot does; learn writes its book in place through the link.
// (make-book turned the link into a file and left v7.bin as it was.)
func TestWritersWriteThroughSymlinks(t *testing.T) {
	fixtures := writerFixtures(t)
	// link makes dir/current.out -> v7.out, v7.out holding old bytes.
	link := func(t *testing.T, dir string, old []byte) (linkPath, target string) {
		target = filepath.Join(dir, "v7.out")
		if err := os.WriteFile(target, old, 0o644); err != nil {
			t.Fatal(err)
		}
		linkPath = filepath.Join(dir, "current.out")
		testenv.Symlink(t, "v7.out", linkPath)
		return linkPath, target
	}
	kept := func(t *testing.T, linkPath string) {
		t.Helper()
		if to, err := os.Readlink(linkPath); err != nil || to != "v7.out" {
			t.Fatalf("the link is gone or moved: %q, %v", to, err)
		}
	}
	tested := 0
	for name, cases := range writerCases {
		for i, tc := range cases {
			if name == "learn" || slices.Contains(tc.args("in", "out"), "-") {
				continue // learn writes its input (below); "-" reads standard input
			}
			tested++
			in := fixture.CopyFile(t, fixtures[tc.input])
			plain := filepath.Join(t.TempDir(), "plain.out")
			if code, _, stderr := runCmd(t, append([]string{name}, tc.args(in, plain)...)...); code != 0 {
				t.Fatalf("%s case %d to a plain file: exit %d\n%s", name, i, code, stderr)
			}
			want, _ := os.ReadFile(plain)
			linkPath, target := link(t, t.TempDir(), []byte("old"))
			if code, _, stderr := runCmd(t, append([]string{name}, tc.args(in, linkPath)...)...); code != 0 {
				t.Fatalf("%s case %d through a link: exit %d\n%s", name, i, code, stderr)
			}
			kept(t, linkPath)
			if got, _ := os.ReadFile(target); !bytes.Equal(got, want) || len(want) == 0 {
				t.Errorf("%s case %d: the link's target holds %d bytes, a plain output %d", name, i, len(got), len(want))
			}
		}
	}
	if tested < 8 {
		t.Fatalf("only %d writers tested", tested)
	}

	// learn: the book learned in place through a link, as a plain copy is.
	plain := fixture.CopyFile(t, "testdata/learn/book.bin")
	if code, _, stderr := runCmd(t, "learn", "-book", plain, "-pgn", "testdata/learn/games.pgn", "-player", "Alpha"); code != 0 {
		t.Fatalf("learn: exit %d\n%s", code, stderr)
	}
	want, _ := os.ReadFile(plain)
	linkPath, target := link(t, t.TempDir(), fixture.ReadFile(t, "testdata/learn/book.bin"))
	if code, _, stderr := runCmd(t, "learn", "-book", linkPath, "-pgn", "testdata/learn/games.pgn", "-player", "Alpha"); code != 0 {
		t.Fatalf("learn through a link: exit %d\n%s", code, stderr)
	}
	kept(t, linkPath)
	if got, _ := os.ReadFile(target); !bytes.Equal(got, want) || bytes.Equal(want, fixture.ReadFile(t, "testdata/learn/book.bin")) {
		t.Error("learn through a link: the target is not the book learned")
	}
}
