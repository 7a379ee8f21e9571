package book

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/polyproxy/polyproxy/book/board"
)

// Book is an opened Polyglot book, memory-mapped: opening costs the same
// for any size and only the pages a probe touches are read. On Windows it
// is read into memory instead (openFilesBlockReplace).
type Book struct {
	path     string
	file     *os.File // nil when read into memory
	data     []byte   // the whole-entry part of the mapping
	mapping  []byte
	warnings []string
	format   Format // nil: Polyglot
	report   any    // what the format's reader found (Report)
	// prober, when set, finds the book's moves by position (ByPosition):
	// data is then empty.
	prober   Prober
	probeErr atomic.Pointer[error] // the last failure to read its files
	told     int                   // its warnings the chooser has told (under mu)

	// unsorted is set once Verify finds keys out of order: from then on
	// lookups scan the whole file, because a binary search would silently
	// miss entries.
	unsorted atomic.Bool
	// broken is set when reading the mapping faulted: the file shrank
	// while open (e.g. overwritten in place with cp). The book then answers
	// nothing until reopened.
	broken atomic.Bool

	// Scans (Verify, Scan) may run on other goroutines; Close stops them
	// and waits before unmapping, so they never touch unmapped memory.
	mu       sync.Mutex
	closed   bool
	stopping atomic.Bool
	scans    sync.WaitGroup
}

// ErrClosed is returned by a scan stopped because the book was closed.
var ErrClosed = errors.New("book closed")

// errShrunk reports a book file that became shorter while it was open
// (rewritten in place); reopen it. Callers treat it as any read error, so
// its text says what to do. Replacing a book by renaming a new file
// over it is safe: the open book keeps reading the old file.
var errShrunk = errors.New("book file shrank while open: reopen it")

// guard runs read, which touches the mapping, and turns a memory fault
// into errShrunk instead of a crash: on Unix, reading a mapped page past
// the end of a file truncated meanwhile raises SIGBUS.
func (b *Book) guard(read func()) (err error) {
	if b.broken.Load() {
		return fmt.Errorf("%s: %w", b.path, errShrunk)
	}
	prev := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(prev)
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			b.broken.Store(true)
			err = fmt.Errorf("%s: %w", b.path, errShrunk)
		}
	}()
	read()
	return nil
}

// Err is why the book can no longer be read: errShrunk (wrapped) once a
// read found the file shorter than when it was opened, the last failure
// to read the files of a book found by position; else nil.
func (b *Book) Err() error {
	if b.broken.Load() {
		return fmt.Errorf("%s: %w", b.path, errShrunk)
	}
	if err := b.probeErr.Load(); err != nil {
		return *err
	}
	return nil
}

// Open maps a Polyglot book file. A size that is not a multiple of 16 is
// accepted with a warning (the tail is ignored, as PolyGlot does). A book
// of any format, told by its content, is opened by book/formats.
func Open(path string) (*Book, error) {
	// Check the kind of file first: opening a FIFO would block.
	if st, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open book: %w", err)
	} else if st.IsDir() {
		return nil, fmt.Errorf("open book %s: is a directory", path)
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("open book %s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open book: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open book %s: %w", path, err)
	}
	size := st.Size()
	if int64(int(size)) != size {
		f.Close()
		return nil, fmt.Errorf("open book %s: %d bytes is too large to map on this platform", path, size)
	}
	b := &Book{path: path}
	if openFilesBlockReplace {
		b.mapping, err = readWhole(f, size)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("open book %s: %w", path, err)
		}
	} else {
		b.file = f
		if b.mapping, err = mapFile(f, size); err != nil {
			f.Close()
			return nil, fmt.Errorf("open book %s: map: %w", path, err)
		}
	}
	m := b.mapping
	whole := size - size%EntrySize
	b.data = m[:whole]
	if tail := size % EntrySize; tail != 0 {
		b.warnings = append(b.warnings, fmt.Sprintf("%s: size %d is not a multiple of 16: the last %d byte(s) are ignored", path, size, tail))
	}
	return b, nil
}

// Close stops running scans, waits for them and unmaps the book. It must
// not run concurrently with Lookup, Entries or Candidates (the proxy loop
// owns those calls); a second Close is a no-op.
func (b *Book) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	b.mu.Unlock()
	b.stopping.Store(true)
	b.scans.Wait()
	var err error
	if b.prober != nil {
		err = b.prober.Close()
	}
	if b.file != nil { // mapped, not read into memory
		err = unmapFile(b.mapping)
		if cerr := b.file.Close(); err == nil {
			err = cerr
		}
	}
	b.mapping, b.data = nil, nil
	return err
}

// readWhole reads a book file of size bytes into memory.
func readWhole(f *os.File, size int64) ([]byte, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, size), data); err != nil {
		return nil, err
	}
	return data, nil
}

