package book_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
)

// batchText writes text for path into b.
func batchText(b *book.Batch, path, text string) error {
	return b.WriteFileFrom(path, func(w io.Writer) error {
		_, err := io.WriteString(w, text)
		return err
	})
}

// dirNames lists a folder's names, sorted.
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

// TestBatchAllOrNothing: the files of a batch are in place together at
// Commit; a failed write, an Abort or a failed rename leaves every file
// as it was and no temporary file.
func TestBatchAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.abk"), filepath.Join(dir, "new.counts")
	os.WriteFile(a, []byte("old a"), 0o640)
	os.WriteFile(b, []byte("old b"), 0o644)
	same := func(what string, want map[string]string) {
		t.Helper()
		for path, text := range want {
			got, err := os.ReadFile(path)
			if text == "" && errors.Is(err, os.ErrNotExist) {
				continue
			}
			if string(got) != text {
				t.Errorf("%s: %s holds %q (%v), want %q", what, filepath.Base(path), got, err, text)
			}
		}
		if what == "before Commit" {
			return // its temporary files are there
		}
		if names := dirNames(t, dir); !slices.Equal(names, []string{"a.bin", "b.abk"}) && !slices.Equal(names, []string{"a.bin", "b.abk", "new.counts"}) {
			t.Errorf("%s: the folder holds %q", what, names)
		}
	}
	old := map[string]string{a: "old a", b: "old b", c: ""}

	// A write that fails: nothing replaced.
	var bt book.Batch
	if err := batchText(&bt, a, "new a"); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := bt.WriteFileFrom(b, func(io.Writer) error { return boom }); err != boom {
		t.Fatalf("the write's own error not returned: %v", err)
	}
	bt.Abort()
	same("a failed write", old)
	if err := bt.Commit(); err == nil {
		t.Error("a batch aborted committed")
	}

	// A rename that fails (b replaced by a folder meanwhile): a put back,
	// c not created.
	bt = book.Batch{}
	for path, text := range map[string]string{a: "new a", c: "new c", b: "new b"} {
		if err := batchText(&bt, path, text); err != nil {
			t.Fatal(err)
		}
	}
	os.Rename(b, b+".moved")
	os.MkdirAll(filepath.Join(b, "inside"), 0o755)
	err := bt.Commit()
	os.RemoveAll(b)
	os.Rename(b+".moved", b)
	if err == nil {
		t.Fatal("a rename over a folder succeeded")
	}
	same("a failed rename", old)
	if st, _ := os.Stat(a); st.Mode().Perm() != 0o640 {
		t.Errorf("a's mode %v after being put back", st.Mode().Perm())
	}

	// All written: all in place at Commit, not before; modes kept.
	bt = book.Batch{}
	for path, text := range map[string]string{a: "new a", b: "new b", c: "new c"} {
		if err := batchText(&bt, path, text); err != nil {
			t.Fatal(err)
		}
	}
	if tmp := bt.Pending(a); tmp == "" || readText(t, tmp) != "new a" {
		t.Errorf("Pending(a) = %q", tmp)
	}
	same("before Commit", old)
	if err := bt.Commit(); err != nil {
		t.Fatal(err)
	}
	same("after Commit", map[string]string{a: "new a", b: "new b", c: "new c"})
	if st, _ := os.Stat(a); st.Mode().Perm() != 0o640 {
		t.Errorf("a's mode %v", st.Mode().Perm())
	}
	if bt.Abort() {
		t.Error("Abort after Commit says the files were left as they were")
	}
}

// TestBatchAbortDuringWrite: Abort from another goroutine while a file
// is being written (a signal) removes it; the write then fails.
func TestBatchAbortDuringWrite(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.bin")
	var bt book.Batch
	writing, aborted := make(chan struct{}), make(chan struct{})
	go func() {
		<-writing
		if !bt.Abort() {
			t.Error("Abort during a write says the files were replaced")
		}
		close(aborted)
	}()
	err := bt.WriteFileFrom(out, func(w io.Writer) error {
		io.WriteString(w, "part")
		close(writing)
		<-aborted
		time.Sleep(10 * time.Millisecond)
		_, err := io.WriteString(w, "rest")
		return err
	})
	if err == nil {
		t.Error("a write aborted under way succeeded")
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left: %q", names)
	}
	if err := bt.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
}

// TestBatchCheck: Check finds an output that cannot be written before
// any work, and leaves nothing.
func TestBatchCheck(t *testing.T) {
	dir := t.TempDir()
	var bt book.Batch
	if err := bt.Check(filepath.Join(dir, "ok.bin")); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{filepath.Join(dir, "missing", "x.bin"), dir} {
		if err := bt.Check(bad); err == nil {
			t.Errorf("Check(%s) passed", bad)
		}
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left: %q", names)
	}
}
