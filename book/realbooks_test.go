package book_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// entriesAt lists "played weight" for the position after moves from fen.
func entriesAt(t *testing.T, b *book.Book, fen, moves string) ([]string, *board.Line) {
	t.Helper()
	l := fixture.Line(t, fen, moves)
	var out []string
	for _, cd := range book.NewChooser(fixture.PolyGlotOptions, 1).Candidates(b, &l.Pos, nil) {
		if !cd.Legal {
			t.Errorf("%s %s: entry %s is illegal", fen, moves, cd.Entry.Move)
		}
		out = append(out, fmt.Sprintf("%s %d", cd.Move, cd.Entry.Weight))
	}
	return out, l
}

func sameStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

func sortedByWeight(s []string) []string {
	out := slices.Clone(s)
	slices.SortStableFunc(out, func(a, b string) int {
		var wa, wb int
		fmt.Sscan(strings.Fields(a)[1], &wa)
		fmt.Sscan(strings.Fields(b)[1], &wb)
		return wb - wa
	})
	return out
}

func TestKnownEntriesOfRealBooks(t *testing.T) {
	t.Run("gnuchess", func(t *testing.T) {
		b := gnuchessBook(t)
		if b.Len() != 180358 {
			t.Errorf("%d entries", b.Len())
		}
		got, _ := entriesAt(t, b, board.StartFEN, "")
		sameStrings(t, "start", sortedByWeight(got)[:4], []string{"e2e4 12135", "d2d4 11257", "g1f3 3745", "c2c4 3294"})
	})
}
