package plainerr

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// What Go says of files and programs comes out in plain words, with the
// path the user gave, once.
func TestText(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nothere.bin")
	_, statErr := os.Stat(missing)
	_, openErr := os.Open(missing)
	_, tempErr := os.CreateTemp(filepath.Join(dir, "nodir"), ".x.abk.tmp-*")
	_, dirErr := os.ReadFile(dir)
	_, execErr := exec.Command(filepath.Join(dir, "stockfsh")).Output()
	_, pathErr := exec.LookPath("surely-no-such-program-here")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("open book: %w", statErr), "open book: " + missing + ": no such file"},
		{openErr, missing + ": no such file"},
		{fmt.Errorf("write %s: %w", filepath.Join(dir, "nodir", "x.abk"), tempErr),
			"write " + filepath.Join(dir, "nodir", "x.abk") + ": the folder " + filepath.Join(dir, "nodir") + " does not exist"},
		{dirErr, dir + ": is a folder, not a file"},
		{fmt.Errorf("cannot start the engine: %w", execErr), "cannot start the engine: " + filepath.Join(dir, "stockfsh") + ": no such file"},
		{pathErr, "surely-no-such-program-here: no such program in any folder of PATH"},
		{errors.New("games.pgn: games.pgn: size 260"), "games.pgn: size 260"},
		{errors.New("a: b: c"), "a: b: c"},
		{nil, ""},
	} {
		got := Text(tc.err)
		if got != tc.want {
			t.Errorf("Text(%v)\n = %q\nwant %q", tc.err, got, tc.want)
		}
		for _, goWords := range []string{"stat ", "open /", "fork/exec", ".tmp-", "directory", "$PATH"} {
			if strings.Contains(got, goWords) {
				t.Errorf("Text(%v) = %q: still says %q", tc.err, got, goWords)
			}
		}
	}
}

func TestTarget(t *testing.T) {
	for in, want := range map[string]string{
		"/d/.x.abk.tmp-2950934892":     "/d/x.abk",
		"/d/.x.abk.tmp-2950934892.old": "/d/x.abk",
		"/d/x.abk":                     "/d/x.abk",
		"/d/.hidden":                   "/d/.hidden",
	} {
		if got := Target(in); got != want {
			t.Errorf("Target(%q) = %q, want %q", in, got, want)
		}
	}
}

// About names no path a message names before it: the proxy's "book X:
// X: size ..." and "book X not used: X holds PGN games".
func TestAbout(t *testing.T) {
	for _, tc := range []struct{ path, text, want string }{
		{"/b/x.bin", "/b/x.bin: size 20 is not a multiple of 16", "size 20 is not a multiple of 16"},
		{"/b/x.bin", "/b/x.bin holds PGN games, not an opening book", "it holds PGN games, not an opening book"},
		{"/b/x.bin", "no such file", "no such file"},
		{"/b/x.bin", "/b/x.bin.old: no such file", "/b/x.bin.old: no such file"},
		{"/b/x.bin", "the folder /b does not exist", "the folder /b does not exist"},
	} {
		if got := About(tc.path, tc.text); got != tc.want {
			t.Errorf("About(%q, %q) = %q, want %q", tc.path, tc.text, got, tc.want)
		}
	}
}
