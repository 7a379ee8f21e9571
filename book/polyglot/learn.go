package polyglot

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// entryID is an entry of a book: its key and move as stored.
type entryID struct {
	key  board.Key
	move board.Move
}

// Learn counts updates into the learn fields of a Polyglot book: an
// update's entry is the first of its key and move, found by the search the
// book's reader makes on a mapping of the file as it is now.
// Updates of the same entry are combined in their order, so a batch costs
// one read and one write per distinct entry.
func (format) Learn(file *os.File, size int64, updates []book.LearnUpdate, write bool) ([]book.LearnChange, error) {
	path := file.Name()
	groups := make(map[entryID]int, len(updates))
	changes := make([]book.LearnChange, 0, len(updates))
	for _, u := range updates {
		id := entryID{u.Key, u.Move}
		if _, ok := groups[id]; !ok {
			groups[id] = len(changes)
			changes = append(changes, book.LearnChange{Key: u.Key, Move: u.Move, Index: -1})
		}
	}
	view, err := mapLocked(file, path, size)
	if err != nil {
		return nil, fmt.Errorf("learn %s: %w", path, err)
	}
	defer view.unmap()
	for i := range changes {
		c := &changes[i]
		idx, learn, err := view.indexOf(c.Key, c.Move)
		if err != nil {
			return nil, fmt.Errorf("learn: %w", err) // it names the book
		}
		c.Index = idx
		c.Before, c.After = learn, learn
	}
	for _, u := range updates {
		c := &changes[groups[entryID{u.Key, u.Move}]]
		if c.Found() {
			c.After = c.After.Add(u.Result)
			c.Results++
		}
	}
	if !write {
		return changes, nil
	}
	for i := range changes {
		c := &changes[i]
		if !c.Found() || c.After == c.Before {
			continue
		}
		if err := writeLearn(file, c.Index, c.After); err != nil {
			return changes, book.Unwritten(changes, i, fmt.Errorf("learn %s: write entry %d: %w", path, c.Index, err))
		}
	}
	return changes, nil
}

// writeLearn writes the 4 learn bytes of entry i and nothing else.
//
// Crash safety: the write is one pwrite of the 4 bytes at learnOffset in
// entry i, an offset that is a multiple of 4, so it never straddles a page (4096) or a disk sector (512
// or 4096), all multiples of 4. The kernel copies it into a single page
// cache page under that page's lock, so other processes see old or new
// bytes, never a mix, and the disk writes whole sectors atomically, so
// after a power loss the field is the old or the new value. Since no other
// byte is written, an entry can only ever be as before or as after.
func writeLearn(f *os.File, i int, v book.Learn) error {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(v))
	n, err := f.WriteAt(b[:], int64(i)*EntrySize+learnOffset)
	if err == nil && n != len(b) {
		err = io.ErrShortWrite
	}
	return err
}

// mapLocked maps the locked file as it is now, for searching: a fresh
// mapping of the descriptor under the lock, so no index is ever
// remembered from before (a stale one could hit the wrong entry). It is
// coherent with the writes made through the descriptor.
func mapLocked(f *os.File, path string, size int64) (*table, error) {
	if int64(int(size)) != size {
		return nil, fmt.Errorf("%d bytes is too large to map on this platform", size)
	}
	m, err := mapFile(f, size)
	if err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	return &table{path: path, mapping: m, data: m[:size-size%EntrySize]}, nil
}

// unmap releases a mapping made by mapLocked (its file is not the table's
// to close).
func (t *table) unmap() {
	unmapFile(t.mapping)
	t.mapping, t.data = nil, nil
}

// indexOf returns the index and learn field of the first entry (k, m), or
// -1. An unsorted book (which a Book still reads exactly) can hide
// entries from the key search, so a miss is confirmed by reading the
// whole file.
func (t *table) indexOf(k board.Key, m board.Move) (idx int, l book.Learn, err error) {
	idx = -1
	if k == 0 {
		return idx, 0, nil // header entries
	}
	err = t.guard(func() {
		first, count := t.lookup(k)
		for i := first; i < first+count; i++ {
			if e := t.Entry(i); e.Move == m {
				idx, l = i, e.Learn
				return
			}
		}
		for i, n := 0, t.Len(); i < n; i++ {
			if t.keyAt(i) == k {
				if e := t.Entry(i); e.Move == m {
					idx, l = i, e.Learn
					return
				}
			}
		}
	})
	return idx, l, err
}
