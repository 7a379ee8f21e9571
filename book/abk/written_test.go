package abk_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
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
				t.Errorf("%s is not what the writer makes today: go test ./book -run TestABKWrittenUpToDate -update-abk, then remake its oracle table (testdata/abk/README.md)", path)
			}
		})
	}
}
