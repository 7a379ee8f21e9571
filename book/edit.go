package book

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

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
	// a move of a format with fields of its own with its Fields.
	EditAdd
	// EditFields sets the fields of its own a format keeps for a move
	// (ABK's priority, games, wins and losses).
	EditFields
	// EditRestore puts back what a format kept of a change (Restore):
	// the undo of an edit that a plain edit cannot undo.
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
	// Fields are the fields of its own a format keeps for the move, by
	// name, from the view of the side that plays it (EditFields, EditAdd):
	// ABK's "priority", "games", "won" and "lost".
	Fields map[string]int64
	// Restore is what a format keeps to undo a change (EditRestore).
	Restore any
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
// lock and loses nothing: each format writes in place what it can, and a
// change that moves what follows it rewrites the book while the lock on
// the old file is held (rewrite): a learner waiting for it then finds the
// book replaced and writes into the new one (see lock).
//
// A wait for the lock ends with ctx, and nothing is written then.
func (f *LearnFile) Edit(ctx context.Context, e Edit) (undo Edit, err error) {
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
	st, err := f.lock(ctx, "edit", true)
	if err != nil {
		return Edit{}, err
	}
	locked := f.f
	defer func() {
		if uerr := filelock.Unlock(locked); uerr != nil && err == nil {
			err = fmt.Errorf("edit %s: unlock: %w", f.path, uerr)
		}
	}()
	undo, err = ed.Edit(f.f, st.Size(), e, f.rewrite)
	f.saw()
	return undo, err
}

// rewrite writes the book anew at its path with what write writes, while
// the lock on the old file is held: with writeFile, a new file renamed
// over the old one. Windows refuses to rename over a file that handles
// hold (ours among them, holding the lock), even when they share
// deletion, but lets such a file be renamed away: there the old book is
// renamed aside first, the new one put in its place, and the old one
// deleted (a crash between the two renames leaves both files beside the
// path, never a torn book). Learners hold the book only with handles that
// share deletion (openLocked).
func (f *LearnFile) rewrite(write func(io.Writer) error) error {
	if !OpenFilesBlockReplace {
		return writeFile(f.path, write)
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
