package book

import (
	"slices"
	"sort"

	"github.com/polyproxy/polyproxy/book/board"
)

// memory is a table held in memory.
type memory []Entry

// Memory is a table of entries held in memory: what a format whose files
// are no table of entries (ABK's tree, CTG read whole) reads its books
// into. The entries are sorted here as a book file is (CompareEntries),
// and the table's from now on.
func Memory(entries []Entry) Table {
	if !slices.IsSortedFunc(entries, CompareEntries) {
		slices.SortStableFunc(entries, CompareEntries)
	}
	return memory(entries)
}

// FromEntries is a book of entries held in memory, named name, made by a
// tool rather than read (it has no format): what a book made in memory is
// written from. Entries whose keys are in order keep their order, as a
// writer must write them; others are sorted as a book file is.
func FromEntries(name string, entries []Entry) *Book {
	es := slices.Clone(entries)
	if !slices.IsSortedFunc(es, func(x, y Entry) int { return compareKeys(x.Key, y.Key) }) {
		slices.SortStableFunc(es, CompareEntries)
	}
	return New(name, nil, memory(es), nil, nil)
}

func compareKeys(x, y board.Key) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func (m memory) Len() int           { return len(m) }
func (m memory) Entry(i int) Entry  { return m[i] }
func (m memory) Warnings() []string { return nil }
func (m memory) Close() error       { return nil }

// first is the index of the first entry with key k or above.
func (m memory) first(k board.Key) int {
	return sort.Search(len(m), func(i int) bool { return m[i].Key >= k })
}

func (m memory) Find(k board.Key, buf []Found) []Found {
	first := m.first(k)
	end := first
	for end < len(m) && m[end].Key == k {
		end++
	}
	buf = slices.Grow(buf, end-first)
	for i := first; i < end; i++ {
		buf = append(buf, Found{i, m[i]})
	}
	return buf
}

func (m memory) Probe(pos board.Position, buf []Found) ([]Found, error) {
	return m.Find(pos.Key(), buf), nil
}
