package book

import "github.com/polyproxy/polyproxy/book/board"

// What the tests of package book_test need of the package's insides.

// AppendEntry appends e's 16 bytes to b.
func AppendEntry(b []byte, e Entry) []byte {
	var buf [EntrySize]byte
	e.Encode(buf[:])
	return append(b, buf[:]...)
}

var (
	AboveThreshold = aboveThreshold
	ParseHeader    = parseHeader
	ErrShrunk      = errShrunk
	WriteFileFrom  = writeFileFrom
)

// LowerBound is the index of the first entry with a key >= k.
func (b *Book) LowerBound(k board.Key) int { return b.lowerBound(k) }

// IndexOf returns the index and learn field of the first entry (k, m).
func (b *Book) IndexOf(k board.Key, m board.Move) (int, Learn, error) { return b.indexOf(k, m) }

// LineBudget is how many positions a look-ahead visits at most.
const LineBudget = lineBudget

// Visited is how many positions the last measure visited.
func (l *Lookahead) Visited() int { return l.visited }

// Cached is how many positions the look-ahead's cache holds.
func (l *Lookahead) Cached() int { return len(l.cache) }
