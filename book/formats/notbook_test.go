package formats_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/build"
	"github.com/polyproxy/polyproxy/book/formats"
)

// A file given as a book that is none (a PGN, positions, a text book, an
// ini, a counts file, a compressed file) is told by its content, whatever
// its name, and the error says what it is and what to do; a PGN read as a
// Polyglot book gave 30 entries of nonsense and no word.
func TestNotABook(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("[Event \"x\"]\n\n1. e4 e5 1-0\n"))
	zw.Close()
	pgn := "[Event \"Casual\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n"
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content, what, do string
	}{
		{"games.pgn", pgn, "holds PGN games", "polyproxy make-book -pgn %s -bin book.bin"},
		{"games.bin", pgn, "holds PGN games", "polyproxy make-book -pgn %s -bin book.bin"},
		// A size of whole entries, keys in order: text is no book all the same.
		{"sixteen.bin", "1. e4 e5 2. Nf3 ", "holds PGN games", "make-book -pgn"},
		{"moves.pgn", "1.e4 c5 2.Nf3 d6 *\n", "holds PGN games", "make-book -pgn"},
		{"suite.epd", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n", "holds positions (EPD or FEN)", "probe -fen"},
		{"lines.txt", "# my repertoire\ne2e4 e7e5 g1f3 (Italian)\nd2d4 d7d5\n", "is a text book (lines of moves)", "polyproxy compile-book -txt %s -bin book.bin"},
		{"polyglot.ini", "[PolyGlot]\nEngineCommand = stockfish\nBookFile = book.bin\n", "is an ini file (settings)", "BookFile"},
		{"notes.bin", "Just some notes.\n", "is a text file", "make-book -pgn"},
		{"all.counts", "PGCOUNTS\x01\x00\x00\x00", "is a counts file (make-book -counts)", "polyproxy make-book -from-counts %s -bin book.bin"},
		{"games.pgn.gz", gz.String(), "is a compressed (gzip) file", "make-book -pgn %s"},
		{"games.zst", "\x28\xb5\x2f\xfd\x00\x01\x02", "is a compressed (zstd) file", "make-book -pgn"},
		{"games.bz2", "BZh91AY&SY\x00\x01", "is a compressed (bzip2) file", "make-book -pgn"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := formats.Open(path)
		var nb *formats.NotABookError
		if !errors.As(err, &nb) || nb.Path != path || nb.What != tc.what {
			t.Errorf("%s: %v; want it to say it %s", tc.name, err, tc.what)
			continue
		}
		do := strings.ReplaceAll(tc.do, "%s", path)
		if !strings.Contains(err.Error(), do) || !strings.HasPrefix(err.Error(), path+" "+tc.what+", not an opening book: ") {
			t.Errorf("%s: %q; want %q after what it is", tc.name, err, do)
		}
	}
}

// Books are books: real ones, and random ones of every size up to a few
// entries, whose first key may begin with any bytes (a compressed file's
// too).
func TestBooksAreNotText(t *testing.T) {
	for _, name := range []string{"empty.bin", "header.bin", "lasker-trap.bin", "oddities.bin", "trailing.bin", "unsorted.bin"} {
		b, err := formats.Open(filepath.Join("..", "..", "testdata", "book", name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		b.Close()
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 200 {
		es := sortedBook(r, 1+i%5, -1, 0)
		if i%2 == 0 {
			for j := range es {
				es[j].Key = es[j].Key&0xffffffffff | 0x1f8b0800<<32 // gzip's start
			}
			slices.SortStableFunc(es, book.CompareEntries)
		}
		path := writeEntries(t, "b.bin", es)
		b, err := formats.Open(path)
		if err != nil {
			t.Fatalf("book %d (%d entries): %v", i, len(es), err)
		}
		b.Close()
	}
}

// The file errors say what is wrong in words, and still wrap the system's
// error.
func TestOpenFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nothere.bin")
	_, err := formats.Open(missing)
	if err == nil || err.Error() != missing+": no such file" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing book: %v", err)
	}
	if _, err := formats.Open(dir); err == nil || err.Error() != dir+" is a folder, not a book file" {
		t.Errorf("folder: %v", err)
	}
}

// The counts magic here is build's: this package is below build.
func TestCountsMagic(t *testing.T) {
	if formats.CountsMagic != build.CountsMagic {
		t.Errorf("counts magic %q, build writes %q", formats.CountsMagic, build.CountsMagic)
	}
}
