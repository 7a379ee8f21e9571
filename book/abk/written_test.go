package abk_test

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

var updateABK = flag.Bool("update-abk", false, "rewrite the ABK books polyproxy's writer makes in testdata/abk (written-*.abk)")

// writtenABK are the ABK books of testdata/abk that polyproxy's writer
// makes, each from its source: DroidFish's oracle tables of them check the
// writer and the reader against an independent reader (see
// TestABKAgainstDroidFish and testdata/abk/README.md).
var writtenABK = []struct {
	name   string
	maxPly int
	source func(t *testing.T) *book.Book
}{
	{"written-gnuchess.abk", 6, func(t *testing.T) *book.Book {
		b, err := polyglot.Open(testenv.GnuchessBook(t))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}},
	{"written-pgn.abk", 8, func(t *testing.T) *book.Book {
		f, err := os.Open("../../testdata/pgn/random.pgn")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		opt := build.DefaultOptions()
		opt.MaxPly, opt.MinGame = 8, 1
		bld := build.NewBuilder(opt)
		if err := bld.AddPGN(f, "random.pgn"); err != nil {
			t.Fatal(err)
		}
		return book.FromEntries("random.pgn", bld.Entries())
	}},
	// Arena's settings and statistics: learned games below the chance.
	{"written-small.abk", 40, func(t *testing.T) *book.Book {
		b, err := abk.Open("testdata/small.abk")
		if err != nil {
			t.Fatal(err)
		}
		return b
	}},
}

// TestABKWrittenUpToDate: the written-*.abk books are what the writer
// makes of their sources today, so that their oracle tables speak of the
// writer as it is. -update-abk rewrites them (then remake their tables
// with oracle.sh).
func TestABKWrittenUpToDate(t *testing.T) {
	for _, w := range writtenABK {
		t.Run(w.name, func(t *testing.T) {
			src := w.source(t)
			defer src.Close()
			tmp := filepath.Join(t.TempDir(), w.name)
			if _, err := abk.Write(tmp, src, w.maxPly); err != nil {
				t.Fatal(err)
			}
			made := readFile(t, tmp)
			path := filepath.Join("testdata", w.name)
			if *updateABK {
				if err := os.WriteFile(path, made, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(readFile(t, path), made) {
				t.Errorf("%s is not what the writer makes today: go test ./book/abk -run TestABKWrittenUpToDate -update-abk, then remake its oracle table (testdata/README.md)", path)
			}
		})
	}
}

// TestWrittenABKPlaysAsItsSourceInDroidFish: on every position DroidFish's
// reader walks in the books the writer made (its oracle tables), it plays
// each move with the chance the source book gives it under the proxy's
// default threshold, to within chanceBound; the moves below the threshold
// never. A position whose moves hang under another line (a
// transposition: DroidFish follows the line played) offers nothing there
// and is counted apart.
func TestWrittenABKPlaysAsItsSourceInDroidFish(t *testing.T) {
	for _, w := range writtenABK {
		t.Run(w.name, func(t *testing.T) {
			src := w.source(t)
			defer src.Close()
			agree, elsewhere := 0, 0
			var most float64
			for _, l := range readOracle(t, filepath.Join("testdata", strings.TrimSuffix(w.name, ".abk")+".oracle.txt")) {
				pos := playable(l.moves)
				if pos == nil {
					t.Fatalf("the table walks an illegal line %q", l.moves)
				}
				want := chancesAt(src, pos)
				if len(l.offers) == 0 {
					if len(want) > 0 && len(strings.Fields(l.moves)) < w.maxPly {
						elsewhere++
					}
					continue
				}
				got := droidFishPlays(pos, l.offers)
				for m, c := range want {
					d := math.Abs(got[m.String()] - c)
					most = max(most, d)
					if d > chanceBound(len(want)) {
						t.Errorf("after %q: DroidFish plays %s %.6f of the time, the source %.6f", l.moves, m, got[m.String()], c)
					}
				}
				for m := range got {
					mv, _ := board.ParseMove(m)
					if want[mv] == 0 {
						t.Errorf("after %q: DroidFish plays %s, which the source never plays", l.moves, m)
					}
				}
				agree++
			}
			if agree < 30 {
				t.Errorf("%d positions compared", agree)
			}
			t.Logf("%d positions with the source's chances in DroidFish (largest change %.2g), %d whose moves hang under another line", agree, most, elsewhere)
		})
	}
}
