package book

import (
	"bytes"
	"os"
	"testing"

	"github.com/notnil/chess"
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

// replayGames reads the first games of the reference PGN for the replay
// benchmarks below.
func replayGames(b *testing.B, n int) []*PGNGame {
	f, err := os.Open(shared8Moves)
	if err != nil {
		b.Skipf("reference PGN not available: %v", err)
	}
	defer f.Close()
	r := NewPGNReader(f)
	var games []*PGNGame
	for len(games) < n {
		g, err := r.Next()
		if err != nil {
			break
		}
		games = append(games, g)
	}
	return games
}

// BenchmarkReplaySAN is the cost per ply of resolving SAN and playing it
// on book.Position, the way make-book replays games (reported as ns/ply).
func BenchmarkReplaySAN(b *testing.B) {
	games := replayGames(b, 1000)
	plies := 0
	for b.Loop() {
		for _, g := range games {
			p := startPosition
			for _, s := range g.Moves {
				m, err := p.ParseSAN(s)
				if err != nil {
					b.Fatal(err)
				}
				p.Play(m)
				plies++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(plies), "ns/ply")
}

// BenchmarkReplayNotnil is the same replay with notnil/chess (SAN decoding
// and Position.Update), the alternative make-book did not take.
func BenchmarkReplayNotnil(b *testing.B) {
	games := replayGames(b, 100)
	plies := 0
	for b.Loop() {
		for _, g := range games {
			p := chess.StartingPosition()
			for _, s := range g.Moves {
				m, err := chess.AlgebraicNotation{}.Decode(p, s)
				if err != nil {
					b.Fatal(err)
				}
				p = p.Update(m)
				plies++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(plies), "ns/ply")
}
