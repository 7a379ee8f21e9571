package learn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/polyproxy/polyproxy/book"
)

// learnOffset is where the learn field starts inside a 16-byte entry.
const learnOffset = 12

// File is a book opened for learning. It reads and writes the file itself
// (pread/pwrite), never a memory mapping, and it never writes anything but
// the 4 learn bytes of an entry.
type File struct {
	mu       sync.Mutex // flock does not exclude goroutines sharing one descriptor
	f        *os.File
	path     string
	writable bool
}

// Open opens a book for updating its learn fields. It fails when the file
// cannot be opened for writing, so callers can warn before any game.
func Open(path string) (*File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("open book for learning: %w", err)
	}
	return newFile(f, path, true)
}

// OpenReadOnly opens a book to preview updates (Preview) without the right
// to change it.
func OpenReadOnly(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open book: %w", err)
	}
	return newFile(f, path, false)
}

func newFile(f *os.File, path string, writable bool) (*File, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open book %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open book %s: not a regular file", path)
	}
	return &File{f: f, path: path, writable: writable}, nil
}

// Path is the book's file name as given to Open.
func (f *File) Path() string { return f.path }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Sync asks the system to put the updates written so far on disk.
func (f *File) Sync() error {
	if !f.writable {
		return nil
	}
	return f.f.Sync()
}

// Update is one game result to count into the entry (Key, Move), Move
// being the code exactly as stored in the book.
type Update struct {
	Key    book.Key
	Move   book.Move
	Result Result
}

// Change is what happened (or, from Preview, would happen) to one entry.
type Change struct {
	Key           book.Key
	Move          book.Move
	Index         int // entry number in the file; -1 when the book has no such entry
	Results       int // updates counted into it
	Before, After Field
}

// Found reports whether the book has the entry.
func (c Change) Found() bool { return c.Index >= 0 }

// Apply counts the updates into the book under an exclusive lock held for
// the whole batch: a read-modify-write that no other process can
// interleave with. Updates of the same entry are combined in their order,
// so a batch costs one read and one write per distinct entry. Entries are
// searched by key under the lock, never remembered from before, so a stale
// index cannot hit the wrong entry. The changes are returned in the order
// each entry first appears in updates.
func (f *File) Apply(updates []Update) ([]Change, error) {
	if !f.writable {
		return nil, fmt.Errorf("learn %s: book was opened read-only", f.path)
	}
	return f.run(updates, true)
}

// Preview computes what Apply would do without writing anything.
func (f *File) Preview(updates []Update) ([]Change, error) { return f.run(updates, false) }

type entryID struct {
	key  book.Key
	move book.Move
}

func (f *File) run(updates []Update, write bool) (changes []Change, err error) {
	if len(updates) == 0 {
		return nil, nil
	}
	groups := make(map[entryID]int, len(updates))
	changes = make([]Change, 0, len(updates))
	for _, u := range updates {
		id := entryID{u.Key, u.Move}
		if _, ok := groups[id]; !ok {
			groups[id] = len(changes)
			changes = append(changes, Change{Key: u.Key, Move: u.Move, Index: -1})
		}
	}

	f.mu.Lock()
	defer f.mu.Unlock()
	st, err := f.lock(write)
	if err != nil {
		return nil, err
	}
	locked := f.f
	defer func() {
		if uerr := unlockFile(locked); uerr != nil && err == nil {
			err = fmt.Errorf("learn %s: unlock: %w", f.path, uerr)
		}
	}()
	n := int(st.Size() / book.EntrySize)
	for i := range changes {
		c := &changes[i]
		idx, learn, err := f.find(c.Key, c.Move, n)
		if err == nil && idx < 0 {
			// An unsorted book (which book.Book still reads exactly) hides
			// entries from the search.
			idx, learn, err = f.findLinear(c.Key, c.Move, n)
		}
		if err != nil {
			return nil, fmt.Errorf("learn %s: %w", f.path, err)
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
		if err := f.writeLearn(c.Index, c.After); err != nil {
			// Entries before this one are written; say which are not.
			for j := i; j < len(changes); j++ {
				changes[j].After = changes[j].Before
				changes[j].Results = 0
			}
			return changes, fmt.Errorf("learn %s: write entry %d: %w", f.path, c.Index, err)
		}
	}
	return changes, nil
}

// lock takes the file lock and returns the file's state under it. A book
// replaced since it was opened (a new file renamed over it, as book
// writers do) is opened again first, so that updates go to the book the
// path names rather than to a file nobody will read again.
func (f *File) lock(exclusive bool) (os.FileInfo, error) {
	for attempt := 0; ; attempt++ {
		if err := lockFile(f.f, exclusive); err != nil {
			return nil, fmt.Errorf("learn %s: lock: %w", f.path, err)
		}
		st, err := f.f.Stat()
		if err != nil {
			unlockFile(f.f)
			return nil, fmt.Errorf("learn %s: %w", f.path, err)
		}
		now, err := os.Stat(f.path)
		if err != nil || os.SameFile(st, now) || attempt == 2 {
			// (A deleted path leaves nothing better than the open file.)
			return st, nil
		}
		unlockFile(f.f)
		flag := os.O_RDONLY
		if f.writable {
			flag = os.O_RDWR
		}
		nf, err := os.OpenFile(f.path, flag, 0)
		if err != nil {
			return nil, fmt.Errorf("learn %s: reopen the replaced book: %w", f.path, err)
		}
		f.f.Close()
		f.f = nf
	}
}

// writeLearn writes the 4 learn bytes of entry i and nothing else.
//
// Crash safety: the write is one pwrite of 4 bytes at offset 16*i+12, a
// multiple of 4, so it never straddles a page (4096) or a disk sector (512
// or 4096), all multiples of 4. The kernel copies it into a single page
// cache page under that page's lock, so other processes see old or new
// bytes, never a mix, and the disk writes whole sectors atomically, so
// after a power loss the field is the old or the new value. Since no other
// byte is written, an entry can only ever be as before or as after.
func (f *File) writeLearn(i int, v Field) error {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(v))
	n, err := f.f.WriteAt(b[:], int64(i)*book.EntrySize+learnOffset)
	if err == nil && n != len(b) {
		err = io.ErrShortWrite
	}
	return err
}

