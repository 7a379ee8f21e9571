package polyglot

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// Edit changes a Polyglot book's entry (see book.LearnFile.Edit): a
// change that keeps the position's entries in their order is written in
// place, aligned 2-byte weights as a learn field is; any other change (an
// entry added, removed or moved within its position) rewrites the book
// while the lock on the old file is held. The book stays sorted with every
// weight above 0. The undo puts back the position's entries as they were,
// in their order (ties included), with the learn fields they have then.
func (format) Edit(file *os.File, size int64, e book.Edit, rewrite func(write func(io.Writer) error) error) (book.Edit, error) {
	path := file.Name()
	switch e.Kind {
	case book.EditWeight, book.EditDelete, book.EditAdd, book.EditRestore:
	default:
		return book.Edit{}, book.EditErrorf("a Polyglot book's moves have a weight, no fields of their own")
	}
	if (e.Kind == book.EditWeight || e.Kind == book.EditAdd) && e.Weight == 0 {
		return book.Edit{}, book.EditErrorf("weight 0 is a move never played: delete the move instead")
	}
	view, release, err := editView(file, path, size)
	if err != nil {
		return book.Edit{}, fmt.Errorf("edit %s: %w", path, err)
	}
	defer release()
	var (
		first    int
		group    []book.Entry
		unsorted bool
	)
	// Every read of the mapping is guarded: a file truncated under it (by
	// a program that takes no lock) faults, and the edit fails.
	if err := view.guard(func() {
		var count int
		first, count = view.lookup(e.Pos.Key())
		unsorted = view.verify() != nil
		if afterLookup != nil {
			afterLookup(file)
		}
		group = make([]book.Entry, count)
		for i := range group {
			group[i] = view.Entry(first + i)
		}
	}); err != nil {
		return book.Edit{}, cutShort(path, err)
	}
	if unsorted {
		return book.Edit{}, book.EditErrorf("%s is not sorted: sort it first (merge-book or convert-book write it sorted)", path)
	}
	after, err := edited(group, e)
	if err != nil {
		return book.Edit{}, err
	}
	undo := book.Edit{Kind: book.EditRestore, Pos: e.Pos, Move: e.Move, Restore: groupChange{before: group, after: after}}
	if slices.Equal(moveOrder(after), moveOrder(group)) {
		for i := range after {
			if after[i].Weight == group[i].Weight {
				continue
			}
			if err := writeWeight(file, first+i, after[i].Weight); err != nil {
				return book.Edit{}, fmt.Errorf("edit %s: write entry %d: %w", path, first+i, err)
			}
		}
		return undo, nil
	}
	var werr error
	gerr := view.guard(func() {
		werr = rewrite(func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 1<<20)
			bw.Write(view.data[:first*EntrySize])
			var buf [EntrySize]byte
			for _, a := range after {
				PutEntry(buf[:], a)
				bw.Write(buf[:])
			}
			bw.Write(view.mapping[(first+len(group))*EntrySize:]) // the rest, and a ragged tail as it was
			if err := bw.Flush(); err != nil {
				return fmt.Errorf("edit %s: %w", path, err)
			}
			return nil
		})
	})
	if gerr != nil {
		return book.Edit{}, cutShort(path, gerr)
	}
	if werr != nil {
		return book.Edit{}, werr
	}
	return undo, nil
}

// cutShort is the error of an edit whose book another program cut short
// while it read it (err, the guard's).
func cutShort(path string, err error) error {
	return fmt.Errorf("edit %s: %w: it was cut short while read (%v): nothing written", path, book.ErrBookChanged, err)
}

// afterLookup, set by the tests, runs where an edit has found its
// position and not yet read its entries.
var afterLookup func(*os.File)

// groupChange is what undoes a Polyglot edit: the position's entries
// before it and after it, in the file's order.
type groupChange struct {
	before, after []book.Entry
}

