package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/polyproxy/polyproxy/internal/filelock"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// replacingCases are the commands that replace an existing book by
// rename, with the output one of their inputs or not.
var replacingCases = []struct {
	name string
	args func(in, out string) []string
}{
	{"merge-book", func(in, out string) []string {
		return []string{"merge-book", in, "testdata/book/header.bin", "-out", out}
	}},
	{"convert-book", func(in, out string) []string { return []string{"convert-book", in, "-out", out} }},
}

// untilWaiting is a command's stderr that tells when the command starts
// to wait for a book's lock.
type untilWaiting struct {
	mu      sync.Mutex
	b       bytes.Buffer
	once    sync.Once
	waiting chan struct{}
}

func (w *untilWaiting) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if bytes.Contains(w.b.Bytes(), []byte("waiting for the lock of ")) {
		w.once.Do(func() { close(w.waiting) })
	}
	return len(p), nil
}

func (w *untilWaiting) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestReplacingWaitsForTheLearnersLock: merge-book and convert-book into
// an existing book wait while a learner holds its lock, which keeps the
// book as it was, and then write what they write into a new file. (They
// replaced the book under the learner, whose counts went into the old
// file.)
func TestReplacingWaitsForTheLearnersLock(t *testing.T) {
	for _, tc := range replacingCases {
		dir := t.TempDir()
		fresh := filepath.Join(dir, "fresh.bin")
		if code, _, stderr := runCmd(t, tc.args("testdata/learn/book.bin", fresh)...); code != 0 {
			t.Fatalf("%s: exit %d\n%s", tc.name, code, stderr)
		}
		want, _ := os.ReadFile(fresh)
		out := fixture.CopyFile(t, "testdata/book/lasker-trap.bin")
		before, _ := os.ReadFile(out)
		holder, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := filelock.Lock(t.Context(), holder, true); err != nil {
			t.Fatal(err)
		}
		stderr := &untilWaiting{waiting: make(chan struct{})}
		done := make(chan int, 1)
		go func() {
			var stdout bytes.Buffer
			done <- Run(tc.args("testdata/learn/book.bin", out), strings.NewReader(""), &stdout, stderr)
		}()
		select {
		case <-stderr.waiting:
		case code := <-done:
			holder.Close()
			t.Fatalf("%s: ended (exit %d) without waiting for the learner's lock\n%s", tc.name, code, stderr)
		}
		if got, _ := os.ReadFile(out); !bytes.Equal(got, before) {
			t.Errorf("%s: the book changed while a learner held its lock", tc.name)
		}
		holder.Close()
		if code := <-done; code != 0 {
			t.Fatalf("%s: exit %d\n%s", tc.name, code, stderr)
		}
		if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
			t.Errorf("%s: the book written after the wait differs from the same command's into a new file", tc.name)
		}
	}
}

// TestReplacingAnInputThatChanged: merge-book and convert-book whose
// output is their input, which changes between its read and the write,
// refuse to write: the file keeps what was put there, and nothing else is
// left. An input unchanged is replaced.
func TestReplacingAnInputThatChanged(t *testing.T) {
	other := filepath.Join(t.TempDir(), "other.abk")
	if code, _, stderr := runCmd(t, "convert-book", "testdata/book/lasker-trap.bin", "-out", other); code != 0 {
		t.Fatalf("convert-book: exit %d\n%s", code, stderr)
	}
	sameFormat, _ := os.ReadFile("testdata/book/lasker-trap.bin")
	otherFormat, _ := os.ReadFile(other)
	renamedOver := func(data []byte) func(string) error {
		return func(path string) error {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, data, 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		}
	}
	changes := map[string]func(path string) error{
		"overwritten in place, same size": func(path string) error {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			data[len(data)-1] ^= 1 // a learn field's byte
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteAt(data[len(data)-1:], int64(len(data)-1))
			return err
		},
		"truncated":                        func(path string) error { return os.Truncate(path, 16) },
		"replaced by rename, same format":  renamedOver(sameFormat),
		"replaced by rename, other format": renamedOver(otherFormat),
	}
	for _, tc := range replacingCases {
		for how, change := range changes {
			in := fixture.CopyFile(t, "testdata/learn/book.bin")
			var put []byte
			pauseBeforeFinish = func() {
				if err := change(in); err != nil {
					t.Error(err)
				}
				put, _ = os.ReadFile(in)
			}
			code, _, stderr := runCmd(t, tc.args(in, in)...)
			pauseBeforeFinish = nil
			if code != 1 || !strings.Contains(stderr, in+" changed while it was read; nothing written; run again") {
				t.Errorf("%s, its input %s: exit %d\n%s", tc.name, how, code, stderr)
			}
			if got, _ := os.ReadFile(in); !bytes.Equal(got, put) {
				t.Errorf("%s, its input %s: the file was written", tc.name, how)
			}
			if left, _ := os.ReadDir(filepath.Dir(in)); len(left) != 1 {
				t.Errorf("%s, its input %s: %d files left beside it", tc.name, how, len(left)-1)
			}
		}
		in := fixture.CopyFile(t, "testdata/learn/book.bin")
		before, _ := os.ReadFile(in)
		if code, _, stderr := runCmd(t, tc.args(in, in)...); code != 0 {
			t.Errorf("%s, its input unchanged: exit %d\n%s", tc.name, code, stderr)
		} else if got, _ := os.ReadFile(in); bytes.Equal(got, before) && tc.name == "merge-book" {
			t.Errorf("%s, its input unchanged: the book was not written", tc.name)
		}
	}
}
