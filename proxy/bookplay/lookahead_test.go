package bookplay

// Tests of the look-ahead along the book's lines (BookMinLine): exact on
// plain lines, transpositions measured once, cycles cut, bounded always.

import (
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// bookEntry is a move and its weight after a line of moves from the start.
type bookEntry struct {
	moves, move string
	weight      uint16
}

// writeBook writes a small sorted Polyglot book (fixture.MovesBook).
func writeBook(t testing.TB, entries []bookEntry) string {
	var ms []fixture.BookMove
	for _, e := range entries {
		ms = append(ms, fixture.BookMove{Moves: e.moves, Move: e.move, Weight: e.weight})
	}
	return fixture.MovesBook(t, ms)
}

// walkOn is a look-ahead over the given books (both sides), with
// PolyGlot's choosing rules.
func walkOn(books ...*book.Book) *lineWalk {
	w := &lineWalk{}
	c := book.NewChooser(fixture.PolyGlotOptions, 1)
	w.prepare(1, 1, c, func(bool) []*book.Book { return books })
	return w
}

// lineAfter measures the line after moves (the last one the chosen move).
func lineAfter(t *testing.T, w *lineWalk, moves string, need int) (int, bool) {
	t.Helper()
	l := fixture.Line(t, "", moves)
	return w.longest(l.Keys[:len(l.Keys)-1], &l.Pos, need)
}

func openEntries(t *testing.T, entries []bookEntry) *book.Book {
	return fixture.OpenPath(t, writeBook(t, entries))
}

func TestLineWalkTranspositionsAndCycles(t *testing.T) {
	b := openEntries(t, []bookEntry{
		// Two move orders into one position, then three more plies.
		{"", "e2e4", 10}, {"", "g1f3", 10},
		{"e2e4", "e7e5", 10}, {"e2e4 e7e5", "g1f3", 10},
		{"g1f3", "b8c6", 10}, {"g1f3 b8c6", "e2e4", 10}, {"g1f3 b8c6 e2e4", "e7e5", 10},
		{"e2e4 e7e5 g1f3", "b8c6", 10},
		{"e2e4 e7e5 g1f3 b8c6", "f1b5", 10}, {"e2e4 e7e5 g1f3 b8c6 f1b5", "a7a6", 10}, {"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "b5a4", 10},
		// A cycle: after 1.Nf3 Nc6 the knights may also go home, back to the start.
		{"g1f3 b8c6", "f3g1", 10}, {"g1f3 b8c6 f3g1", "c6b8", 10},
	})
	w := walkOn(b)
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
		got, complete := lineAfter(t, w, tc.moves, tc.need)
		if got != tc.want || !complete {
			t.Errorf("after %s (need %d): %d (complete %v), want %d", tc.moves, tc.need, got, complete, tc.want)
		}
	}
	// The cache holds what was measured: the transposed position counts
	// as one visit the second time.
	w.prepare(1, 1, w.chooser, w.books)
	lineAfter(t, w, "e2e4", 10)
	if w.visited > 1 {
		t.Errorf("measured again: %d positions visited", w.visited)
	}
	// Another game, or other books or rules, measure afresh.
	w.prepare(2, 1, w.chooser, w.books)
	if len(w.cache) != 0 {
		t.Error("cache kept into the next game")
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

// A book that is all cycles and transpositions: the walk ends within its
// budget whatever it is asked, and a short need is met at once.
func TestLineWalkBoundedOnCycles(t *testing.T) {
	w := walkOn(knightBook(t))
	start := time.Now()
	got, complete := lineAfter(t, w, "g1f3", config100)
	t.Logf("need %d: %d plies, complete %v, %d positions visited in %v", config100, got, complete, w.visited, time.Since(start))
	if w.visited > lineBudget {
		t.Errorf("%d positions visited, budget %d", w.visited, lineBudget)
	}
	if complete && (got < 1 || got > 80) {
		t.Errorf("a line of %d plies among 81 positions", got)
	}
	if got, complete := lineAfter(t, w, "g1f3", 6); got != 6 || !complete {
		t.Errorf("need 6: %d, complete %v", got, complete)
	}
}

const config100 = 100

// On the gnuchess book: the walk is bounded by its budget however deep
// the need, costs milliseconds at most, and a short need is met along the
// first line found.
func TestLineWalkOnRealBook(t *testing.T) {
	b := fixture.OpenPath(t, testenv.GnuchessBook(t))
	w := walkOn(b)
	// After 1.e4 Nf6 the book cannot be measured to 100 plies within the
	// budget (about one position in ten near the start is so): taken as
	// long enough. 12 plies are found at once.
	for _, need := range []int{config100, 12} {
		w.prepare(w.game+1, 1, w.chooser, w.books)
		start := time.Now()
		got, complete := lineAfter(t, w, "e2e4 g8f6", need)
		d := time.Since(start)
		t.Logf("need %d: %d plies, complete %v, %d positions in %v", need, got, complete, w.visited, d)
		if w.visited > lineBudget || got != need || complete != (need == 12) {
			t.Errorf("need %d: visited %d, got %d, complete %v", need, w.visited, got, complete)
		}
		if limit := 100 * time.Millisecond; !testenv.RaceEnabled && d > limit {
			t.Errorf("a walk took %v", d)
		}
	}
	w.prepare(w.game+1, 1, w.chooser, w.books)
	if got, complete := lineAfter(t, w, "e2e4", 8); got != 8 || !complete || w.visited != 8 {
		t.Errorf("need 8: %d, complete %v, %d visited", got, complete, w.visited)
	}
}
