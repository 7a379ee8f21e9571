package learn

import (
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// TestSessionLearnsIntoABK: BookLearn counts a game's result into an ABK
// book in place: the games, wins and losses (White's view) of the records
// of our book moves, castling included, and nothing else.
func TestSessionLearnsIntoABK(t *testing.T) {
	l := playLine(t, startFEN, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1", "g8f6", "d1e2")
	var entries []book.Entry
	for p := range l.moves {
		stored := l.positions[p].Pos.ToBook(l.moves[p]) // castling e1h1, as a Polyglot book stores it
		entries = append(entries, book.Entry{Key: l.keys[p], Move: stored, Weight: 10, Learn: book.MakeLearn(2, 2)})
	}
	src := book.FromEntries("line", entries)
	path := filepath.Join(t.TempDir(), "line.abk")
	if _, err := abk.Write(path, src, 40); err != nil {
		t.Fatal(err)
	}
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	before := fixture.ReadFile(t, path)
	s, log := newTestSession()
	s.SetLearning(learning(true, path))
	s.NewGame()
	stored := l
	stored.moves = nil
	for _, e := range entries {
		stored.moves = append(stored.moves, e.Move) // the adapter passes the book's entry
	}
	d := &driver{s: s, b: b, l: stored, white: true}
	d.play(0, 9, map[int]bool{0: true, 2: true, 4: true, 6: true}, map[int]Score{8: {White: true, Mate: 1, IsMate: true}})
	s.EngineScore(true, 0, 1, true)
	s.Close()
	after := fixture.ReadFile(t, path)
	// The records are the line's plies in order (one move a position),
	// each of 2 games of 2 points written as 2 draws; White's four book
	// moves count a win more.
	for p := range l.moves {
		rec := abk.FirstRecord + p
		was := abk.DecodeRecord(before[rec*abk.RecordSize:])
		now := abk.DecodeRecord(after[rec*abk.RecordSize:])
		want := was
		if p%2 == 0 && p < 8 {
			want.Games, want.Wins = was.Games+1, was.Wins+1
		}
		if now != want {
			t.Errorf("ply %d (%s): record %+v, want %+v", p, l.moves[p], now, want)
		}
	}
	for i := 0; i < abk.FirstRecord*abk.RecordSize; i++ {
		if before[i] != after[i] {
			t.Fatalf("header byte %d changed", i)
		}
	}
	if len(log.warn) != 0 {
		t.Errorf("warnings: %q", log.warn)
	}
}
