package learn

import (
	"bytes"
	"os"
	"testing"

	"github.com/polyproxy/polyproxy/book"
)

// first10000Games returns the start of a real 34,700-game PGN, cut after
// its 10,000th game.
func first10000Games(b *testing.B) []byte {
	data, err := os.ReadFile("../../shared/pgn/8moves_v3.pgn")
	if err != nil {
		b.Skipf("PGN not available: %v", err)
	}
	n, off := 0, 0
	for {
		i := bytes.Index(data[off:], []byte("[Event "))
		if i < 0 {
			b.Fatalf("only %d games", n)
		}
		if n == 10000 {
			return data[:off+i]
		}
		n++
		off += i + 1
	}
}

// BenchmarkLearnPGN10000 is `polyproxy learn` on 10,000 real games: read,
// replay, look up every ply of the player (Stockfish plays both sides, so
// every ply) in a real book, and apply the updates.
func BenchmarkLearnPGN10000(b *testing.B) {
	pgn := first10000Games(b)
	path := copyBook(b, "/usr/share/games/gnuchess/book.bin")
	bk, err := book.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	f, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		updates, st, err := FromPGN(bytes.NewReader(pgn), bk, "Stockfish", nil)
		if err != nil {
			b.Fatal(err)
		}
		if st.Games != 10000 || len(updates) == 0 {
			b.Fatalf("%+v, %d updates", st, len(updates))
		}
		changes, err := f.Apply(updates)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(updates)), "updates")
		b.ReportMetric(float64(len(changes)), "entries")
	}
}
