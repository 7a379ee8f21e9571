package book

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/filelock"
)

// LearnFile is a book opened for learning: under the file's lock, held for
// a batch of updates, its format (a Learner) finds each update's place
// in the file as it is then, with the walk its reader reads by, and writes
// through the descriptor (pwrite) nothing but the counts there.
type LearnFile struct {
	mu       sync.Mutex // flock does not exclude goroutines sharing one descriptor
	f        *os.File   // nil between batches where open files block replacing
	path     string
	writable bool
	format   Learner // what counts the updates into the file
}

// ErrBookDeleted is returned (wrapped) by Apply and Preview when the
// book's path no longer names a file: it was deleted since it was opened.
var ErrBookDeleted = errors.New("the book was deleted since it was opened")

// OpenLearnFile opens a book of format f for counting game results into
// it. It fails when the file cannot be opened for writing, or f is read
// only, so callers can warn before any game. (book/formats opens a book of
// any format, told by its content.)
func OpenLearnFile(path string, f Format) (*LearnFile, error) {
	l, err := learner(path, f)
	if err != nil {
		return nil, err
	}
	file, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("open book for learning: %w", err)
	}
	return newFile(file, path, l, true)
}

// OpenLearnFileReadOnly opens a book of format f to preview updates
// (Preview) without the right to change it.
func OpenLearnFileReadOnly(path string, f Format) (*LearnFile, error) {
	l, err := learner(path, f)
	if err != nil {
		return nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open book: %w", err)
	}
	return newFile(file, path, l, false)
}

// learner is f, when results can be learned into its books.
func learner(path string, f Format) (Learner, error) {
	l, ok := f.(Learner)
	if !ok {
		return nil, fmt.Errorf("open book %s for learning: the %s format is read only (convert-book -in %s -out BOOK.bin, or .abk, makes a book that learns)", path, f.Name(), path)
	}
	return l, nil
}

func newFile(f *os.File, path string, format Learner, writable bool) (*LearnFile, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open book %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open book %s: not a regular file", path)
	}
	lf := &LearnFile{f: f, path: path, writable: writable, format: format}
	lf.release()
	return lf, nil
}

// open opens the book's file for a batch.
func (f *LearnFile) open() (*os.File, error) { return openLocked(f.path, f.writable) }

// release closes the file between batches where an open file would keep
// a book tool from replacing the book (openFilesBlockReplace).
func (f *LearnFile) release() {
	if openFilesBlockReplace && f.f != nil {
		f.f.Close()
		f.f = nil
	}
}

// Path is the book's file name as given to Open.
func (f *LearnFile) Path() string { return f.path }

// Close closes the file.
func (f *LearnFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.f == nil {
		return nil
	}
	err := f.f.Close()
	f.f = nil
	return err
}

