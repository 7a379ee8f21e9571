package book

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/filelock"
)

// EditKind is what an Edit does to a move of a position.
type EditKind int

const (
	// EditWeight sets a Polyglot entry's weight.
	EditWeight EditKind = iota + 1
	// EditDelete takes the move out: a Polyglot entry is removed, an ABK
	// move's records are marked deleted (their replies with them, as in
	// Arena).
	EditDelete
	// EditAdd adds a legal move: a Polyglot entry with Weight and Learn,
	// an ABK record with ABK's priority and statistics.
	EditAdd
	// EditABK sets an ABK move's priority, games, wins and losses (the
	// totals over the records that play it).
	EditABK

	// The kinds undo needs: statistics changed by a difference (so that
	// games learned meanwhile stay counted), and what a format kept of a
	// change (Restore) put back.
	EditABKAdjust
	EditRestore
)

// Edit is one change to one move of a position.
type Edit struct {
	Kind EditKind
	Pos  board.Position
	Move board.Move // as played (castling e1g1; in Chess960 king takes rook)
	// Weight and Learn are a Polyglot entry's (EditWeight, EditAdd).
	Weight uint16
	Learn  Learn
	// ABK are an ABK move's priority and statistics (EditABK, EditAdd;
	// differences for EditABKAdjust).
	ABK ABKFields
	// Restore is what a format keeps to undo a change (EditRestore).
	Restore any
}

// ABKFields are what an ABK book holds for a move and an editor sets: its
// priority (0-9), and its games with White's wins and losses, whichever
// side plays it.
type ABKFields struct {
	Priority            int8  `json:"priority"`
	Games, Wins, Losses int32 `json:"-"`
}

// Check refuses fields no book may hold.
func (a ABKFields) Check() error {
	switch {
	case a.Priority < 0 || a.Priority > 9:
		return fmt.Errorf("priority %d: want 0 to 9", a.Priority)
	case a.Games < 0 || a.Wins < 0 || a.Losses < 0:
		return errors.New("games, wins and losses cannot be negative")
	case int64(a.Wins)+int64(a.Losses) > int64(a.Games):
		return fmt.Errorf("%d wins and %d losses are more than %d games", a.Wins, a.Losses, a.Games)
	}
	return nil
}

// ErrEdit is wrapped by the errors of an edit that cannot be made as
// asked (no such move, a move already there, a bad value): the book is
// unchanged.
var ErrEdit = errors.New("cannot edit")

// EditErrorf is an error wrapping ErrEdit.
func EditErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrEdit, fmt.Sprintf(format, args...))
}

// An Editor is a format whose books can be changed move by move (explore
// -edit).
type Editor interface {
	Learner
	// Edit makes e on f, an open file of the format size bytes long, under
	// its lock, as it is then, and returns the edit that undoes it.
	// rewrite replaces the whole file with what write writes while the
	// lock is held (see LearnFile.rewrite).
	Edit(f *os.File, size int64, e Edit, rewrite func(write func(io.Writer) error) error) (Edit, error)
}

