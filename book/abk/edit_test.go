package abk_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// editBook makes edit on the book at path, failing the test on an error.
func editBook(t *testing.T, path string, e book.Edit) book.Edit {
	t.Helper()
	f, err := formats.OpenLearnFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	undo, err := f.Edit(t.Context(), e)
	if err != nil {
		t.Fatalf("%v %s: %v", e.Kind, e.Move, err)
	}
	return undo
}

// checkBook fails when the book at path has a problem info-book reports.
func checkBook(t *testing.T, path string) {
	t.Helper()
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := polyglot.Scan(b)
	if err != nil {
		t.Fatal(err)
	}
	w := s.Warnings()
	if info := abk.InfoOf(b); info != nil && len(info.Problems) > 0 {
		w = append(w, fmt.Sprint(info.Problems))
	}
	if len(w) > 0 {
		t.Fatalf("after the edit: %v", w)
	}
}

func mustMove(t *testing.T, s string) board.Move {
	t.Helper()
	m, err := board.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// abkCopy is a copy of the ABK book testdata/name.
func abkCopy(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func abkTotals(t *testing.T, path string, pos *board.Position, move string) (abk.Totals, bool) {
	t.Helper()
	m, err := abk.ReadTotals(fixture.ReadFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	tot, ok := m[abk.MoveID{Key: pos.Key(), Move: pos.ToBook(mustMove(t, move))}]
	return tot, ok
}

// TestEditABK: priority and statistics set, a move deleted and one added
// (at the root, in the tree, and after a move whose replies there are
// none), each undone to the very bytes, the tree free of problems.
func TestEditABK(t *testing.T) {
	path := abkCopy(t, "small.abk")
	orig := fixture.ReadFile(t, path)
	start := fixture.Line(t, board.StartFEN, "").Pos
	e4 := fixture.Line(t, board.StartFEN, "e2e4").Pos
	tot, ok := abkTotals(t, path, &start, "e2e4")
	if !ok || tot.Games != 120 {
		t.Fatalf("e2e4 at the start: %+v", tot)
	}
	undo := editBook(t, path, book.Edit{Kind: book.EditFields, Pos: start, Move: mustMove(t, "e2e4"), Fields: map[string]int64{"priority": 2, "games": 150, "won": 70, "lost": 50}})
	checkBook(t, path)
	if got, _ := abkTotals(t, path, &start, "e2e4"); got.Priority != 2 || got.Games != 150 || got.Wins != 70 || got.Losses != 50 {
		t.Errorf("set: %+v", got)
	}
	editBook(t, path, undo)
	if !bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Fatal("statistics undone: the book differs")
	}

	undo = editBook(t, path, book.Edit{Kind: book.EditDelete, Pos: start, Move: mustMove(t, "d2d4")})
	checkBook(t, path)
	if _, ok := abkTotals(t, path, &start, "d2d4"); ok {
		t.Error("d2d4 still there")
	}
	editBook(t, path, undo)
	if !bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Fatal("delete undone: the book differs")
	}

	for _, at := range []struct {
		pos  board.Position
		move string
	}{{start, "a2a3"}, {e4, "a7a6"}, {fixture.Line(t, board.StartFEN, "c2c4").Pos, "h7h6"}} {
		undo = editBook(t, path, book.Edit{Kind: book.EditAdd, Pos: at.pos, Move: mustMove(t, at.move), Fields: map[string]int64{"priority": 5, "games": 3, "won": 1, "lost": 1}})
		checkBook(t, path)
		if got, ok := abkTotals(t, path, &at.pos, at.move); !ok || got.Games != 3 || got.Priority != 5 {
			t.Errorf("added %s: %+v %v", at.move, got, ok)
		}
		editBook(t, path, undo)
		if _, ok := abkTotals(t, path, &at.pos, at.move); ok {
			t.Errorf("%s still there after undo", at.move)
		}
		checkBook(t, path)
	}
	// Off the tree: nothing to hang the move on.
	off := fixture.Line(t, board.StartFEN, "h2h4 h7h5").Pos
	f, err := formats.OpenLearnFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Edit(t.Context(), book.Edit{Kind: book.EditAdd, Pos: off, Move: mustMove(t, "a2a3"), Fields: map[string]int64{"games": 1}}); !errors.Is(err, book.ErrEdit) {
		t.Errorf("off the tree: %v", err)
	}
	if _, err := f.Edit(t.Context(), book.Edit{Kind: book.EditFields, Pos: start, Move: mustMove(t, "e2e4"), Fields: map[string]int64{"games": 1, "won": 1, "lost": 1}}); !errors.Is(err, book.ErrEdit) {
		t.Errorf("more results than games: %v", err)
	}
}

// TestEditABKWhileLearning: ABK statistics set and undone while a learner
// counts games into the same move: undo takes back the edit's difference,
// not the games learned meanwhile.
func TestEditABKWhileLearning(t *testing.T) {
	path := abkCopy(t, "small.abk")
	start := fixture.Line(t, board.StartFEN, "").Pos
	e2e4 := mustMove(t, "e2e4")
	tot0, _ := abkTotals(t, path, &start, "e2e4")
	const rounds = 200
	done := make(chan error)
	go func() {
		f, err := formats.OpenLearnFile(path)
		if err != nil {
			done <- err
			return
		}
		defer f.Close()
		for range rounds {
			if _, err := f.Apply(t.Context(), []book.LearnUpdate{{Key: start.Key(), Move: e2e4, Result: book.Win}}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	ed, err := formats.OpenLearnFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ed.Close()
	for learning := true; learning; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			learning = false
		default:
		}
		now, _ := abkTotals(t, path, &start, "e2e4")
		undo, err := ed.Edit(t.Context(), book.Edit{Kind: book.EditFields, Pos: start, Move: e2e4, Fields: map[string]int64{"priority": 9, "games": now.Games + 1000, "won": now.Wins + 500, "lost": now.Losses}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ed.Edit(t.Context(), undo); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := abkTotals(t, path, &start, "e2e4")
	if got.Games != tot0.Games+rounds || got.Wins != tot0.Wins+rounds || got.Priority != tot0.Priority {
		t.Fatalf("%+v, want %d games and %d wins more than %+v", got, rounds, rounds, tot0)
	}
	checkBook(t, path)
}
