package pgn

import (
	"io"
	"testing"

	"github.com/polyproxy/polyproxy/internal/lichessgames"
)

// BenchmarkReadLichess reads lichess-style games (every move commented
// with its clock, some with evaluations) as make-book's workers read
// them: pieces of text through a chunk reader.
func BenchmarkReadLichess(b *testing.B) {
	text := lichessgames.PGN(lichessgames.Options{Seed: 1, Games: 2000})
	b.SetBytes(int64(len(text)))
	r := NewChunkReader(Piece{Line: 1, Last: true})
	for b.Loop() {
		r.ResetChunk(Piece{Text: text, Line: 1, Last: true})
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
