package polyglot_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// editBook makes edit on the book at path, failing the test on an error.
func editBook(t *testing.T, path string, e book.Edit) book.Edit {
	t.Helper()
	f, err := book.OpenLearnFile(path, polyglot.Format)
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

// checkBook fails when the book at path has a problem info-book reports,
// and returns its entries.
func checkBook(t *testing.T, path string) []book.Entry {
	t.Helper()
	b, err := polyglot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := polyglot.Scan(b)
	if err != nil {
		t.Fatal(err)
	}
	if w := s.Warnings(); len(w) > 0 {
		t.Fatalf("after the edit: %v", w)
	}
	var out []book.Entry
	for i := range b.Len() {
		out = append(out, b.Entry(i))
	}
	return out
}

// weightsAt is the moves (played) and weights the book at path has at pos.
func weightsAt(t *testing.T, path string, pos *board.Position) string {
	t.Helper()
	b, err := polyglot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var s string
	for _, e := range b.Entries(pos.Key()) {
		s += fmt.Sprintf("%s:%d ", pos.ToPlayed(e.Move), e.Weight)
	}
	return s
}

func mustMove(t *testing.T, s string) board.Move {
	t.Helper()
	m, err := board.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEditPolyglot: each kind of edit on a copy of a real book does what
// it says, keeps the book sorted and free of problems, and its undo gives
// back the very bytes.
func TestEditPolyglot(t *testing.T) {
	path := fixture.CopyFile(t, testenv.GnuchessBook(t))
	orig := fixture.ReadFile(t, path)
	pos := fixture.Line(t, board.StartFEN, "e2e4 e7e5").Pos
	before := weightsAt(t, path, &pos)
	t.Logf("1.e4 e5: %s", before)
	for _, tc := range []struct {
		name string
		edit book.Edit
		want string // a move and weight after it
	}{
		{"weight kept in order", book.Edit{Kind: book.EditWeight, Move: mustMove(t, "g1f3"), Weight: 9000}, "g1f3:9000 "},
		{"weight moved up", book.Edit{Kind: book.EditWeight, Move: mustMove(t, "f1c4"), Weight: 60000}, "f1c4:60000 g1f3"},
		{"delete", book.Edit{Kind: book.EditDelete, Move: mustMove(t, "g1f3")}, ""},
		{"add", book.Edit{Kind: book.EditAdd, Move: mustMove(t, "a2a3"), Weight: 7, Learn: book.MakeLearn(3, 4)}, "a2a3:7 "},
	} {
		tc.edit.Pos = pos
		undo := editBook(t, path, tc.edit)
		checkBook(t, path)
		got := weightsAt(t, path, &pos)
		if !bytes.Contains([]byte(got), []byte(tc.want)) || got == before {
			t.Errorf("%s: %s", tc.name, got)
		}
		if tc.edit.Kind == book.EditDelete && bytes.Contains([]byte(got), []byte("g1f3")) {
			t.Errorf("%s: g1f3 still there: %s", tc.name, got)
		}
		editBook(t, path, undo)
		if !bytes.Equal(fixture.ReadFile(t, path), orig) {
			t.Fatalf("%s: undone, the book differs from the original (%s)", tc.name, weightsAt(t, path, &pos))
		}
	}
	// A new position: its entry goes where its key sorts.
	far := fixture.Line(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "").Pos
	undo := editBook(t, path, book.Edit{Kind: book.EditAdd, Pos: far, Move: mustMove(t, "e1g1"), Weight: 1})
	if got := weightsAt(t, path, &far); got != "e1g1:1 " {
		t.Errorf("castling added: %s", got)
	}
	entries := checkBook(t, path)
	if len(entries) != len(orig)/polyglot.EntrySize+1 {
		t.Errorf("%d entries", len(entries))
	}
	if i := slices.IndexFunc(entries, func(e book.Entry) bool { return e.Key == far.Key() }); entries[i].Move.String() != "e1h1" {
		t.Errorf("castling stored as %s, want e1h1", entries[i].Move)
	}
	editBook(t, path, undo)
	if !bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Fatal("undone, the book differs")
	}
}

func TestEditPolyglotRefuses(t *testing.T) {
	path := fixture.CopyFile(t, testenv.GnuchessBook(t))
	orig := fixture.ReadFile(t, path)
	pos := fixture.Line(t, board.StartFEN, "").Pos
	f, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, e := range []book.Edit{
		{Kind: book.EditAdd, Pos: pos, Move: mustMove(t, "e2e4"), Weight: 1},    // there already
		{Kind: book.EditAdd, Pos: pos, Move: mustMove(t, "e2e5"), Weight: 1},    // illegal
		{Kind: book.EditAdd, Pos: pos, Move: mustMove(t, "h2h3"), Weight: 0},    // never played
		{Kind: book.EditWeight, Pos: pos, Move: mustMove(t, "h2h4"), Weight: 1}, // not in the book
		{Kind: book.EditDelete, Pos: pos, Move: mustMove(t, "h2h4")},
		{Kind: book.EditFields, Pos: pos, Move: mustMove(t, "e2e4"), Fields: map[string]int64{"priority": 1}},
	} {
		if _, err := f.Edit(t.Context(), e); !errors.Is(err, book.ErrEdit) {
			t.Errorf("%v %s: %v", e.Kind, e.Move, err)
		}
	}
	if !bytes.Equal(fixture.ReadFile(t, path), orig) {
		t.Fatal("a refused edit changed the book")
	}
	unsorted := fixture.CopyFile(t, fixture.Path("unsorted.bin"))
	u, err := book.OpenLearnFile(unsorted, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	if _, err := u.Edit(t.Context(), book.Edit{Kind: book.EditAdd, Pos: pos, Move: mustMove(t, "h2h3"), Weight: 1}); !errors.Is(err, book.ErrEdit) {
		t.Errorf("unsorted book: %v", err)
	}
}

// TestEditWhileLearning: a learner counts games into a book while another
// descriptor edits it, rewrites included; every game is counted in the
// end, in the entries as they are then.
func TestEditWhileLearning(t *testing.T) {
	path := fixture.CopyFile(t, testenv.GnuchessBook(t))
	start := fixture.Line(t, board.StartFEN, "").Pos
	e4 := fixture.Line(t, board.StartFEN, "e2e4").Pos
	learned := []struct {
		pos  board.Position
		move string
	}{{start, "e2e4"}, {start, "d2d4"}, {e4, "e7e5"}, {e4, "c7c5"}}
	gamesOf := func() (n int) {
		b, err := polyglot.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		for _, l := range learned {
			for _, e := range b.Entries(l.pos.Key()) {
				if e.Move == mustMove(t, l.move) {
					n += int(e.Learn.Games())
				}
			}
		}
		return n
	}
	games0 := gamesOf()
	const rounds = 300
	done := make(chan error)
	go func() {
		f, err := book.OpenLearnFile(path, polyglot.Format)
		if err != nil {
			done <- err
			return
		}
		defer f.Close()
		for i := range rounds {
			l := learned[i%len(learned)]
			if _, err := f.Apply(t.Context(), []book.LearnUpdate{{Key: l.pos.Key(), Move: mustMove(t, l.move), Result: book.Draw}}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	ed, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer ed.Close()
	edits := 0
	for learning := true; learning; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			learning = false
		default:
		}
		// Rewrites on the learned positions themselves: a move added and
		// removed, and the weights of learned moves moved around.
		for _, e := range []book.Edit{
			{Kind: book.EditAdd, Pos: start, Move: mustMove(t, "h2h3"), Weight: 40000},
			{Kind: book.EditWeight, Pos: e4, Move: mustMove(t, "c7c5"), Weight: uint16(30000 + edits%2*20000)},
		} {
			undo, err := ed.Edit(t.Context(), e)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ed.Edit(t.Context(), undo); err != nil {
				t.Fatal(err)
			}
			edits += 2
		}
	}
	if got := gamesOf(); got != games0+rounds {
		t.Fatalf("%d games counted, want %d (%d before, %d learned) with %d edits meanwhile", got, games0+rounds, games0, rounds, edits)
	}
	checkBook(t, path)
	t.Logf("%d games learned while %d edits were made", rounds, edits)
}
