package polyglot_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// FuzzReader opens arbitrary bytes as a book: nothing may panic, and every
// probe must stay inside the file.
func FuzzReader(f *testing.F) {
	for _, data := range fixture.Files(f) {
		f.Add(data)
	}
	f.Add(fixture.HeaderBytes("@PG@\n1.0\n99\n"))
	f.Add([]byte{0, 0, 0})
	dir := f.TempDir()
	start := fixture.Line(f, board.StartFEN, "")
	c := book.NewChooser(fixture.PolyGlotOptions, 1)
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.bin")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := polyglot.Open(path)
		if err != nil {
			t.Fatal(err) // any bytes are a book, possibly with warnings
		}
		defer b.Close()
		if b.Len() != len(data)/polyglot.EntrySize {
			t.Fatalf("len %d for %d bytes", b.Len(), len(data))
		}
		polyglot.ReadHeader(b)
		if _, err := polyglot.Scan(b); err != nil {
			t.Fatal(err)
		}
		b.Verify()
		keys := []board.Key{start.Pos.Key(), 0, ^board.Key(0)}
		for i := 0; i < b.Len() && i < 8; i++ {
			keys = append(keys, b.Entry(i).Key)
		}
		for _, k := range keys {
			first, n := polyglot.Lookup(b, k)
			if n < 0 || first < 0 || first+n > b.Len() {
				t.Fatalf("Lookup(%s) = %d, %d of %d", k, first, n, b.Len())
			}
		}
		c.Choose(book.Both(b), book.Game{Line: start})
		c.BestReply([]*book.Book{b}, &start.Pos)
		// Positions from the file's own moves, played from the start.
		for i := 0; i < b.Len() && i < 8; i++ {
			p := start.Pos
			p.Play(b.Entry(i).Move)
			c.Candidates(b, &p, nil)
		}
	})
}
