package polyglot

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/book"
)

// TestHeaderEntriesFor writes headers into books and reads them back.
func TestHeaderEntriesFor(t *testing.T) {
	for _, tc := range []struct {
		variants []string
		comment  string
	}{
		{[]string{VariantChess960}, "made by polyproxy make-book"},
		{[]string{VariantNormal, VariantChess960}, ""},
		{[]string{VariantNormal}, "1234567"},
	} {
		path := filepath.Join(t.TempDir(), "h.bin")
		entries := append(HeaderEntriesFor(tc.variants, tc.comment), book.Entry{Key: 5, Move: 1, Weight: 1})
		if err := WriteFile(path, entries); err != nil {
			t.Fatal(err)
		}
		b, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		h, err := ReadHeader(b)
		b.Close()
		if err != nil || h == nil {
			t.Fatalf("%v: header %v, %v", tc.variants, h, err)
		}
		if h.Version != "1.0" || !slices.Equal(h.Variants, tc.variants) || h.Comment != tc.comment || h.Entries != len(entries)-1 {
			t.Fatalf("%v %q: read back %+v", tc.variants, tc.comment, h)
		}
		if h.Chess960() != slices.Contains(tc.variants, VariantChess960) {
			t.Fatalf("%v: Chess960() = %v", tc.variants, h.Chess960())
		}
	}
}
