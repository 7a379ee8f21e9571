package formats_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// changeBooks are a book of each format that learns, and what its writers
// write: an update of a move the book has, and an edit of it.
type changeBook struct {
	name, src string
	update    book.LearnUpdate
	edit      book.Edit
}

func changeBooks(t *testing.T) []changeBook {
	start := fixture.Line(t, board.StartFEN, "").Pos
	e4 := fixture.Line(t, board.StartFEN, "e2e4").Pos
	e2e4, _ := board.ParseMove("e2e4")
	e7e5, _ := board.ParseMove("e7e5")
	bin := fixture.WriteEntries(t, []book.Entry{
		{Key: start.Key(), Move: e2e4, Weight: 10},
		{Key: e4.Key(), Move: e7e5, Weight: 5},
	})
	return []changeBook{
		{"book.bin", bin,
			book.LearnUpdate{Key: e4.Key(), Move: e7e5, Result: book.Win},
			book.Edit{Kind: book.EditWeight, Pos: e4, Move: e7e5, Weight: 77}},
		{"book.abk", filepath.Join("..", "abk", "testdata", "small.abk"),
			book.LearnUpdate{Key: start.Key(), Move: e2e4, Result: book.Win},
			book.Edit{Kind: book.EditFields, Pos: start, Move: e2e4, Fields: map[string]int64{"priority": 3, "games": 1}}},
	}
}

// writers are every way a book open for learning is written: learning
// (the proxy, learn), and an edit (explore -edit).
var writers = map[string]func(t *testing.T, lf *book.LearnFile, b changeBook) error{
	"learn": func(t *testing.T, lf *book.LearnFile, b changeBook) error {
		_, err := lf.Apply(t.Context(), []book.LearnUpdate{b.update})
		return err
	},
	"edit": func(t *testing.T, lf *book.LearnFile, b changeBook) error {
		_, err := lf.Edit(t.Context(), b.edit)
		return err
	},
}

// TestWritersRefuseABookOfAnotherFormat: a book replaced by rename with
// one of another format, overwritten in place with one, or truncated to
// what its format cannot be, is refused by every writer, and nothing is
// written. (An ABK add wrote its record into the Polyglot book renamed
// over it.)
func TestWritersRefuseABookOfAnotherFormat(t *testing.T) {
	books := changeBooks(t)
	changes := map[string]func(path string, other []byte) error{
		"renamed over": func(path string, other []byte) error {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, other, 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		},
		"overwritten in place": func(path string, other []byte) error { return os.WriteFile(path, other, 0o644) },
		"truncated":            func(path string, _ []byte) error { return os.Truncate(path, 3) },
	}
	for i, b := range books {
		other := fixture.ReadFile(t, books[1-i].src)
		for change, do := range changes {
			for name, write := range writers {
				path := filepath.Join(t.TempDir(), b.name)
				os.WriteFile(path, fixture.ReadFile(t, b.src), 0o644)
				lf, err := formats.OpenLearnFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := write(t, lf, b); err != nil {
					t.Fatalf("%s %s before the change: %v", name, b.name, err)
				}
				if err := do(path, other); err != nil {
					t.Fatal(err)
				}
				was := fixture.ReadFile(t, path)
				err = write(t, lf, b)
				if !errors.Is(err, book.ErrBookChanged) {
					t.Errorf("%s into %s %s: %v, want it refused", name, b.name, change, err)
				}
				if !bytes.Equal(fixture.ReadFile(t, path), was) {
					t.Errorf("%s into %s %s: the file was written", name, b.name, change)
				}
				lf.Close()
			}
		}
	}
}

// TestWritersOfTheBookRead: a writer that said which file it read
// (ReadAs: explore, learn) refuses a book replaced by another of its
// format, or overwritten to another size, until told of the new one; a
// learner that did not follows it, into the book as it is.
func TestWritersOfTheBookRead(t *testing.T) {
	for _, b := range changeBooks(t) {
		orig := fixture.ReadFile(t, b.src)
		for name, write := range writers {
			path := filepath.Join(t.TempDir(), b.name)
			os.WriteFile(path, orig, 0o644)
			read, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			lf, err := formats.OpenLearnFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer lf.Close()
			follower, err := formats.OpenLearnFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer follower.Close()
			lf.ReadAs(read)
			tmp := path + ".new"
			os.WriteFile(tmp, orig, 0o644)
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
			if err := write(t, lf, b); !errors.Is(err, book.ErrBookChanged) {
				t.Errorf("%s into %s replaced since read: %v, want it refused", name, b.name, err)
			}
			if !bytes.Equal(fixture.ReadFile(t, path), orig) {
				t.Errorf("%s into %s replaced since read: the file was written", name, b.name)
			}
			if err := write(t, follower, b); err != nil {
				t.Errorf("%s into %s replaced, following: %v", name, b.name, err)
			}
			now, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			lf.ReadAs(now)
			if err := write(t, lf, b); err != nil {
				t.Errorf("%s into %s, told of the new file: %v", name, b.name, err)
			}
		}
	}
}

// TestWritersWhileTheBookChanges: writes stream into a book while another
// program, taking no lock, overwrites it in place (cp), truncates it and
// renames books of both formats over it. No writer crashes (a read of a
// mapping truncated under it), and each write is made or refused.
func TestWritersWhileTheBookChanges(t *testing.T) {
	books := changeBooks(t)
	for i, b := range books {
		orig, other := fixture.ReadFile(t, b.src), fixture.ReadFile(t, books[1-i].src)
		path := filepath.Join(t.TempDir(), b.name)
		os.WriteFile(path, orig, 0o644)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for name, write := range writers {
			lf, err := formats.OpenLearnFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer lf.Close()
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if err := write(t, lf, b); err != nil && !errors.Is(err, book.ErrBookChanged) && !errors.Is(err, book.ErrEdit) {
						t.Logf("%s into %s: %v", name, b.name, err) // a fault read, the file gone for a moment
					}
				}
			})
		}
		for round := range 200 {
			switch round % 4 {
			case 0:
				os.WriteFile(path, orig, 0o644)
			case 1:
				os.Truncate(path, int64(len(orig)/2))
			case 2:
				tmp := path + ".new"
				os.WriteFile(tmp, other, 0o644)
				os.Rename(tmp, path)
			case 3:
				tmp := path + ".new"
				os.WriteFile(tmp, orig, 0o644)
				os.Rename(tmp, path)
			}
		}
		close(stop)
		wg.Wait()
	}
}