// Sync asks the system to put the updates written so far on disk.
func (f *LearnFile) Sync() error {
	if !f.writable {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.f != nil {
		return f.f.Sync()
	}
	// Flushing through any handle writes the file's cached updates.
	file, err := f.open()
	if err != nil {
		return fmt.Errorf("sync %s: %w", f.path, err)
	}
	defer file.Close()
	return file.Sync()
}

// LearnUpdate is one game result to count into the entry (Key, Move), Move
// being the code exactly as stored in the book.
type LearnUpdate struct {
	Key    board.Key
	Move   board.Move
	Result Result
	// Line is the keys of the positions the game went through, from its
	// first to Key (nil when not known). A format that keeps its moves on
	// lines from the start position (ABK) counts the result on the line
	// the game played, where it has it.
	Line []board.Key
}

// LearnChange is what happened (or, from Preview, would happen) to one
// entry: a Polyglot book's entry, or the record of another format that
// holds the move's counts (Before and After are then those counts as the
// book's reader gives them in its entry's learn field).
type LearnChange struct {
	Key           board.Key
	Move          board.Move
	Index         int // entry (or record) number in the file; -1 when the book has no such entry
	Results       int // updates counted into it
	Before, After Learn
}

// Found reports whether the book has the entry.
func (c LearnChange) Found() bool { return c.Index >= 0 }

// Apply counts the updates into the book under an exclusive lock held for
// the whole batch: a read-modify-write that no other process can
// interleave with. Updates of the same entry are combined in their order,
// so a batch costs one read and one write per distinct entry. Entries are
// searched under the lock, never remembered from before, so a stale index
// cannot hit the wrong entry. The changes are returned in the order each
// entry first appears in updates.
func (f *LearnFile) Apply(updates []LearnUpdate) ([]LearnChange, error) {
	if !f.writable {
		return nil, fmt.Errorf("learn %s: book was opened read-only", f.path)
	}
	return f.run(updates, true)
}

// Preview computes what Apply would do without writing anything.
func (f *LearnFile) Preview(updates []LearnUpdate) ([]LearnChange, error) {
	return f.run(updates, false)
}

type entryID struct {
	key  board.Key
	move board.Move
}

func (f *LearnFile) run(updates []LearnUpdate, write bool) (changes []LearnChange, err error) {
	if len(updates) == 0 {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.release() // after the unlock below
	st, err := f.lock(write)
	if err != nil {
		return nil, err
	}
	locked := f.f
	defer func() {
		if uerr := filelock.Unlock(locked); uerr != nil && err == nil {
			err = fmt.Errorf("learn %s: unlock: %w", f.path, uerr)
		}
	}()
	return f.format.Learn(f.f, st.Size(), updates, write)
}

// Learn counts updates into the learn fields of a Polyglot book: an
// update's entry is the first of its key and move, found by the search the
// book's reader makes (Book.Lookup) on a mapping of the file as it is now.
// Updates of the same entry are combined in their order, so a batch costs
// one read and one write per distinct entry.
func (polyglot) Learn(file *os.File, size int64, updates []LearnUpdate, write bool) ([]LearnChange, error) {
	path := file.Name()
	groups := make(map[entryID]int, len(updates))
	changes := make([]LearnChange, 0, len(updates))
	for _, u := range updates {
		id := entryID{u.Key, u.Move}
		if _, ok := groups[id]; !ok {
			groups[id] = len(changes)
			changes = append(changes, LearnChange{Key: u.Key, Move: u.Move, Index: -1})
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
			return changes, Unwritten(changes, i, fmt.Errorf("learn %s: write entry %d: %w", path, c.Index, err))
		}
	}
	return changes, nil
}

// Unwritten marks changes[i:] as not made, when writing change i failed
// with err (the changes before it are written), and returns err: what a
// Learner's Learn returns then.
func Unwritten(changes []LearnChange, i int, err error) error {
	for j := i; j < len(changes); j++ {
		changes[j].After = changes[j].Before
		changes[j].Results = 0
	}
	return err
}

// maxReplacedReopens bounds how often lock follows a book replaced while
// it waited: an editor (explore -edit) may rewrite a book several times
// in a row while a learner waits, and each time the learner must follow.
const maxReplacedReopens = 1000

// lock takes the file lock and returns the file's state under it. A book
// replaced since it was opened (a new file renamed over it, as book
// writers and the editor do) is opened again, as often as it was
// replaced, so that updates go to the book the path names rather than to
// a file nobody will read again.
func (f *LearnFile) lock(exclusive bool) (os.FileInfo, error) {
	if f.f == nil {
		nf, err := f.open()
		if err != nil {
			return nil, fmt.Errorf("learn %s: %w", f.path, err)
		}
		f.f = nf
	}
	for attempt := 0; ; attempt++ {
		if err := filelock.Lock(f.f, exclusive); err != nil {
			return nil, fmt.Errorf("learn %s: lock: %w", f.path, err)
		}
		st, err := f.f.Stat()
		if err != nil {
			filelock.Unlock(f.f)
			return nil, fmt.Errorf("learn %s: %w", f.path, err)
		}
		now, err := os.Stat(f.path)
		if errors.Is(err, fs.ErrNotExist) {
			// Updates to the open file would go where nobody reads them.
			filelock.Unlock(f.f)
			return nil, fmt.Errorf("learn %s: %w", f.path, ErrBookDeleted)
		}
		if err != nil || os.SameFile(st, now) {
			return st, nil
		}
		filelock.Unlock(f.f)
		if attempt == maxReplacedReopens {
			// Writing into the file we hold would lose the updates.
			return nil, fmt.Errorf("learn %s: the book was replaced %d times while waiting for its lock", f.path, attempt+1)
		}
		nf, err := f.open()
		if err != nil {
			return nil, fmt.Errorf("learn %s: reopen the replaced book: %w", f.path, err)
		}
		if nst, err := nf.Stat(); err == nil && os.SameFile(st, nst) {
			// The path names the file held after all: a file system whose
			// file ids differ between the two calls, not a replacement.
			nf.Close()
			if err := filelock.Lock(f.f, exclusive); err != nil {
				return nil, fmt.Errorf("learn %s: lock: %w", f.path, err)
			}
			return st, nil
		}
		f.f.Close()
		f.f = nf
	}
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
func writeLearn(f *os.File, i int, v Learn) error {
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
func mapLocked(f *os.File, path string, size int64) (*Book, error) {
	if int64(int(size)) != size {
		return nil, fmt.Errorf("%d bytes is too large to map on this platform", size)
	}
	m, err := mapFile(f, size)
	if err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	return &Book{path: path, mapping: m, data: m[:size-size%EntrySize]}, nil
}

// unmap releases a mapping made by mapLocked (its file is not the book's
// to close).
func (b *Book) unmap() {
	unmapFile(b.mapping)
	b.mapping, b.data = nil, nil
}

// indexOf returns the index and learn field of the first entry (k, m), or
// -1. An unsorted book (which Book still reads exactly) can hide entries
// from the key search, so a miss is confirmed by reading the whole file.
func (b *Book) indexOf(k board.Key, m board.Move) (idx int, l Learn, err error) {
	idx = -1
	if k == 0 {
		return idx, 0, nil // header entries
	}
	err = b.guard(func() {
		first, count := b.lookup(k)
		for i := first; i < first+count; i++ {
			if e := b.Entry(i); e.Move == m {
				idx, l = i, e.Learn
				return
			}
		}
		for i, n := 0, b.Len(); i < n; i++ {
			if b.keyAt(i) == k {
				if e := b.Entry(i); e.Move == m {
					idx, l = i, e.Learn
					return
				}
			}
		}
	})
	return idx, l, err
}
