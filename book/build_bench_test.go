package book

import (
	"bytes"
	"os"
	"testing"
)

// shared8Moves is the Stockfish project's 8-move opening PGN (34,700
// games), the reference input for make-book speed.
const shared8Moves = "../../shared/pgn/8moves_v3.pgn"

// BenchmarkMakeBook8Moves builds the book of 8moves_v3.pgn at -max-ply 16
// from memory (reading the file is left out; the CLI adds ~10 ms for it).
func BenchmarkMakeBook8Moves(b *testing.B) {
	data, err := os.ReadFile(shared8Moves)
	if err != nil {
		b.Skipf("reference PGN not available: %v", err)
	}
	opt := DefaultBuildOptions()
	opt.MaxPly = 16
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		bl := NewBuilder(opt)
		if err := bl.AddPGN(bytes.NewReader(data), "8moves_v3.pgn"); err != nil {
			b.Fatal(err)
		}
		if n := len(bl.Entries()); n != 22054 {
			b.Fatalf("%d entries, want 22054", n)
		}
	}
}