// Edit makes e under the exclusive lock learning takes, on the book as it
// is then (never on what was read before), and returns the edit that
// undoes it. A proxy learning into the same book meanwhile waits for the
// lock and loses nothing:
//   - a Polyglot weight that keeps the position's entries in order is one
//     aligned 2-byte write in place, as a learn field is;
//   - any other Polyglot change (an entry added, removed or moved within
//     its position) rewrites the book while the lock on the old file is
//     held (rewrite): a learner waiting for it then finds the book
//     replaced and writes into the new one (see lock);
//   - an ABK change writes in place the fields it changes, and a new
//     record goes at the end of the file before the pointer that makes it
//     part of the tree.
//
// A Polyglot book stays sorted with every weight above 0; an ABK tree
// gains no problem.
func (f *LearnFile) Edit(e Edit) (undo Edit, err error) {
	ed, ok := f.format.(Editor)
	if !ok {
		return Edit{}, fmt.Errorf("edit %s: the %s format cannot be edited", f.path, f.format.Name())
	}
	if !f.writable {
		return Edit{}, fmt.Errorf("edit %s: book was opened read-only", f.path)
	}
	if why := e.Pos.NoKeyReason(); why != "" {
		return Edit{}, EditErrorf("%s", why)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.release()
	st, err := f.lock(true)
	if err != nil {
		return Edit{}, err
	}
	locked := f.f
	defer func() {
		if uerr := filelock.Unlock(locked); uerr != nil && err == nil {
			err = fmt.Errorf("edit %s: unlock: %w", f.path, uerr)
		}
	}()
	return ed.Edit(f.f, st.Size(), e, f.rewrite)
}

// Polyglot books are edited entry by entry.
var _ Editor = polyglot{}

// Edit changes a Polyglot book's entry (see LearnFile.Edit).
func (polyglot) Edit(file *os.File, size int64, e Edit, rewrite func(write func(io.Writer) error) error) (Edit, error) {
	path := file.Name()
	key := e.Pos.Key()
	stored := e.Pos.ToBook(e.Move)
	switch e.Kind {
	case EditWeight, EditDelete, EditAdd:
	default:
		return Edit{}, EditErrorf("a Polyglot book has no priority or statistics of ABK's")
	}
	if e.Kind != EditDelete && e.Weight == 0 {
		return Edit{}, EditErrorf("weight 0 is a move never played: delete the move instead")
	}
	view, release, err := editView(file, path, size)
	if err != nil {
		return Edit{}, fmt.Errorf("edit %s: %w", path, err)
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
		return Edit{}, fmt.Errorf("edit: %w", err)
	}
	if unsorted {
		return Edit{}, EditErrorf("%s is not sorted: sort it first (merge-book or convert-book write it sorted)", path)
	}
	group := make([]Entry, count)
	at := -1
	for i := range group {
		group[i] = view.Entry(first + i)
		if group[i].Move == stored && at < 0 {
			at = i
		}
	}
	after, undo, err := edited(group, at, e)
	if err != nil {
		return Edit{}, err
	}
	if e.Kind == EditWeight && slices.Equal(moveOrder(after), moveOrder(group)) {
		if err := writeWeight(file, first+at, e.Weight); err != nil {
			return Edit{}, fmt.Errorf("edit %s: write entry %d: %w", path, first+at, err)
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
				a.Encode(buf[:])
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
		return Edit{}, err
	}
	return undo, nil
}

// editView is the Polyglot book file as Edit reads it, under its lock:
// mapped, or read into memory where a mapped view would keep the rewrite
// from replacing the file. release lets it go.
func editView(file *os.File, path string, size int64) (view *Book, release func(), err error) {
	if openFilesBlockReplace {
		data, err := readWhole(file, size)
		if err != nil {
			return nil, nil, err
		}
		return &Book{path: path, mapping: data, data: data[:size-size%EntrySize]}, func() {}, nil
	}
	if view, err = mapLocked(file, path, size); err != nil {
		return nil, nil, err
	}
	return view, view.unmap, nil
}

// edited is a position's entries group after e, whose move is group[at]
// (-1: not in the book), in the file's order, and the edit that undoes e.
func edited(group []Entry, at int, e Edit) (after []Entry, undo Edit, err error) {
	undo = Edit{Pos: e.Pos, Move: e.Move}
	switch e.Kind {
	case EditAdd:
		if at >= 0 {
			return nil, Edit{}, EditErrorf("%s is in the book already", e.Move)
		}
		if _, err := e.Pos.LegalMove(e.Move); err != nil {
			return nil, Edit{}, EditErrorf("%v", err)
		}
		after = append(slices.Clone(group), Entry{Key: e.Pos.Key(), Move: e.Pos.ToBook(e.Move), Weight: e.Weight, Learn: e.Learn})
		undo.Kind = EditDelete
	case EditDelete:
		if at < 0 {
			return nil, Edit{}, EditErrorf("%s is not in the book", e.Move)
		}
		after = slices.Delete(slices.Clone(group), at, at+1)
		undo.Kind, undo.Weight, undo.Learn = EditAdd, group[at].Weight, group[at].Learn
	case EditWeight:
		if at < 0 {
			return nil, Edit{}, EditErrorf("%s is not in the book", e.Move)
		}
		after = slices.Clone(group)
		after[at].Weight = e.Weight
		undo.Kind, undo.Weight = EditWeight, group[at].Weight
	}
	// The file's order: weights descending within the key, ties as they were.
	slices.SortStableFunc(after, CompareEntries)
	return after, undo, nil
}

func moveOrder(entries []Entry) []board.Move {
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

// rewrite writes the book anew at its path with what write writes, while
// the lock on the old file is held: with writeFileFrom, a new file renamed
// over the old one. Windows refuses to rename over a file that handles
// hold (ours among them, holding the lock), even when they share
// deletion, but lets such a file be renamed away: there the old book is
// renamed aside first, the new one put in its place, and the old one
// deleted (a crash between the two renames leaves both files beside the
// path, never a torn book). Learners hold the book only with handles that
// share deletion (openLocked).
func (f *LearnFile) rewrite(write func(io.Writer) error) error {
	if !openFilesBlockReplace {
		return writeFileFrom(f.path, write)
	}
	target, err := linkTarget(f.path)
	if err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	st, err := os.Stat(target)
	if err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := write(tmp); err != nil {
		return fail(err)
	}
	if err := cmp.Or(tmp.Chmod(st.Mode().Perm()), tmp.Sync(), tmp.Close()); err != nil {
		return fail(fmt.Errorf("write %s: %w", f.path, err))
	}
	aside := tmp.Name() + ".old"
	if err := os.Rename(target, aside); err != nil {
		return fail(fmt.Errorf("write %s: put the old book aside: %w", f.path, err))
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		os.Rename(aside, target)
		return fail(fmt.Errorf("write %s: %w", f.path, err))
	}
	os.Remove(aside) // deleted once the last handle closes
	return nil
}
