package book_test

// Tests of the look-ahead along the book's lines (BookMinLine): exact on
// plain lines, transpositions measured once, cycles cut, bounded always.

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// lookingAhead is a look-ahead over the given books (both sides), with
// PolyGlot's choosing rules.
type lookingAhead struct {
	l     *book.Lookahead
	c     *book.Chooser
	shelf *book.Shelf
}

func lookOn(books ...*book.Book) *lookingAhead {
	la := &lookingAhead{l: &book.Lookahead{}, c: book.NewChooser(fixture.PolyGlotOptions, 1), shelf: book.Both(books...)}
	la.l.For(1, 1)
	return la
}

// after measures the line after moves (the last one the move judged).
func (la *lookingAhead) after(t *testing.T, moves string, need int) (int, bool) {
	t.Helper()
	fields := strings.Fields(moves)
	l := fixture.Line(t, "", strings.Join(fields[:len(fields)-1], " "))
	m, err := board.ParseMove(fields[len(fields)-1])
	if err == nil {
		m, err = l.Pos.LegalMove(m)
	}
	if err != nil {
		t.Fatal(err)
	}
	return la.l.Longest(la.c, la.shelf, l.Keys, &l.Pos, m, need)
}

func TestLookaheadTranspositionsAndCycles(t *testing.T) {
	b := fixture.OpenPath(t, fixture.MovesBook(t, []fixture.BookMove{
		// Two move orders into one position, then three more plies.
		{Moves: "", Move: "e2e4", Weight: 10}, {Moves: "", Move: "g1f3", Weight: 10},
		{Moves: "e2e4", Move: "e7e5", Weight: 10}, {Moves: "e2e4 e7e5", Move: "g1f3", Weight: 10},
		{Moves: "g1f3", Move: "b8c6", Weight: 10}, {Moves: "g1f3 b8c6", Move: "e2e4", Weight: 10}, {Moves: "g1f3 b8c6 e2e4", Move: "e7e5", Weight: 10},
		{Moves: "e2e4 e7e5 g1f3", Move: "b8c6", Weight: 10},
		{Moves: "e2e4 e7e5 g1f3 b8c6", Move: "f1b5", Weight: 10}, {Moves: "e2e4 e7e5 g1f3 b8c6 f1b5", Move: "a7a6", Weight: 10}, {Moves: "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", Move: "b5a4", Weight: 10},
		// A cycle: after 1.Nf3 Nc6 the knights may also go home, back to the start.
		{Moves: "g1f3 b8c6", Move: "f3g1", Weight: 10}, {Moves: "g1f3 b8c6 f3g1", Move: "c6b8", Weight: 10},
	}))
	la := lookOn(b)
	for _, tc := range []struct {
		moves string
		need  int
		want  int
	}{
		{"e2e4", 10, 6},                // e5 Nf3 Nc6 Bb5 a6 Ba4
		{"g1f3", 10, 6},                // Nc6 e4 e5 Bb5 a6 Ba4: the transposition
		{"g1f3", 3, 3},                 // enough is enough: no need to look further
		{"e2e4 e7e5 g1f3 b8c6", 10, 3}, // the end of the line
		{"g1f3 b8c6 f3g1", 10, 0},      // Nb8 is the start again: the line ends before it
		{"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4", 10, 0},
	} {
		got, complete := la.after(t, tc.moves, tc.need)
		if got != tc.want || !complete {
			t.Errorf("after %s (need %d): %d (complete %v), want %d", tc.moves, tc.need, got, complete, tc.want)
		}
	}
	// The cache holds what was measured: the transposed position counts
	// as one visit the second time.
	la.l.For(1, 1)
	la.after(t, "e2e4", 10)
	if la.l.Visited() > 1 {
		t.Errorf("measured again: %d positions visited", la.l.Visited())
	}
	// Another game, or other books or rules, measure afresh.
	if la.l.For(2, 1); la.l.Cached() != 0 {
		t.Error("cache kept into the next game")
	}
	la.after(t, "e2e4", 10)
	if la.l.For(2, 2); la.l.Cached() != 0 {
		t.Error("cache kept for other books")
	}
}

// knightBook is a book in which every position with the knights on their
// first three ranks has every knight move that stays there: 81 positions
// reached by many orders, every one on cycles.
func knightBook(t *testing.T) *book.Book {
	t.Helper()
	var entries []book.Entry
	start := board.StartPosition()
	seen := map[board.Key]bool{start.Key(): true}
	queue := []board.Position{*start}
	for len(queue) > 0 {
		pos := queue[0]
		queue = queue[1:]
		for _, m := range pos.LegalMoves() {
			if pos.Piece(m.From()).Type() != board.Knight {
				continue
			}
			if r := m.To().Row(); (pos.WhiteToMove() && r > 2) || (!pos.WhiteToMove() && r < 5) {
				continue
			}
			entries = append(entries, book.Entry{Key: pos.Key(), Move: m, Weight: 1})
			next := pos
			next.Play(m)
			if !seen[next.Key()] {
				seen[next.Key()] = true
				queue = append(queue, next)
			}
		}
	}
	if len(seen) != 81 {
		t.Fatalf("%d positions", len(seen))
	}
	return fixture.OpenPath(t, fixture.WriteEntries(t, entries))
}

// A book that is all cycles and transpositions: the measure ends within
// its budget whatever it is asked, and a short need is met at once.
func TestLookaheadBoundedOnCycles(t *testing.T) {
	la := lookOn(knightBook(t))
	got, complete := la.after(t, "g1f3", 100)
	t.Logf("need 100: %d plies, complete %v, %d positions visited", got, complete, la.l.Visited())
	if la.l.Visited() > book.LineBudget {
		t.Errorf("%d positions visited, budget %d", la.l.Visited(), book.LineBudget)
	}
	if complete && (got < 1 || got > 80) {
		t.Errorf("a line of %d plies among 81 positions", got)
	}
	if got, complete := la.after(t, "g1f3", 6); got != 6 || !complete {
		t.Errorf("need 6: %d, complete %v", got, complete)
	}
}

// On the gnuchess book: the measure is bounded by its budget however deep
// the need, and a short need is met along the first line found.
func TestLookaheadOnRealBook(t *testing.T) {
	la := lookOn(fixture.OpenPath(t, testenv.GnuchessBook(t)))
	// After 1.e4 Nf6 the book cannot be measured to 100 plies within the
	// budget (about one position in ten near the start is so): taken as
	// long enough. 12 plies are found at once.
	for game, need := range []int{100, 12} {
		la.l.For(2+game, 1)
		got, complete := la.after(t, "e2e4 g8f6", need)
		t.Logf("need %d: %d plies, complete %v, %d positions", need, got, complete, la.l.Visited())
		if la.l.Visited() > book.LineBudget || got != need || complete != (need == 12) {
			t.Errorf("need %d: visited %d, got %d, complete %v", need, la.l.Visited(), got, complete)
		}
	}
	la.l.For(9, 1)
	if got, complete := la.after(t, "e2e4", 8); got != 8 || !complete || la.l.Visited() != 8 {
		t.Errorf("need 8: %d, complete %v, %d visited", got, complete, la.l.Visited())
	}
}
