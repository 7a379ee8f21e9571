package ctg_test

import (
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
)

// BenchmarkProbe asks the games book about the positions of its first
// plies, with the lookups of each move's next position that weighing the
// moves takes.
func BenchmarkProbe(b *testing.B) {
	bk, err := ctg.Open(filepath.Join("testdata", "games.ctg"))
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	var positions []*board.Position
	if _, err := bk.Walk(board.StartPosition(), 3, ctg.Options{}, func(p *board.Position, ply int, e *ctg.Position) error {
		positions = append(positions, p)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := bk.Probe(positions[i%len(positions)], ctg.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen opens and closes the games book.
func BenchmarkOpen(b *testing.B) {
	for b.Loop() {
		bk, err := ctg.Open(filepath.Join("testdata", "games.ctg"))
		if err != nil {
			b.Fatal(err)
		}
		bk.Close()
	}
}
