package book_test

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// TestChooseChess960 answers in Chess960 from a book with castling stored
// king takes rook, and not at all where an inner rook holds a castling
// right, though that position's key (the outer rook's) is in the book.
func TestChooseChess960(t *testing.T) {
	outer, err := board.ParseFENVariant("1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K2R w KQkq - 0 1", true)
	if err != nil {
		t.Fatal(err)
	}
	// The same key: White's g1 rook holds the short right, h1's beyond it.
	inner, err := board.ParseFENVariant("1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K1RR w Gkq - 0 1", true)
	if err != nil {
		t.Fatal(err)
	}
	innerSameKey, _ := board.ParseFENVariant("1r2k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K1RR w Kkq - 0 1", true)
	if !inner.InnerRookCastling() || innerSameKey.InnerRookCastling() || inner.Key() != innerSameKey.Key() {
		t.Fatalf("inner %v %s, outer %v %s", inner.InnerRookCastling(), inner.Key(), innerSameKey.InnerRookCastling(), innerSameKey.Key())
	}
	castle, _ := board.ParseMove("e1h1")
	long, _ := board.ParseMove("e1b1")
	pawn, _ := board.ParseMove("a2a3") // legal with the inner rook: the key is not the position's
	entries := []book.Entry{{Key: outer.Key(), Move: castle, Weight: 3}, {Key: outer.Key(), Move: long, Weight: 1}, {Key: inner.Key(), Move: castle, Weight: 5}, {Key: inner.Key(), Move: pawn, Weight: 5}}
	b := fixture.OpenPath(t, fixture.WriteEntries(t, entries))
	c := book.NewChooser(book.Options{Mode: book.Best}, 1)
	ch, ok, why := chooseAt(c, []*book.Book{b}, outer)
	if !ok || ch.Move != castle {
		t.Fatalf("outer rooks: %v %v %s", ch.Move, ok, why)
	}
	if ms := c.BookMoves([]*book.Book{b}, outer, nil); len(ms) != 2 {
		t.Fatalf("outer rooks: book moves %v", ms)
	}
	if _, ok, why := chooseAt(c, []*book.Book{b}, inner); ok || !strings.Contains(why, "inner rook") {
		t.Fatalf("inner rook: answered (%v) or no reason (%q)", ok, why)
	}
	if cs := c.Candidates(b, inner, nil); len(cs) != 0 {
		t.Fatalf("inner rook: candidates %v", cs)
	}
}
