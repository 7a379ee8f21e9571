package explore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/explore"
	"github.com/polyproxy/polyproxy/internal/filelock"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// startBook is a Polyglot book of the start position: e2e4 10, d2d4 5,
// c2c4 3.
func startBook(t *testing.T) string {
	t.Helper()
	start := fixture.Line(t, board.StartFEN, "").Pos
	var es []book.Entry
	for _, m := range []struct {
		move   string
		weight uint16
	}{{"e2e4", 10}, {"d2d4", 5}, {"c2c4", 3}} {
		mv, err := board.ParseMove(m.move)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, book.Entry{Key: start.Key(), Move: mv, Weight: m.weight})
	}
	return fixture.WriteEntries(t, es)
}

// TestEditOfABookNowOfAnotherFormat: a Polyglot book moved onto the ABK
// book being edited: an "add" is refused, and the Polyglot book is left
// as it was. (It answered 200 and wrote ABK record bytes into it.)
func TestEditOfABookNowOfAnotherFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.abk")
	if err := os.WriteFile(path, fixture.ReadFile(t, filepath.Join("..", "book", "abk", "testdata", "small.abk")), 0o644); err != nil {
		t.Fatal(err)
	}
	s := serve(t, explore.Options{Columns: books(path).Columns, Edit: true})
	bin := fixture.ReadFile(t, startBook(t))
	moved := path + ".bin"
	os.WriteFile(moved, bin, 0o644)
	if err := os.Rename(moved, path); err != nil {
		t.Fatal(err)
	}
	res, body := s.post("/api/edit", map[string]any{"op": "add", "move": "a2a3", "priority": 4, "games": 2})
	if res.StatusCode != 409 || !strings.Contains(string(body), "no longer fits the ABK format") {
		t.Errorf("add into a Polyglot book moved onto the ABK book: %s %s", res.Status, body)
	}
	if !bytes.Equal(fixture.ReadFile(t, path), bin) {
		t.Error("the Polyglot book was written")
	}
}

// weightOf is the weight the book at path gives move at the start.
func weightOf(t *testing.T, path, move string) int {
	t.Helper()
	b, err := polyglot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	start := fixture.Line(t, board.StartFEN, "").Pos
	for _, e := range b.Entries(start.Key()) {
		if start.ToPlayed(e.Move).String() == move {
			return int(e.Weight)
		}
	}
	return -1
}

// TestUndoOfAChangeMadeImpossible: two servers on one book; the other's
// delete makes the last change impossible to undo: that undo says so and
// drops it, and the change before it is undone. (Every later undo
// answered 409.)
func TestUndoOfAChangeMadeImpossible(t *testing.T) {
	path := startBook(t)
	a := serve(t, explore.Options{Columns: books(path).Columns, Edit: true})
	b := serve(t, explore.Options{Columns: books(path).Columns, Edit: true})
	for _, e := range []map[string]any{
		{"op": "weight", "move": "e2e4", "weight": 20},
		{"op": "weight", "move": "d2d4", "weight": 30},
	} {
		if res, body := a.post("/api/edit", e); res.StatusCode != 200 {
			t.Fatalf("%v: %s %s", e, res.Status, body)
		}
	}
	if res, body := b.post("/api/edit", map[string]any{"op": "delete", "move": "d2d4"}); res.StatusCode != 200 {
		t.Fatalf("the other server's delete: %s %s", res.Status, body)
	}
	res, body := a.post("/api/undo", map[string]any{})
	if res.StatusCode != 409 || !strings.Contains(string(body), "dropped") {
		t.Errorf("undo of d2d4's weight, deleted since: %s %s", res.Status, body)
	}
	if res, body := a.post("/api/undo", map[string]any{}); res.StatusCode != 200 {
		t.Fatalf("undo of e2e4's weight: %s %s", res.Status, body)
	}
	if w := weightOf(t, path, "e2e4"); w != 10 {
		t.Errorf("e2e4 undone: weight %d, want 10", w)
	}
	if res, _ := a.post("/api/undo", map[string]any{}); res.StatusCode != 409 {
		t.Errorf("a third undo: %s, want nothing to undo", res.Status)
	}
}

// TestEditWaitingForALock: another program holds the book's lock; an
// edit waits for it while the page's reads are answered, then tells the
// editor the book is busy, having changed nothing; the lock let go, the
// edit is made. (The edit waited holding the server's lock: every
// request hung.)
func TestEditWaitingForALock(t *testing.T) {
	path := startBook(t)
	waiting := make(chan struct{}, 1)
	s := serve(t, explore.Options{Columns: books(path).Columns, Edit: true, Warn: func(w string) {
		if strings.Contains(w, "waiting for its lock") {
			select {
			case waiting <- struct{}{}:
			default:
			}
		}
	}})
	holder, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := filelock.Lock(t.Context(), holder, true); err != nil {
		t.Fatal(err)
	}
	orig := fixture.ReadFile(t, path)
	type answer struct {
		code int
		body string
	}
	edited := make(chan answer, 1)
	go func() {
		res, body := s.post("/api/edit", map[string]any{"op": "weight", "move": "e2e4", "weight": 20})
		edited <- answer{res.StatusCode, string(body)}
	}()
	select {
	case <-waiting:
	case a := <-edited:
		t.Fatalf("the edit did not wait for the lock: %d %s", a.code, a.body)
	case <-time.After(time.Minute):
		t.Fatal("the edit never waited for the lock")
	}
	if p := s.position(nil); len(p.Columns) != 1 || len(p.Columns[0].Report.Entries) != 3 {
		t.Errorf("the position read while the edit waits: %+v", p.Columns)
	}
	if a := <-edited; a.code != 503 || !strings.Contains(a.body, "busy") {
		t.Errorf("the edit given up: %d %s", a.code, a.body)
	}
	if !bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Error("the edit given up changed the book")
	}
	filelock.Unlock(holder)
	if res, body := s.post("/api/edit", map[string]any{"op": "weight", "move": "e2e4", "weight": 20}); res.StatusCode != 200 {
		t.Fatalf("the lock let go: %s %s", res.Status, body)
	}
	if w := weightOf(t, path, "e2e4"); w != 20 {
		t.Errorf("e2e4's weight %d, want 20", w)
	}
}
