package polyglot

import (
	"os"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// What the tests of package polyglot_test need of the package's insides.

var (
	ParseHeader = parseHeader
	ErrShrunk   = errShrunk
)

// tableOf is the Polyglot file b was opened from.
func tableOf(b *book.Book) *table { return b.Source().(*table) }

// Lookup returns the index of the first entry of b with key k and how
// many follow with it, by search.
func Lookup(b *book.Book, k board.Key) (first, count int) {
	tableOf(b).guard(func() { first, count = tableOf(b).lookup(k) })
	return first, count
}

// LowerBound is the index of the first entry of b with a key >= k.
func LowerBound(b *book.Book, k board.Key) int { return tableOf(b).lowerBound(k) }

// IndexOf returns the index and learn field of the first entry (k, m) of
// b.
func IndexOf(b *book.Book, k board.Key, m board.Move) (int, book.Learn, error) {
	return tableOf(b).indexOf(k, m)
}

// SetAfterLookup has every edit run f where it has found its position
// and not yet read its entries, until the test ends.
func SetAfterLookup(t interface{ Cleanup(func()) }, f func(*os.File)) {
	afterLookup = f
	t.Cleanup(func() { afterLookup = nil })
}
