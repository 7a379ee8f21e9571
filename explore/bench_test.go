package explore_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/cli"
	"github.com/polyproxy/polyproxy/explore"
	"github.com/polyproxy/polyproxy/internal/lichessgames"
)

// benchGames is how many lichess-style games make the benchmarks' book:
// make-book -min-game 1 keeps 10.7 million entries of them (a move is kept
// where its side scored).
const (
	benchGames      = 330_000
	benchMinEntries = 10_000_000
)

var (
	bigOnce sync.Once
	bigPath string
	bigErr  error
)

// bigBook is a book of at least 10 million entries (10,673,388) made by
// make-book from the project's seeded lichess-style games, made once and
// kept in the temporary folder across runs: about ten minutes on two cores
// the first time (run the benchmarks with -timeout 30m).
func bigBook(b *testing.B) string {
	bigOnce.Do(func() {
		bigPath = filepath.Join(os.TempDir(), fmt.Sprintf("polyproxy-explore-bench-%d.bin", benchGames))
		if st, err := os.Stat(bigPath); err == nil && st.Size() >= benchMinEntries*polyglot.EntrySize {
			return
		}
		pgn := bigPath + ".pgn"
		defer os.Remove(pgn)
		f, err := os.Create(pgn)
		if err == nil {
			err = lichessgames.Write(f, lichessgames.Options{Seed: 2026, Games: benchGames})
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			bigErr = err
			return
		}
		var out, errb bytes.Buffer
		if code := cli.Run([]string{"make-book", "-pgn", pgn, "-bin", bigPath, "-min-game", "1"}, nil, &out, &errb); code != 0 {
			bigErr = fmt.Errorf("make-book: %s", errb.String())
			return
		}
		if st, err := os.Stat(bigPath); err != nil || st.Size() < benchMinEntries*polyglot.EntrySize {
			bigErr = fmt.Errorf("%s: %v entries, want %d: %v", bigPath, st.Size()/polyglot.EntrySize, benchMinEntries, err)
		}
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigPath
}

// BenchmarkOpen10M: opening the 10-million-entry book for the page costs
// what probe's opening costs (probe -json on the start position, the whole
// command, beside it).
func BenchmarkOpen10M(b *testing.B) {
	path := bigBook(b)
	b.Run("explore", func(b *testing.B) {
		for b.Loop() {
			s, err := explore.New(books(path))
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	})
	b.Run("probe", func(b *testing.B) {
		for b.Loop() {
			if code := cli.Run([]string{"probe", "-json", "-book", path}, nil, io.Discard, io.Discard); code != 0 {
				b.Fatal("probe failed")
			}
		}
	})
}

// BenchmarkPosition10M: the server's answer to /api/position on the
// 10-million-entry book, for positions along lines of the book up to 30
// plies long (each answer reports the position, the moves after each book
// move, and the book along the whole line).
func BenchmarkPosition10M(b *testing.B) {
	path := bigBook(b)
	srv, err := explore.New(books(path))
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	const addr = "127.0.0.1:1"
	h := srv.Handler(addr)
	ask := func(moves []string) explore.Position {
		req := httptest.NewRequest("GET", "/api/position?moves="+strings.Join(moves, ","), nil)
		req.Host = addr
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var p explore.Position
		if rec.Code != 200 {
			b.Fatalf("%v: %d %s", moves, rec.Code, rec.Body)
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
			b.Fatal(err)
		}
		return p
	}
	// Lines the book follows: a random book move at each ply.
	rng := rand.New(rand.NewPCG(1, 2))
	var lines [][]string
	for len(lines) < 50 {
		var moves []string
		for len(moves) < 30 {
			p := ask(moves)
			var in []string
			for _, e := range p.Columns[0].Report.Entries {
				if e.Legal && e.Weight > 0 {
					in = append(in, e.Move)
				}
			}
			if len(in) == 0 {
				break
			}
			moves = append(moves, in[rng.IntN(len(in))])
			lines = append(lines, append([]string(nil), moves...))
		}
	}
	entries := 0
	for _, l := range lines {
		entries += len(ask(l).Columns[0].Report.Entries)
	}
	b.ReportMetric(float64(entries)/float64(len(lines)), "entries/position")
	b.ResetTimer()
	i := 0
	for b.Loop() {
		req := httptest.NewRequest("GET", "/api/position?moves="+strings.Join(lines[i%len(lines)], ","), nil)
		req.Host = addr
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
		i++
	}
}
