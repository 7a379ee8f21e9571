package book_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// byPosition is a source that finds a position's moves by the position,
// as a CTG reader does: one move at the start position, and a read that
// fails elsewhere.
type byPosition struct{ probes int }

var errRead = errors.New("read failed")

func (s *byPosition) Probe(pos board.Position, buf []book.Found) ([]book.Found, error) {
	s.probes++
	if pos != *board.StartPosition() {
		return buf, errRead
	}
	m, _ := board.ParseMove("e2e4")
	return append(buf, book.Found{Index: 0, Entry: book.Entry{Key: pos.Key(), Move: m, Weight: 1}}), nil
}
func (s *byPosition) Warnings() []string { return []string{"a fault"} }
func (s *byPosition) Close() error       { return nil }

// A Book over a source found by position: no entries by key, its moves
// from the source, the source's warnings and failures its own; none of a
// table's, a whole book's or a format's facts when the source has none.
func TestBookOverASourceByPosition(t *testing.T) {
	src := &byPosition{}
	b := book.New("pos.book", nil, src, nil, []string{"at open"})
	start := fixture.Line(t, board.StartFEN, "")
	if !b.FoundByPosition() || b.Len() != 0 || len(b.Entries(start.Pos.Key())) != 0 || b.Verify() != nil {
		t.Fatalf("found by position %v, %d entries", b.FoundByPosition(), b.Len())
	}
	d := book.NewChooser(book.Options{}, 1).Choose(book.Both(b), book.Game{Line: start})
	if m, ok := d.Move(); !ok || m.Move.String() != "e2e4" || m.Chance != 1 || !slices.Equal(b.Warnings(), []string{"at open", "a fault"}) {
		t.Errorf("chose %+v (%v), warnings %q", m, ok, b.Warnings())
	}
	if !strings.Contains(d.Reason, "faults met: pos.book: a fault") {
		t.Errorf("the fault the probe met is not in the reason %q", d.Reason)
	}
	after := fixture.Line(t, board.StartFEN, "e2e4")
	if found := b.At(&after.Pos, nil); len(found) != 0 || !errors.Is(b.Err(), errRead) {
		t.Errorf("a failed read: %v, Err %v", found, b.Err())
	}
	if w, err := b.Whole(0); w != b || err != nil {
		t.Errorf("Whole of a source with no walk: %v, %v", w, err)
	}
	if f, err := b.Describe(&start.Pos, nil); f.Position != nil || f.Moves != nil || err != nil {
		t.Errorf("facts of a source with none: %+v, %v", f, err)
	}
	if book.ReportOf[*testReport](b) != nil {
		t.Error("a report of a book without one")
	}
}

type testReport struct{}

func (*testReport) String() string     { return "" }
func (*testReport) Lines() [][2]string { return nil }
func (*testReport) EntriesAre() string { return "" }
func (*testReport) Faults() []string   { return nil }

// A table in memory: read by a format into the order of a book file;
// made by a tool from entries whose keys are in order, in the order given
// (what a writer writes); from entries out of key order, sorted.
func TestMemoryOrder(t *testing.T) {
	e := func(k board.Key, w uint16) book.Entry { return book.Entry{Key: k, Move: board.Move(w), Weight: w} }
	keyed := []book.Entry{e(1, 5), e(1, 9), e(2, 1)}
	order := func(t book.Table) []uint16 {
		var ws []uint16
		for i := range t.Len() {
			ws = append(ws, t.Entry(i).Weight)
		}
		return ws
	}
	if got := order(book.Memory(slices.Clone(keyed))); !slices.Equal(got, []uint16{9, 5, 1}) {
		t.Errorf("read: %v", got)
	}
	made := book.FromEntries("made", keyed)
	if got := order(made.Source().(book.Table)); !slices.Equal(got, []uint16{5, 9, 1}) || made.Format() != nil || made.NoChess960() {
		t.Errorf("made: %v", got)
	}
	if got := order(book.FromEntries("unsorted", []book.Entry{e(2, 1), e(1, 5), e(1, 9)}).Source().(book.Table)); !slices.Equal(got, []uint16{9, 5, 1}) {
		t.Errorf("made out of key order: %v", got)
	}
	if n := len(made.Entries(1)); n != 2 {
		t.Errorf("%d entries of key 1", n)
	}
}
