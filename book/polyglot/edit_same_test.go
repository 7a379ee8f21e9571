package polyglot_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// TestEditCastlingAsStored: a book that stores castling as the king's move
// (e1g1) is edited by the move as played, in either spelling, as learning
// and the chooser read it; adding it again is refused, not stored twice.
func TestEditCastlingAsStored(t *testing.T) {
	pos := fixture.Line(t, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "").Pos
	path := fixture.WriteEntries(t, []book.Entry{
		{Key: pos.Key(), Move: mustMove(t, "e1g1"), Weight: 10},
		{Key: pos.Key(), Move: mustMove(t, "h1h8"), Weight: 5},
	})
	orig := fixture.ReadFile(t, path)
	f, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, spelling := range []string{"e1g1", "e1h1"} {
		undo, err := f.Edit(t.Context(), book.Edit{Kind: book.EditWeight, Pos: pos, Move: mustMove(t, spelling), Weight: 30})
		if err != nil {
			t.Fatalf("weight of %s: %v", spelling, err)
		}
		if got := weightsAt(t, path, &pos); got != "e1g1:30 h1h8:5 " {
			t.Errorf("weight of %s set: %s", spelling, got)
		}
		if _, err := f.Edit(t.Context(), book.Edit{Kind: book.EditAdd, Pos: pos, Move: mustMove(t, spelling), Weight: 7}); !errors.Is(err, book.ErrEdit) {
			t.Errorf("add %s again: %v", spelling, err)
		}
		if _, err := f.Edit(t.Context(), undo); err != nil {
			t.Fatal(err)
		}
		del, err := f.Edit(t.Context(), book.Edit{Kind: book.EditDelete, Pos: pos, Move: mustMove(t, spelling)})
		if err != nil {
			t.Fatalf("delete %s: %v", spelling, err)
		}
		if got := weightsAt(t, path, &pos); got != "h1h8:5 " {
			t.Errorf("%s deleted: %s", spelling, got)
		}
		if _, err := f.Edit(t.Context(), del); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fixture.ReadFile(t, path), orig) {
			t.Fatalf("%s: undone, the book differs", spelling)
		}
	}
}

// TestUndoKeepsTies: an edit that moves an entry past another of the same
// weight, undone, gives the file its bytes back: the tie in its order, so
// the move BookMode=best plays is the one it played before.
func TestUndoKeepsTies(t *testing.T) {
	pos := fixture.Line(t, board.StartFEN, "").Pos
	path := fixture.WriteEntries(t, []book.Entry{
		{Key: pos.Key(), Move: mustMove(t, "e2e4"), Weight: 10},
		{Key: pos.Key(), Move: mustMove(t, "d2d4"), Weight: 10},
		{Key: pos.Key(), Move: mustMove(t, "c2c4"), Weight: 10},
	})
	orig := fixture.ReadFile(t, path)
	for _, e := range []book.Edit{
		{Kind: book.EditWeight, Pos: pos, Move: mustMove(t, "c2c4"), Weight: 20},
		{Kind: book.EditWeight, Pos: pos, Move: mustMove(t, "e2e4"), Weight: 5},
		{Kind: book.EditDelete, Pos: pos, Move: mustMove(t, "d2d4")},
		{Kind: book.EditAdd, Pos: pos, Move: mustMove(t, "g1f3"), Weight: 10},
	} {
		undo := editBook(t, path, e)
		editBook(t, path, undo)
		if got := fixture.ReadFile(t, path); !bytes.Equal(got, orig) {
			t.Errorf("%v %s undone: %s, want e2e4:10 d2d4:10 c2c4:10", e.Kind, e.Move, weightsAt(t, path, &pos))
			os.WriteFile(path, orig, 0o644)
		}
	}
}

// TestUndoNoLongerPossible: an undo of a change that another editor has
// since changed again is refused, and writes nothing.
func TestUndoNoLongerPossible(t *testing.T) {
	pos := fixture.Line(t, board.StartFEN, "").Pos
	path := fixture.WriteEntries(t, []book.Entry{
		{Key: pos.Key(), Move: mustMove(t, "e2e4"), Weight: 10},
		{Key: pos.Key(), Move: mustMove(t, "d2d4"), Weight: 5},
	})
	undo := editBook(t, path, book.Edit{Kind: book.EditWeight, Pos: pos, Move: mustMove(t, "d2d4"), Weight: 7})
	editBook(t, path, book.Edit{Kind: book.EditDelete, Pos: pos, Move: mustMove(t, "d2d4")})
	now := fixture.ReadFile(t, path)
	f, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Edit(t.Context(), undo); !errors.Is(err, book.ErrEdit) {
		t.Fatalf("undo of a change since deleted: %v", err)
	}
	if !bytes.Equal(fixture.ReadFile(t, path), now) {
		t.Fatal("a refused undo changed the book")
	}
}

// TestEditOfABookTruncatedUnderIt: a program that takes no lock truncates
// the book while an edit reads it; the edit fails, and the process lives
// (no read of the mapping outside its guard).
func TestEditOfABookTruncatedUnderIt(t *testing.T) {
	var entries []book.Entry
	line := fixture.Line(t, board.StartFEN, "")
	for i, m := range line.Pos.LegalMoves() {
		entries = append(entries, book.Entry{Key: line.Pos.Key(), Move: m, Weight: uint16(100 - i)})
	}
	for i := range 2000 { // pages of other positions
		entries = append(entries, book.Entry{Key: board.Key(uint64(i+1) * 0x9e3779b97f4a7c15), Move: mustMove(t, "e2e4"), Weight: 1})
	}
	path := fixture.WriteEntries(t, entries)
	polyglot.SetAfterLookup(t, func(f *os.File) {
		if err := f.Truncate(0); err != nil {
			t.Error(err)
		}
	})
	for _, e := range []book.Edit{
		{Kind: book.EditWeight, Pos: line.Pos, Move: mustMove(t, "e2e4"), Weight: 7},
		{Kind: book.EditAdd, Pos: line.Pos, Move: mustMove(t, "e2e4"), Weight: 7},
	} {
		f, err := book.OpenLearnFile(path, polyglot.Format)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Edit(t.Context(), e); !errors.Is(err, book.ErrBookChanged) {
			t.Errorf("%v of a book truncated under it: %v", e.Kind, err)
		}
		f.Close()
		os.WriteFile(path, polyglot.AppendEntry(nil, entries[0]), 0o644)
	}
}
