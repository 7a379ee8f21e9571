package ctg_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
)

// fuzzPositions are what each fuzzed book is asked about: the start
// position and positions of the hand-made books (mirrored, turned over,
// en passant, promotions).
var fuzzPositions = []string{
	board.StartFEN,
	"r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R b KQkq - 0 8",
	"4k3/pp3ppp/8/3n4/8/2N5/PP3PPP/3K4 w - - 0 20",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"1k6/8/8/8/3Pp3/8/8/6K1 b - d3 0 2",
	"r1b1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
	"4k3/8/8/8/8/8/8/Q3K2Q w - - 0 1",
}

// FuzzReader opens arbitrary bytes as a CTG book's three files: opening
// fails only for a .ctb too short for its bounds, nothing panics, every
// move offered is legal where it is offered, weights are finite and not
// negative, and each problem is reported once.
func FuzzReader(f *testing.F) {
	for _, name := range []string{"mirror", "enpassant", "promotions"} {
		var files [3][]byte
		for i, ext := range []string{".ctg", ".cto", ".ctb"} {
			data, err := os.ReadFile(filepath.Join("testdata", name+ext))
			if err != nil {
				f.Fatal(err)
			}
			files[i] = data
		}
		f.Add(files[0], files[1], files[2])
	}
	f.Add([]byte{}, []byte{}, []byte{})
	var positions []*board.Position
	for _, fen := range fuzzPositions {
		p, err := board.ParseFEN(fen)
		if err != nil {
			f.Fatal(err)
		}
		positions = append(positions, p)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, ctgData, ctoData, ctbData []byte) {
		base := filepath.Join(dir, "fuzz")
		for _, w := range []struct {
			ext  string
			data []byte
		}{{".ctg", ctgData}, {".cto", ctoData}, {".ctb", ctbData}} {
			if err := os.WriteFile(base+w.ext, w.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b, err := ctg.Open(base + ".ctg")
		if err != nil {
			if len(ctbData) >= 12 {
				t.Fatal(err)
			}
			return
		}
		defer b.Close()
		for _, p := range positions {
			for _, opt := range settings {
				e, err := b.Probe(p, opt)
				if err != nil {
					t.Fatal(err)
				}
				if e == nil {
					continue
				}
				for _, m := range e.Moves {
					if _, err := p.LegalMove(m.Move); err != nil {
						t.Fatalf("%s offered in %s: %v", m.Move, p.FEN(), err)
					}
					if m.Weight < 0 || math.IsNaN(m.Weight) || math.IsInf(m.Weight, 0) {
						t.Fatalf("%s in %s: weight %v", m.Move, p.FEN(), m.Weight)
					}
				}
			}
		}
		seen := map[string]bool{}
		for _, p := range b.Problems() {
			if seen[p.Error()] {
				t.Fatalf("reported twice: %v", p)
			}
			seen[p.Error()] = true
		}
	})
}
