package polyglot

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// Edit changes a Polyglot book's entry (see book.LearnFile.Edit): a
// weight that keeps the position's entries in order is one aligned
// 2-byte write in place, as a learn field is; any other change (an entry
// added, removed or moved within its position) rewrites the book while
// the lock on the old file is held. The book stays sorted with every
// weight above 0.
func (format) Edit(file *os.File, size int64, e book.Edit, rewrite func(write func(io.Writer) error) error) (book.Edit, error) {
	path := file.Name()
	key := e.Pos.Key()
	stored := e.Pos.ToBook(e.Move)
	switch e.Kind {
	case book.EditWeight, book.EditDelete, book.EditAdd:
	default:
		return book.Edit{}, book.EditErrorf("a Polyglot book's moves have a weight, no fields of their own")
	}
	if e.Kind != book.EditDelete && e.Weight == 0 {
		return book.Edit{}, book.EditErrorf("weight 0 is a move never played: delete the move instead")
	}
	view, release, err := editView(file, path, size)
	if err != nil {
		return book.Edit{}, fmt.Errorf("edit %s: %w", path, err)
	}
	defer release()
	var (
		first, count int
		unsorted     bool
	)
	if err := view.guard(func() {
		first, count = view.lookup(key)
		unsorted = view.verify() != nil
	}); err != nil {
		return book.Edit{}, fmt.Errorf("edit: %w", err)
	}
	if unsorted {
		return book.Edit{}, book.EditErrorf("%s is not sorted: sort it first (merge-book or convert-book write it sorted)", path)
	}
	group := make([]book.Entry, count)
	at := -1
	for i := range group {
		group[i] = view.Entry(first + i)
		if group[i].Move == stored && at < 0 {
			at = i
		}
	}
	after, undo, err := edited(group, at, e)
	if err != nil {
		return book.Edit{}, err
	}
	if e.Kind == book.EditWeight && slices.Equal(moveOrder(after), moveOrder(group)) {
		if err := writeWeight(file, first+at, e.Weight); err != nil {
			return book.Edit{}, fmt.Errorf("edit %s: write entry %d: %w", path, first+at, err)
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
			bw.Write(view.mapping[(first+count)*EntrySize:]) // the rest, and a ragged tail as it was
			if err := bw.Flush(); err != nil {
				return fmt.Errorf("edit %s: %w", path, err)
			}
			return nil
		})
	})
	if err := cmp.Or(gerr, werr); err != nil {
		return book.Edit{}, err
	}
	return undo, nil
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

// edited is a position's entries group after e, whose move is group[at]
// (-1: not in the book), in the file's order, and the edit that undoes e.
func edited(group []book.Entry, at int, e book.Edit) (after []book.Entry, undo book.Edit, err error) {
	undo = book.Edit{Pos: e.Pos, Move: e.Move}
	switch e.Kind {
	case book.EditAdd:
		if at >= 0 {
			return nil, book.Edit{}, book.EditErrorf("%s is in the book already", e.Move)
		}
		if _, err := e.Pos.LegalMove(e.Move); err != nil {
			return nil, book.Edit{}, book.EditErrorf("%v", err)
		}
		after = append(slices.Clone(group), book.Entry{Key: e.Pos.Key(), Move: e.Pos.ToBook(e.Move), Weight: e.Weight, Learn: e.Learn})
		undo.Kind = book.EditDelete
	case book.EditDelete:
		if at < 0 {
			return nil, book.Edit{}, book.EditErrorf("%s is not in the book", e.Move)
		}
		after = slices.Delete(slices.Clone(group), at, at+1)
		undo.Kind, undo.Weight, undo.Learn = book.EditAdd, group[at].Weight, group[at].Learn
	case book.EditWeight:
		if at < 0 {
			return nil, book.Edit{}, book.EditErrorf("%s is not in the book", e.Move)
		}
		after = slices.Clone(group)
		after[at].Weight = e.Weight
		undo.Kind, undo.Weight = book.EditWeight, group[at].Weight
	}
	// The file's order: weights descending within the key, ties as they were.
	slices.SortStableFunc(after, book.CompareEntries)
	return after, undo, nil
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
