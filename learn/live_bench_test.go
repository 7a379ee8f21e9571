package learn

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/fixture"
)

var benchProxies = flag.Int("proxies", 8, "the proxies of BenchmarkHostPGNGamesAlike")

// BenchmarkHostPGNGamesAlike is live learning's capacity: proxies (8, or
// -proxies) learning at once from one host PGN into one book, each playing
// a trivial engine's game (every game alike, in 8 plies) and appending it
// to the file as it ends, as fast as they can; games/s is the games all of
// them learned in a second (-cpu 2 for a 2-core machine).
func BenchmarkHostPGNGamesAlike(b *testing.B) {
	ms := movesFrom(b, "", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8")
	g := newHosted(b, "", false, ms, "proxy", "fake", "1/2-1/2")
	dir := b.TempDir()
	pgnPath := filepath.Join(dir, "games.pgn")
	bookPath := filepath.Join(dir, "book.bin")
	writeBookFile(b, bookPath, bookOf(b, rand.New(rand.NewPCG(1, 2)), []*hosted{g}, 8), false)
	initial := fixture.ReadFile(b, bookPath)
	sessions := make([]*Session, *benchProxies)
	for i := range sessions {
		s := NewSession(Settings{}, nil)
		s.fromPGN.claims = filepath.Join(dir, "claims")
		s.SetLearning(Settings{On: true, Books: []string{bookPath}, PGN: pgnPath})
		sessions[i] = s
	}
	var round atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := i; n < b.N; n += len(sessions) {
				g.playAs(s, true)
				appendFile(b, pgnPath, g.pgn(int(round.Add(1)), false))
			}
			s.Close()
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "games/s")
	b.StopTimer()
	// Every game counted once: the book is learn -pgn's.
	model := filepath.Join(dir, "model.bin")
	if err := os.WriteFile(model, initial, 0o644); err != nil {
		b.Fatal(err)
	}
	if want := learnPGNModel(b, model, string(fixture.ReadFile(b, pgnPath)), "proxy"); !bytes.Equal(fixture.ReadFile(b, bookPath), want) {
		b.Fatal("the book learned live differs from learn -pgn's")
	}
}
