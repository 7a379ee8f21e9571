package proxy_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

const gnuchessBook = "/usr/share/games/gnuchess/book.bin"

// byHand is a core ready to take the GUI's lines directly, its front
// chosen by the first, without goroutines or pipes: what "inside the
// proxy" costs. weighted chooses a book move by weight.
func byHand(b testing.TB, bookPath string, obs core.GameObserver, weighted ...bool) (*proxytest.HandCore, *proxytest.Bestmoves) {
	cfg := proxytest.Config(b, bookPath)
	if len(weighted) > 0 && weighted[0] {
		cfg.BookMode = book.Weighted
	}
	w := &proxytest.Bestmoves{}
	return proxytest.ByHand(b, cfg, proxy.NewFront, obs, w), w
}

// followed fails b unless the game the core follows is the first n
// plies of moves, from the start position or from a position on the way.
func followed(b *testing.B, a *proxytest.HandCore, moves []string, n, from int) {
	l, _ := board.NewLine("startpos")
	if err := l.PlayMoves(moves[:n], 0); err != nil {
		b.Fatal(err)
	}
	g := a.Game()
	if got := len(g.Moves()); got != n-from || g.Position().Key() != l.Pos.Key() {
		b.Fatalf("game not followed: %d plies to %s, want %d to %s", got, g.Position().FEN(), n-from, l.Pos.FEN())
	}
}

// bookLine follows the book's most likely move for up to plies plies.
func bookLine(b *testing.B, bookPath string, plies int) []string {
	bk, err := formats.Open(bookPath)
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	c := book.NewChooser(fixture.PolyGlotOptions, 1)
	l, _ := board.NewLine("startpos")
	var moves []string
	for len(moves) < plies {
		m, ok := c.BestReply([]*book.Book{bk}, &l.Pos)
		if !ok {
			break
		}
		l.Play(m)
		moves = append(moves, m.String())
	}
	return moves
}

// learningObserver is what the binary runs with: live learning follows
// every position (learning itself off, as by default).
func learningObserver() core.GameObserver {
	s := learn.NewSession(learn.Settings{}, nil)
	return s
}

// BenchmarkBookAnswer: a position line extending the previous one by two
// plies, then go, to bestmove, inside the proxy (target < 50 µs); with and
// without the live-learning observer the binary installs.
func BenchmarkBookAnswer(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchmarkBookAnswer(b, nil) })
	b.Run("learning", func(b *testing.B) { benchmarkBookAnswer(b, learningObserver()) })
}

func benchmarkBookAnswer(b *testing.B, obs core.GameObserver) {
	if _, err := os.Stat(gnuchessBook); err != nil {
		b.Skip("gnuchess book missing (apt-get install gnuchess-book)")
	}
	moves := bookLine(b, gnuchessBook, 20)
	if len(moves) < 20 {
		b.Fatalf("book line of %d plies", len(moves))
	}
	a, w := byHand(b, gnuchessBook, obs, true)
	var latency time.Duration
	var lines []string
	for k := 1; 2*k <= 18; k++ {
		lines = append(lines, "position startpos moves "+strings.Join(moves[:2*k], " "))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(lines)
		if k == 0 {
			b.StopTimer()
			a.GUILine("ucinewgame")
			a.GUILine("position startpos")
			b.StartTimer()
		}
		start := time.Now()
		a.GUILine(lines[k])
		a.GUILine("go wtime 60000 btime 60000 winc 1000 binc 1000")
		a.FlushGUI()
		latency += time.Since(start)
	}
	b.StopTimer()
	b.ReportMetric(float64(latency.Nanoseconds())/float64(b.N), "ns-to-bestmove")
	if w.N != b.N {
		b.Fatalf("%d bestmoves for %d go", w.N, b.N)
	}
}

// randomGame is a legal game of n plies from a fixed seed (restarting when
// a random game ends early).
func randomGame(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	for {
		pos := chess.StartingPosition()
		var moves []string
		for len(moves) < n {
			valid := pos.ValidMoves()
			if len(valid) == 0 {
				break
			}
			m := valid[r.IntN(len(valid))]
			moves = append(moves, m.String())
			pos = pos.Update(m)
		}
		if len(moves) == n {
			return moves
		}
	}
}

// BenchmarkPositionOneMorePly: a 300-ply position line sent again with one
// more ply (target < 30 µs).
func BenchmarkPositionOneMorePly(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchmarkPositionOneMorePly(b, nil) })
	b.Run("learning", func(b *testing.B) { benchmarkPositionOneMorePly(b, learningObserver()) })
}

func benchmarkPositionOneMorePly(b *testing.B, obs core.GameObserver) {
	const base, extra = 300, 200
	moves := randomGame(base + extra)
	lines := make([]string, extra+1)
	for k := range lines {
		lines[k] = "position startpos moves " + strings.Join(moves[:base+k], " ")
	}
	a, _ := byHand(b, "", obs)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := 1 + i%extra
		if k == 1 {
			b.StopTimer()
			a.GUILine(lines[0])
			b.StartTimer()
		}
		a.GUILine(lines[k])
	}
	b.StopTimer()
	followed(b, a, moves, base+1+(b.N-1)%extra, 0)
}

// BenchmarkPositionSame: the same 300-ply line again (no new move).
func BenchmarkPositionSame(b *testing.B) {
	line := "position startpos moves " + strings.Join(randomGame(300), " ")
	a, _ := byHand(b, "", nil)
	a.GUILine(line)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.GUILine(line)
	}
}

// BenchmarkBookAnswerSamePosition: the same 9-ply position and go again
// and again, as in the pipe round trip PolyGlot is measured with.
func BenchmarkBookAnswerSamePosition(b *testing.B) {
	if _, err := os.Stat(gnuchessBook); err != nil {
		b.Skip("gnuchess book missing (apt-get install gnuchess-book)")
	}
	for _, tc := range []struct {
		name string
		obs  func() core.GameObserver
	}{{"plain", func() core.GameObserver { return nil }}, {"learning", learningObserver}} {
		b.Run(tc.name, func(b *testing.B) {
			a, w := byHand(b, gnuchessBook, tc.obs(), true)
			pos := "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1"
			var latency time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				a.GUILine(pos)
				a.GUILine("go wtime 60000 btime 60000")
				a.FlushGUI()
				latency += time.Since(start)
			}
			b.StopTimer()
			b.ReportMetric(float64(latency.Nanoseconds())/float64(b.N), "ns-to-bestmove")
			if w.N != b.N {
				b.Fatalf("%d bestmoves for %d go", w.N, b.N)
			}
		})
	}
}

// BenchmarkEngineChunk: the loop's own work for a 64 KB chunk of a search's
// info lines (finding each line's kind and copying the chunk out), per line;
// no pipes or goroutines.
func BenchmarkEngineChunk(b *testing.B) {
	a, _ := byHand(b, "", nil)
	a.GUILine("uci") // the UCI front
	line := "info depth 20 seldepth 30 multipv 1 score cp 31 nodes 1234567 nps 1000000 hashfull 0 tbhits 0 time 1234 pv e2e4 e7e5 g1f3\n"
	chunk := []byte(strings.Repeat(line, 64<<10/len(line)))
	lines := bytes.Count(chunk, []byte("\n"))
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		a.EngineLines(chunk)
		a.FlushGUI()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/line")
}
