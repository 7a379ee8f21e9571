package book

import (
	"context"
	"errors"
	"fmt"
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
	// known is the file as f last saw it (opened, read, written): one
	// that differs under the lock is told its format again.
	known os.FileInfo
	// readAs is the file its writer read (ReadAs), nil when not said: a
	// file that differs from it under the lock is refused. Its own lock,
	// so that a reader telling it never waits behind a write.
	readMu sync.Mutex
	readAs os.FileInfo
}

// ErrBookChanged is returned (wrapped) by a write refused because the
// book changed on disk: it is no longer of its format, or, for a writer
// that said which file it read (ReadAs), no longer that file. Nothing was
// written.
var ErrBookChanged = errors.New("the book changed on disk")

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
	lf := &LearnFile{f: f, path: path, writable: writable, format: format, known: st}
	lf.release()
	return lf, nil
}

// open opens the book's file for a batch.
func (f *LearnFile) open() (*os.File, error) { return openLocked(f.path, f.writable) }

// release closes the file between batches where an open file would keep
// a book tool from replacing the book (OpenFilesBlockReplace).
func (f *LearnFile) release() {
	if OpenFilesBlockReplace && f.f != nil {
		f.f.Close()
		f.f = nil
	}
}

// ReadAs has every later write go only into the file st describes (as
// os.Stat gave it), the book as its writer read it: a book changed on
// disk since (replaced, overwritten to another size) is refused with
// ErrBookChanged, until ReadAs names the new one. Without it a writer
// follows a book replaced by one of its format (learning, whose updates
// are found by position and move in the file as it is under the lock);
// a file no longer of the format is refused either way.
func (f *LearnFile) ReadAs(st os.FileInfo) {
	f.readMu.Lock()
	defer f.readMu.Unlock()
	f.readAs = st
}

// readFile is what ReadAs said, nil when nothing.
func (f *LearnFile) readFile() os.FileInfo {
	f.readMu.Lock()
	defer f.readMu.Unlock()
	return f.readAs
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
//
// A wait for the lock ends with ctx, and nothing is written then.
func (f *LearnFile) Apply(ctx context.Context, updates []LearnUpdate) ([]LearnChange, error) {
	if !f.writable {
		return nil, fmt.Errorf("learn %s: book was opened read-only", f.path)
	}
	return f.run(ctx, updates, true)
}

// Preview computes what Apply would do without writing anything.
func (f *LearnFile) Preview(ctx context.Context, updates []LearnUpdate) ([]LearnChange, error) {
	return f.run(ctx, updates, false)
}

func (f *LearnFile) run(ctx context.Context, updates []LearnUpdate, write bool) (changes []LearnChange, err error) {
	if len(updates) == 0 {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	defer f.release() // after the unlock below
	st, err := f.lock(ctx, "learn", write)
	if err != nil {
		return nil, err
	}
	locked := f.f
	defer func() {
		if uerr := filelock.Unlock(locked); uerr != nil && err == nil {
			err = fmt.Errorf("learn %s: unlock: %w", f.path, uerr)
		}
	}()
	changes, err = f.format.Learn(f.f, st.Size(), updates, write)
	f.saw()
	return changes, err
}

// saw notes the file the path names now, under the lock, as the one f
// knows: what f's own writes made of it (a record appended, the book
// rewritten) is no change to refuse.
func (f *LearnFile) saw() {
	st, err := os.Stat(f.path)
	if err != nil {
		return
	}
	f.known = st
	f.readMu.Lock()
	defer f.readMu.Unlock()
	if f.readAs != nil {
		f.readAs = st
	}
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
//
// Under the lock the file is then checked against the one f knows (its
// identity and size): a changed file must still be of f's format, and,
// for a writer that said which file it read (ReadAs), the same file.
// Else the write is refused (ErrBookChanged) and nothing written.
func (f *LearnFile) lock(ctx context.Context, op string, exclusive bool) (os.FileInfo, error) {
	st, err := f.lockNamed(ctx, op, exclusive)
	if err != nil {
		return nil, err
	}
	same := func(known os.FileInfo) bool { return os.SameFile(st, known) && st.Size() == known.Size() }
	read := f.readFile()
	if same(f.known) && (read == nil || same(read)) {
		return st, nil
	}
	refuse := func(format string, args ...any) (os.FileInfo, error) {
		filelock.Unlock(f.f)
		return nil, fmt.Errorf("%s %s: %w %s: nothing written", op, f.path, ErrBookChanged, fmt.Sprintf(format, args...))
	}
	if err := f.format.Fits(f.f, st.Size()); err != nil {
		return refuse("and no longer fits the %s format (%v)", f.format.Name(), err)
	}
	if read != nil && !same(read) {
		return refuse("since it was read (%s)", changeOf(read, st))
	}
	f.known = st
	return st, nil
}

// changeOf says how the file now differs from the one known.
func changeOf(known, now os.FileInfo) string {
	if !os.SameFile(known, now) {
		return "another file was put in its place"
	}
	return fmt.Sprintf("%d bytes, not %d", now.Size(), known.Size())
}

// lockNamed takes the lock on the file the path names, opened again as
// often as it was replaced while the lock was waited for.
func (f *LearnFile) lockNamed(ctx context.Context, op string, exclusive bool) (os.FileInfo, error) {
	held, st, err := lockNamed(ctx, op, f.path, f.f, f.open, exclusive)
	f.f = held
	return st, err
}

// lockNamed takes the lock on the file path names, held (opened when nil)
// and opened again with open as often as it was replaced while the lock
// was waited for. It returns the file it holds, locked unless err, and
// that file's state.
func lockNamed(ctx context.Context, op, path string, held *os.File, open func() (*os.File, error), exclusive bool) (*os.File, os.FileInfo, error) {
	if held == nil {
		nf, err := open()
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", op, path, err)
		}
		held = nf
	}
	for attempt := 0; ; attempt++ {
		if err := filelock.Lock(ctx, held, exclusive); err != nil {
			return held, nil, fmt.Errorf("%s %s: waiting for the book's lock: %w", op, path, err)
		}
		st, err := held.Stat()
		if err != nil {
			filelock.Unlock(held)
			return held, nil, fmt.Errorf("%s %s: %w", op, path, err)
		}
		now, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			// Updates to the open file would go where nobody reads them.
			filelock.Unlock(held)
			return held, nil, fmt.Errorf("%s %s: %w", op, path, ErrBookDeleted)
		}
		if err != nil || os.SameFile(st, now) {
			return held, st, nil
		}
		filelock.Unlock(held)
		if attempt == maxReplacedReopens {
			// Writing into the file we hold would lose the updates.
			return held, nil, fmt.Errorf("%s %s: the book was replaced %d times while waiting for its lock", op, path, attempt+1)
		}
		nf, err := open()
		if err != nil {
			return held, nil, fmt.Errorf("%s %s: reopen the replaced book: %w", op, path, err)
		}
		if nst, err := nf.Stat(); err == nil && os.SameFile(st, nst) {
			// The path names the file held after all: a file system whose
			// file ids differ between the two calls, not a replacement.
			nf.Close()
			if err := filelock.Lock(ctx, held, exclusive); err != nil {
				return held, nil, fmt.Errorf("%s %s: waiting for the book's lock: %w", op, path, err)
			}
			return held, st, nil
		}
		held.Close()
		held = nf
	}
}
