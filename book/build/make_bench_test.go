package build

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/notnil/chess"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// bookGames is 20,000 games of 80 plies that follow the gnuchess book as
// far as it goes, like an opening suite's games (go run ./bench measures
// the real 8moves_v3.pgn).
func bookGames(b *testing.B) []byte {
	bk, err := polyglot.Open(testenv.GnuchessBook(b))
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	return fixture.BookGames(bk, 20000, "Stockfish", 3)
}

// BenchmarkMakeBook builds the book of 20,000 games at -max-ply 16 from
// memory (reading the file is left out), on one thread and on all (the
// sub-benchmark's name), as -threads does.
func BenchmarkMakeBook(b *testing.B) {
	data := bookGames(b)
	for _, threads := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			opt := DefaultOptions()
			opt.MaxPly = 16
			opt.Threads = threads
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				bl := NewBuilder(opt)
				if err := bl.AddPGN(bytes.NewReader(data), "games.pgn"); err != nil {
					b.Fatal(err)
				}
				if len(bl.Entries()) == 0 {
					b.Fatal("no entries")
				}
			}
			b.ReportMetric(float64(20000*b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkMakeBookZstd is BenchmarkMakeBook on all threads from the same
// games compressed with zstd, through pgn.NewInput as make-book reads a
// .pgn.zst: the cost of the compressed input.
func BenchmarkMakeBookZstd(b *testing.B) {
	data := bookGames(b)
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		b.Fatal(err)
	}
	packed := enc.EncodeAll(data, nil)
	enc.Close()
	opt := DefaultOptions()
	opt.MaxPly = 16
	opt.Threads = runtime.GOMAXPROCS(0)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		in, err := pgn.NewInput(bytes.NewReader(packed), "games.pgn.zst")
		if err != nil {
			b.Fatal(err)
		}
		bl := NewBuilder(opt)
		if err := bl.AddPGN(in, "games.pgn.zst"); err != nil {
			b.Fatal(err)
		}
		in.Close()
	}
	b.ReportMetric(float64(20000*b.N)/b.Elapsed().Seconds(), "games/s")
}

// replayGames reads the first n games for the replay benchmarks below.
func replayGames(b *testing.B, n int) []*pgn.Game {
	r := pgn.NewReader(bytes.NewReader(bookGames(b)))
	var games []*pgn.Game
	for len(games) < n {
		g, err := r.Next()
		if err != nil {
			break
		}
		games = append(games, g.Clone())
	}
	return games
}

// BenchmarkReplaySAN is the cost per ply of resolving SAN and playing it
// on board.Position, the way make-book replays games (reported as ns/ply).
func BenchmarkReplaySAN(b *testing.B) {
	games := replayGames(b, 1000)
	plies := 0
	for b.Loop() {
		for _, g := range games {
			p := *board.StartPosition()
			for i := range g.NumMoves() {
				m, err := board.ParseSAN(&p, g.Move(i))
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
			for i := range g.NumMoves() {
				m, err := chess.AlgebraicNotation{}.Decode(p, string(g.Move(i)))
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
