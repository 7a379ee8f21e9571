package book_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// writeText replaces path with text through WriteFile.
func writeText(path, text string) error {
	return book.WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// isLinkTo asserts path is still a symbolic link reading to.
func isLinkTo(t *testing.T, path, to string) {
	t.Helper()
	got, err := os.Readlink(path)
	if err != nil {
		t.Fatalf("%s is no longer a link: %v", path, err)
	}
	if got != to {
		t.Fatalf("%s links to %q, want %q", path, got, to)
	}
}

// A symbolic link is written through: its target gets the new content
// and the link stays, whichever way it is spelled.
func TestWriteFileFromWritesThroughLinks(t *testing.T) {
	t.Run("relative", func(t *testing.T) {
		dir := t.TempDir()
		v7 := filepath.Join(dir, "v7.bin")
		os.WriteFile(v7, []byte("old"), 0o644)
		link := filepath.Join(dir, "current.bin")
		testenv.Symlink(t, "v7.bin", link)
		if err := writeText(link, "new"); err != nil {
			t.Fatal(err)
		}
		isLinkTo(t, link, "v7.bin")
		if got := readText(t, v7); got != "new" {
			t.Fatalf("target holds %q", got)
		}
	})
	t.Run("absolute chain", func(t *testing.T) {
		dir := t.TempDir()
		v7 := filepath.Join(dir, "books", "v7.bin")
		os.Mkdir(filepath.Dir(v7), 0o755)
		os.WriteFile(v7, []byte("old"), 0o640)
		mid := filepath.Join(dir, "mid.bin")
		testenv.Symlink(t, v7, mid)
		link := filepath.Join(dir, "current.bin")
		testenv.Symlink(t, mid, link)
		if err := writeText(link, "new"); err != nil {
			t.Fatal(err)
		}
		isLinkTo(t, link, mid)
		isLinkTo(t, mid, v7)
		if got := readText(t, v7); got != "new" {
			t.Fatalf("target holds %q", got)
		}
		if st, _ := os.Stat(v7); st.Mode().Perm() != 0o640 {
			t.Fatalf("target's mode %v, want it kept (0640)", st.Mode().Perm())
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 3 {
			t.Fatalf("left behind in %s: %v", dir, entries)
		}
	})
	t.Run("relative in a linked folder", func(t *testing.T) {
		// cur/current.bin -> ../v7.bin where cur -> real/sub: the
		// target is real/v7.bin, as the system reads it.
		dir := t.TempDir()
		sub := filepath.Join(dir, "real", "sub")
		os.MkdirAll(sub, 0o755)
		v7 := filepath.Join(dir, "real", "v7.bin")
		os.WriteFile(v7, []byte("old"), 0o644)
		testenv.Symlink(t, "../v7.bin", filepath.Join(sub, "current.bin"))
		cur := filepath.Join(dir, "cur")
		testenv.Symlink(t, sub, cur)
		if err := writeText(filepath.Join(cur, "current.bin"), "new"); err != nil {
			t.Fatal(err)
		}
		if got := readText(t, v7); got != "new" {
			t.Fatalf("target holds %q", got)
		}
		if _, err := os.Stat(filepath.Join(dir, "v7.bin")); err == nil {
			t.Fatal("wrote beside the linked folder instead")
		}
	})
	t.Run("dangling", func(t *testing.T) {
		dir := t.TempDir()
		link := filepath.Join(dir, "current.bin")
		testenv.Symlink(t, "v8.bin", link)
		if err := writeText(link, "new"); err != nil {
			t.Fatal(err)
		}
		isLinkTo(t, link, "v8.bin")
		if got := readText(t, filepath.Join(dir, "v8.bin")); got != "new" {
			t.Fatalf("target holds %q", got)
		}
	})
}

// A write that fails leaves the link and its target as they were, and no
// temporary file beside either.
func TestWriteFileFromFailureKeepsLinkAndTarget(t *testing.T) {
	dir := t.TempDir()
	v7 := filepath.Join(dir, "v7.bin")
	os.WriteFile(v7, []byte("old"), 0o644)
	link := filepath.Join(dir, "current.bin")
	testenv.Symlink(t, "v7.bin", link)
	boom := errors.New("boom")
	err := book.WriteFile(link, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	isLinkTo(t, link, "v7.bin")
	if got := readText(t, v7); got != "old" {
		t.Fatalf("target holds %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("left behind: %v", entries)
	}
}

// A loop of links is an error that names the path, and nothing is written.
func TestWriteFileFromLinkLoop(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")
	testenv.Symlink(t, "b.bin", a)
	testenv.Symlink(t, "a.bin", b)
	err := writeText(a, "new")
	if err == nil || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), "symbolic links") {
		t.Fatalf("err %v", err)
	}
	isLinkTo(t, a, "b.bin")
	isLinkTo(t, b, "a.bin")
}