// editView is the Polyglot book file as Edit reads it, under its lock:
// mapped, or read into memory where a mapped view would keep the rewrite
// from replacing the file. release lets it go.
func editView(file *os.File, path string, size int64) (view *table, release func(), err error) {
	if book.OpenFilesBlockReplace {
		data, err := readWhole(file, size)
		if err != nil {
			return nil, nil, err
		}
		return &table{path: path, mapping: data, data: data[:size-size%EntrySize]}, func() {}, nil
	}
	if view, err = mapLocked(file, path, size); err != nil {
		return nil, nil, err
	}
	return view, view.unmap, nil
}

// edited is a position's entries group after e, in the file's order.
// The move is matched as every reader matches it (board.Stores).
func edited(group []book.Entry, e book.Edit) ([]book.Entry, error) {
	at := slices.IndexFunc(group, func(g book.Entry) bool { return e.Pos.Stores(g.Move, e.Move) })
	var after []book.Entry
	switch e.Kind {
	case book.EditRestore:
		return restored(group, e)
	case book.EditAdd:
		if at >= 0 {
			return nil, book.EditErrorf("%s is in the book already", e.Move)
		}
		if _, err := e.Pos.LegalMove(e.Move); err != nil {
			return nil, book.EditErrorf("%v", err)
		}
		after = append(slices.Clone(group), book.Entry{Key: e.Pos.Key(), Move: e.Pos.ToBook(e.Move), Weight: e.Weight, Learn: e.Learn})
	case book.EditDelete:
		if at < 0 {
			return nil, book.EditErrorf("%s is not in the book", e.Move)
		}
		after = slices.Delete(slices.Clone(group), at, at+1)
	case book.EditWeight:
		if at < 0 {
			return nil, book.EditErrorf("%s is not in the book", e.Move)
		}
		after = slices.Clone(group)
		after[at].Weight = e.Weight
	}
	// The file's order: weights descending within the key, ties as they were.
	slices.SortStableFunc(after, book.CompareEntries)
	return after, nil
}

// restored is the position's entries with the edit that e undoes taken
// back: the entries as they were before it, in their order, when they
// are now as it left them; else, when its move is still as it left it,
// that move alone put back as it was (the others as they are now). Learn
// fields stay as they are now: games learned since stay counted. A move
// changed since cannot be undone.
func restored(group []book.Entry, e book.Edit) ([]book.Entry, error) {
	c, ok := e.Restore.(groupChange)
	if !ok {
		return nil, book.EditErrorf("nothing a Polyglot book can restore")
	}
	same := func(a, b book.Entry) bool { return a.Key == b.Key && a.Move == b.Move && a.Weight == b.Weight }
	learned := make(map[board.Move]book.Learn, len(group))
	for _, g := range group {
		learned[g.Move] = g.Learn
	}
	if slices.EqualFunc(group, c.after, same) {
		out := slices.Clone(c.before)
		for i := range out {
			if l, ok := learned[out[i].Move]; ok {
				out[i].Learn = l
			}
		}
		return out, nil
	}
	of := func(es []book.Entry) int {
		return slices.IndexFunc(es, func(g book.Entry) bool { return e.Pos.Stores(g.Move, e.Move) })
	}
	was, left, now := of(c.before), of(c.after), of(group)
	if (left < 0) != (now < 0) || (now >= 0 && group[now].Weight != c.after[left].Weight) {
		return nil, book.EditErrorf("%s changed since (another program edited the book): this change can no longer be undone", e.Move)
	}
	out := slices.Clone(group)
	if now >= 0 {
		out = slices.Delete(out, now, now+1)
	}
	if was >= 0 {
		put := c.before[was]
		if now >= 0 {
			put.Learn = group[now].Learn
		}
		out = slices.Insert(out, min(was, len(out)), put)
	}
	slices.SortStableFunc(out, book.CompareEntries)
	return out, nil
}

func moveOrder(entries []book.Entry) []board.Move {
	out := make([]board.Move, len(entries))
	for i, e := range entries {
		out[i] = e.Move
	}
	return out
}

// writeWeight writes the 2 weight bytes of entry i and nothing else: an
// aligned write inside one entry, seen whole or not at all (as
// writeLearn's).
func writeWeight(f *os.File, i int, w uint16) error {
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], w)
	n, err := f.WriteAt(b[:], int64(i)*EntrySize+weightOffset)
	if err == nil && n != len(b) {
		err = io.ErrShortWrite
	}
	return err
}