// newMemoryBook is a book held in memory with entries, sorted as a book
// file is.
func newMemoryBook(path string, entries []Entry) *Book {
	if !slices.IsSortedFunc(entries, CompareEntries) {
		slices.SortStableFunc(entries, CompareEntries)
	}
	data := make([]byte, len(entries)*EntrySize)
	for i, e := range entries {
		e.Encode(data[i*EntrySize:])
	}
	return &Book{path: path, data: data, mapping: data}
}

// FromEntries is a Polyglot book held in memory with entries (sorted
// here), named name: what a book made in memory is written from in
// another format.
func FromEntries(name string, entries []Entry) *Book {
	return newMemoryBook(name, slices.Clone(entries))
}

// Path is the file the book was opened from.
func (b *Book) Path() string { return b.path }

// Len is the number of whole entries in the file, header entries included.
func (b *Book) Len() int { return len(b.data) / EntrySize }

// Warnings are the problems found so far that do not stop the book from
// being used: for a book found by position, those found at open and the
// faults its probes have met since.
func (b *Book) Warnings() []string {
	if b.prober != nil {
		return append(slices.Clip(b.warnings), b.prober.Warnings()...)
	}
	return b.warnings
}

// Entry returns the i-th entry of the file.
func (b *Book) Entry(i int) Entry { return DecodeEntry(b.data[i*EntrySize:]) }

func (b *Book) keyAt(i int) board.Key {
	d := b.data[i*EntrySize:]
	return board.Key(uint64(d[0])<<56 | uint64(d[1])<<48 | uint64(d[2])<<40 | uint64(d[3])<<32 |
		uint64(d[4])<<24 | uint64(d[5])<<16 | uint64(d[6])<<8 | uint64(d[7]))
}

// beginScan registers a scan; false when the book is closed.
func (b *Book) beginScan() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.scans.Add(1)
	return true
}

// Lookup returns the index of the first entry with key k and how many
// entries follow with that key, by binary search: the answer assumes a
// sorted book (see Verify; Each handles unsorted ones). Key 0 (header
// entries) never matches, and move code 0 entries are included: callers
// skip them with Move.IsNull.
func (b *Book) Lookup(k board.Key) (first, count int) {
	if k == 0 || b.data == nil {
		return 0, 0
	}
	if b.guard(func() { first, count = b.lookup(k) }) != nil {
		return 0, 0
	}
	return first, count
}

func (b *Book) lookup(k board.Key) (first, count int) {
	n := b.Len()
	i := b.lowerBound(k)
	j := i
	for j < n && b.keyAt(j) == k {
		j++
	}
	return i, j - i
}

// lowerBound is the index of the first entry with a key >= k. Polyglot
// keys are uniformly distributed, so interpolation lands near the answer
// in a few steps (a handful of cache misses instead of the ~23 of a
// binary search over 10 million entries: measured in BenchmarkProbe10M);
// a binary search finishes the last stretch and bounds the worst case.
func (b *Book) lowerBound(k board.Key) int {
	lo, hi := 0, b.Len() // entries before lo are < k, entries from hi on are >= k
	for step := 0; step < 6 && hi-lo > 64; step++ {
		klo, khi := b.keyAt(lo), b.keyAt(hi-1)
		if k <= klo {
			return lo
		}
		if k > khi {
			return hi
		}
		if khi <= klo { // not sorted here: leave it to the binary search
			break
		}
		mid := lo + int(float64(k-klo)/float64(khi-klo)*float64(hi-1-lo))
		mid = min(max(mid, lo+1), hi-2)
		if b.keyAt(mid) < k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo + sort.Search(hi-lo, func(i int) bool { return b.keyAt(lo+i) >= k })
}

// Each calls fn with the index and entry of every entry of key k in file
// order, null moves included. On a book Verify found unsorted it scans the
// whole file so that no entry is missed.
// A book that faulted (see Err) has no entries.
func (b *Book) Each(k board.Key, fn func(i int, e Entry)) {
	if k == 0 || b.data == nil {
		return
	}
	// Read under guard first, call fn after, so that a panic of fn is
	// never mistaken for a fault of the mapping.
	var buf [16]indexedEntry
	found := buf[:0]
	err := b.guard(func() {
		if b.unsorted.Load() {
			for i, n := 0, b.Len(); i < n; i++ {
				if b.keyAt(i) == k {
					found = append(found, indexedEntry{i, b.Entry(i)})
				}
			}
			return
		}
		first, count := b.lookup(k)
		for i := first; i < first+count; i++ {
			found = append(found, indexedEntry{i, b.Entry(i)})
		}
	})
	if err != nil {
		return
	}
	for _, f := range found {
		fn(f.i, f.e)
	}
}

type indexedEntry struct {
	i int
	e Entry
}

// Entries returns the entries of key k in file order, without null moves.
func (b *Book) Entries(k board.Key) []Entry {
	var out []Entry
	b.Each(k, func(_ int, e Entry) {
		if !e.Move.IsNull() {
			out = append(out, e)
		}
	})
	return out
}