// find returns the index and learn field of the first entry (key, move)
// among the n entries of the file, or -1.
//
// It reads through the descriptor, not a mapping, so it always sees the
// file as it is under the lock. To meet the update time target it reads few
// times: keys are Zobrist hashes, spread evenly, so interpolating the key
// between known bounds lands near the entry, and each read takes a whole
// window of entries around the guess (one read usually suffices; binary
// search on the ordinary 16-byte reads needs log2(n), ~17 for a typical
// book). After a few windows it falls back to bisection so that an oddly
// distributed book cannot make the search slow.
func (f *File) find(key book.Key, move book.Move, n int) (int, Field, error) {
	if key == 0 {
		return -1, 0, nil // header entries
	}
	const window = 256
	var buf [window * book.EntrySize]byte
	keyAt := func(b []byte, j int) book.Key {
		return book.Key(binary.BigEndian.Uint64(b[j*book.EntrySize:]))
	}
	// The first index whose key is >= key lies in [lo, hi]; loKey and
	// hiKey bound the keys in between, for interpolation.
	lo, hi := 0, n
	loKey, hiKey := float64(0), float64(1<<64)
	for round := 0; lo < hi; round++ {
		span := hi - lo
		guess := lo + span/2
		if round < 3 {
			frac := (float64(key) - loKey) / (hiKey - loKey)
			guess = lo + int(frac*float64(span))
		}
		a := min(max(guess-window/2, lo), max(hi-window, lo))
		m := min(window, hi-a)
		b := buf[:m*book.EntrySize]
		if err := f.readFull(b, int64(a)*book.EntrySize); err != nil {
			return -1, 0, err
		}
		switch {
		case keyAt(b, 0) >= key:
			if a == lo {
				return f.scan(key, move, a, n, b)
			}
			hi, hiKey = a, float64(keyAt(b, 0))
		case keyAt(b, m-1) < key:
			lo, loKey = a+m, float64(keyAt(b, m-1))
		default:
			j := 1
			for keyAt(b, j) < key {
				j++
			}
			return f.scan(key, move, a+j, n, b[j*book.EntrySize:])
		}
	}
	return f.scan(key, move, lo, n, nil)
}

// scan looks for move among the entries of key that start at index i;
// have holds the entries already read from i on.
func (f *File) scan(key book.Key, move book.Move, i, n int, have []byte) (int, Field, error) {
	var buf [16 * book.EntrySize]byte
	for i < n {
		if len(have) < book.EntrySize {
			m := min(16, n-i)
			have = buf[:m*book.EntrySize]
			if err := f.readFull(have, int64(i)*book.EntrySize); err != nil {
				return -1, 0, err
			}
		}
		e := book.DecodeEntry(have)
		if e.Key != key {
			break
		}
		if e.Move == move {
			return i, Field(e.Learn), nil
		}
		have = have[book.EntrySize:]
		i++
	}
	return -1, 0, nil
}

// findLinear is find for books that are not sorted: a read of the whole
// file, in large blocks.
func (f *File) findLinear(key book.Key, move book.Move, n int) (int, Field, error) {
	if key == 0 {
		return -1, 0, nil
	}
	const block = 4096
	buf := make([]byte, block*book.EntrySize)
	for i := 0; i < n; i += block {
		m := min(block, n-i)
		b := buf[:m*book.EntrySize]
		if err := f.readFull(b, int64(i)*book.EntrySize); err != nil {
			return -1, 0, err
		}
		for j := 0; j < m; j++ {
			if e := book.DecodeEntry(b[j*book.EntrySize:]); e.Key == key && e.Move == move {
				return i + j, Field(e.Learn), nil
			}
		}
	}
	return -1, 0, nil
}

func (f *File) readFull(b []byte, off int64) error {
	n, err := f.f.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = fmt.Errorf("book shrank while reading at offset %d", off)
	}
	return err
}

func wrapLockErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return &os.SyscallError{Syscall: op, Err: err}
}
