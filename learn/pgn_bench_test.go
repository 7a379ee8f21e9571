package learn

import (
	"bytes"
	"testing"

	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// BenchmarkLearnPGN10000 is `polyproxy learn` on 10,000 games through a
// real book (gnuchess): read, replay, look up every ply of the player
// (who plays both sides, so every ply) and apply the updates.
func BenchmarkLearnPGN10000(b *testing.B) {
	path := fixture.CopyFile(b, testenv.GnuchessBook(b))
	bk, err := formats.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer bk.Close()
	pgn := fixture.BookGames(bk, 10000, "Stockfish", 1)
	f, err := formats.OpenLearnFile(path)
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
		changes, err := f.Apply(b.Context(), updates)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(updates)), "updates")
		b.ReportMetric(float64(len(changes)), "entries")
	}
}
