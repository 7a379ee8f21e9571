package polyglot_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

const benchEntries = 10_000_000

var (
	benchOnce sync.Once
	benchPath string
	benchKeys []board.Key // a sample of keys present in the book
	benchErr  error
)

// benchBook generates (once per process, and reused from the temp dir
// across runs) a sorted book of 10 million entries, ~160 MB, written
// sequentially. Only benchmarks call it, so plain go test never pays.
func benchBook(b *testing.B) (string, []board.Key) {
	benchOnce.Do(func() {
		benchPath = filepath.Join(os.TempDir(), fmt.Sprintf("polyproxy-bench-%d.bin", benchEntries))
		rng := rand.New(rand.NewPCG(1, 2))
		// Keys rise by random steps averaging 2^64/10M*2.5 so that about
		// 2.5 entries share a key and the keys span the whole range.
		step := ^uint64(0) / benchEntries * 2
		var w *bufio.Writer
		var f *os.File
		if st, err := os.Stat(benchPath); err != nil || st.Size() != benchEntries*polyglot.EntrySize {
			if f, benchErr = os.Create(benchPath); benchErr != nil {
				return
			}
			w = bufio.NewWriterSize(f, 1<<20)
		}
		var buf [polyglot.EntrySize]byte
		key := uint64(1)
		for i := 0; i < benchEntries; {
			key += 1 + rng.Uint64N(step)
			n := 1 + rng.IntN(4)
			for j := 0; j < n && i < benchEntries; j++ {
				// Drawn whether written or not: the keys sampled from a
				// file reused are then the keys it holds.
				e := book.Entry{Key: board.Key(key), Move: board.Move(1 + rng.IntN(4095)), Weight: uint16(rng.IntN(1000))}
				if w != nil {
					polyglot.PutEntry(buf[:], e)
					w.Write(buf[:])
				}
				i++
			}
			if i%1000 < n {
				benchKeys = append(benchKeys, board.Key(key))
			}
		}
		if w != nil {
			if benchErr = w.Flush(); benchErr == nil {
				benchErr = f.Close()
			}
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchPath, benchKeys
}

// A middlegame position with castling rights and an en-passant chance.
const benchFEN = "r1bqk2r/pp2bppp/2n1pn2/2ppP3/3P4/2PB1N2/PP3PPP/RNBQK2R w KQkq d6 0 7"

func BenchmarkKeyFromScratch(b *testing.B) {
	p, err := board.ParseFEN(benchFEN)
	if err != nil {
		b.Fatal(err)
	}
	var k board.Key
	for b.Loop() {
		k ^= p.ComputeKey()
	}
	_ = k
}

func BenchmarkPlayIncremental(b *testing.B) {
	// A real opening with castling, captures and a double push, replayed
	// from a copy of the start position: cost per move.
	var moves []board.Move
	for _, s := range strings.Fields("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7 d1d2 e8g8 e1c1 b8d7") {
		m, _ := board.ParseMove(s)
		moves = append(moves, m)
	}
	start := *board.StartPosition()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := start
		for _, m := range moves {
			p.Play(m)
		}
		if i == 0 && p.Key() != p.ComputeKey() {
			b.Fatal("key mismatch")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(moves)), "ns/move")
}

func BenchmarkOpen10M(b *testing.B) {
	path, _ := benchBook(b)
	for b.Loop() {
		bk, err := polyglot.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if bk.Len() != benchEntries {
			b.Fatal(bk.Len())
		}
		bk.Close()
	}
}

func BenchmarkProbe10M(b *testing.B) {
	path, keys := benchBook(b)
	bk, err := polyglot.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	found := 0
	for b.Loop() {
		k := keys[rng.IntN(len(keys))]
		if rng.IntN(2) == 0 {
			k = board.Key(rng.Uint64()) // usually absent
		}
		found += len(bk.Entries(k))
	}
	_ = found
}

// statm returns resident and shared (file-backed) pages of this process.
func statm(b *testing.B) (resident, shared int64) {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		b.Skip("no /proc/self/statm")
	}
	f := strings.Fields(string(data))
	resident, _ = strconv.ParseInt(f[1], 10, 64)
	shared, _ = strconv.ParseInt(f[2], 10, 64)
	return
}

// BenchmarkRSS10M reports how resident memory changes over 100,000 random
// probes of the 10M-entry book: private (anonymous) memory must stay flat;
// file pages touched by the binary searches are page cache the kernel can
// drop at any time.
func BenchmarkRSS10M(b *testing.B) {
	path, keys := benchBook(b)
	page := int64(os.Getpagesize())
	for b.Loop() {
		bk, err := polyglot.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		r0, s0 := statm(b)
		rng := rand.New(rand.NewPCG(5, 6))
		for i := 0; i < 100_000; i++ {
			bk.Each(keys[rng.IntN(len(keys))], func(int, book.Entry) {})
		}
		r1, s1 := statm(b)
		bk.Close()
		b.ReportMetric(float64((r1-s1)-(r0-s0))*float64(page)/1024, "private-KB-growth")
		b.ReportMetric(float64(s1-s0)*float64(page)/(1<<20), "file-MB-touched")
	}
}
