package ctg_test

import (
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
)

// TestWalk: a walk of the games book from the start position visits
// exactly the positions DroidFish's walk found in it, and every entry of
// the book; a ply limit stops it.
func TestWalk(t *testing.T) {
	b, err := ctg.Open(filepath.Join("testdata", "games.ctg"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := map[board.Key]bool{}
	for _, l := range readOracle(t, filepath.Join("testdata", "games.oracle.txt")) {
		want[mustFEN(t, l.fen).Key()] = true
	}
	got := map[board.Key]bool{}
	st, err := b.Walk(board.StartPosition(), 99, ctg.Options{}, func(p *board.Position, ply int, e *ctg.Position) error {
		if got[p.Key()] {
			t.Errorf("%s visited twice", p.FEN())
		}
		got[p.Key()] = true
		if !want[p.Key()] {
			t.Errorf("%s (ply %d) is not in DroidFish's walk", p.FEN(), ply)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := b.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || st.Positions != len(want) || st.Depth != 10 || st.Entries != entries {
		t.Errorf("walked %d positions (stats %+v) of DroidFish's %d; the book has %d entries", len(got), st, len(want), entries)
	}
	t.Logf("%+v; %d entries", st, entries)

	short, err := b.Walk(board.StartPosition(), 2, ctg.Options{}, func(p *board.Position, ply int, e *ctg.Position) error {
		if ply > 2 {
			t.Errorf("ply %d past the limit", ply)
		}
		return nil
	})
	if err != nil || short.Depth != 2 || short.Positions >= st.Positions {
		t.Errorf("walk to ply 2: %+v %v", short, err)
	}
}
