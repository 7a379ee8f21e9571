package polyglot

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

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// table is a Polyglot book file as the book.Table a Book reads: mapped,
// so that opening costs the same for any size and only the pages a probe
// touches are read. On Windows it is read into memory instead
// (book.OpenFilesBlockReplace).
type table struct {
	path    string
	file    *os.File // nil when read into memory
	data    []byte   // the whole-entry part of the mapping
	mapping []byte

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

// errShrunk reports a book file that became shorter while it was open
// (rewritten in place); reopen it. Callers treat it as any read error, so
// its text says what to do. Replacing a book by renaming a new file
// over it is safe: the open book keeps reading the old file.
var errShrunk = errors.New("book file shrank while open: reopen it")

// guard runs read, which touches the mapping, and turns a memory fault
// into errShrunk instead of a crash: on Unix, reading a mapped page past
// the end of a file truncated meanwhile raises SIGBUS.
func (t *table) guard(read func()) (err error) {
	if t.broken.Load() {
		return fmt.Errorf("%s: %w", t.path, errShrunk)
	}
	prev := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(prev)
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			t.broken.Store(true)
			err = fmt.Errorf("%s: %w", t.path, errShrunk)
		}
	}()
	read()
	return nil
}

// Err is errShrunk (wrapped) once a read found the file shorter than when
// it was opened.
func (t *table) Err() error {
	if t.broken.Load() {
		return fmt.Errorf("%s: %w", t.path, errShrunk)
	}
	return nil
}

// Open maps a Polyglot book file. A size that is not a multiple of 16 is
// accepted with a warning (the tail is ignored, as PolyGlot does). A book
// of any format, told by its content, is opened by book/formats.
func Open(path string) (*book.Book, error) {
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
	t := &table{path: path}
	if book.OpenFilesBlockReplace {
		t.mapping, err = readWhole(f, size)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("open book %s: %w", path, err)
		}
	} else {
		t.file = f
		if t.mapping, err = mapFile(f, size); err != nil {
			f.Close()
			return nil, fmt.Errorf("open book %s: map: %w", path, err)
		}
	}
	t.data = t.mapping[:size-size%EntrySize]
	var warnings []string
	if tail := size % EntrySize; tail != 0 {
		warnings = append(warnings, fmt.Sprintf("%s: size %d is not a multiple of 16: the last %d byte(s) are ignored", path, size, tail))
	}
	return book.New(path, Format, t, nil, warnings), nil
}

// Close stops running scans, waits for them and unmaps the book.
func (t *table) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	t.mu.Unlock()
	t.stopping.Store(true)
	t.scans.Wait()
	var err error
	if t.file != nil { // mapped, not read into memory
		err = unmapFile(t.mapping)
		if cerr := t.file.Close(); err == nil {
			err = cerr
		}
	}
	t.mapping, t.data = nil, nil
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

// Warnings: a Polyglot table's are all found when it opens.
func (t *table) Warnings() []string { return nil }

// Len is the number of whole entries in the file, header entries included.
func (t *table) Len() int { return len(t.data) / EntrySize }

// Entry returns the i-th entry of the file.
func (t *table) Entry(i int) book.Entry { return DecodeEntry(t.data[i*EntrySize:]) }

func (t *table) keyAt(i int) board.Key {
	d := t.data[i*EntrySize:]
	return board.Key(uint64(d[0])<<56 | uint64(d[1])<<48 | uint64(d[2])<<40 | uint64(d[3])<<32 |
		uint64(d[4])<<24 | uint64(d[5])<<16 | uint64(d[6])<<8 | uint64(d[7]))
}

// beginScan registers a scan; false when the book is closed.
func (t *table) beginScan() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.scans.Add(1)
	return true
}

// lookup returns the index of the first entry with key k and how many
// entries follow with that key, by search: the answer assumes a sorted
// book (see Verify; Each handles unsorted ones).
func (t *table) lookup(k board.Key) (first, count int) {
	n := t.Len()
	i := t.lowerBound(k)
	j := i
	for j < n && t.keyAt(j) == k {
		j++
	}
	return i, j - i
}

// lowerBound is the index of the first entry with a key >= k. Polyglot
// keys are uniformly distributed, so interpolation lands near the answer
// in a few steps (a handful of cache misses instead of the ~23 of a
// binary search over 10 million entries: measured in BenchmarkProbe10M);
// a binary search finishes the last stretch and bounds the worst case.
func (t *table) lowerBound(k board.Key) int {
	lo, hi := 0, t.Len() // entries before lo are < k, entries from hi on are >= k
	for step := 0; step < 6 && hi-lo > 64; step++ {
		klo, khi := t.keyAt(lo), t.keyAt(hi-1)
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
		if t.keyAt(mid) < k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo + sort.Search(hi-lo, func(i int) bool { return t.keyAt(lo+i) >= k })
}

// found appends to buf every entry of key k in file order, null moves
// included. On a book Verify found unsorted it scans the whole file so
// that no entry is missed. A book that faulted (see Err) has no entries.
func (t *table) found(k board.Key, buf []book.Found) ([]book.Found, error) {
	if k == 0 || t.data == nil {
		return buf, nil
	}
	err := t.guard(func() {
		if t.unsorted.Load() {
			for i, n := 0, t.Len(); i < n; i++ {
				if t.keyAt(i) == k {
					buf = append(buf, book.Found{Index: i, Entry: t.Entry(i)})
				}
			}
			return
		}
		first, count := t.lookup(k)
		buf = slices.Grow(buf, count)
		for i := first; i < first+count; i++ {
			buf = append(buf, book.Found{Index: i, Entry: t.Entry(i)})
		}
	})
	return buf, err
}

// Probe appends pos's entries: those of its Polyglot key.
func (t *table) Probe(pos board.Position, buf []book.Found) ([]book.Found, error) {
	found, err := t.found(pos.Key(), buf)
	if err != nil {
		return buf, nil // the fault is the book's Err
	}
	return found, nil
}

// Find appends to buf every entry of key k in file order, null moves
// included; none once the mapping faulted (see Err).
func (t *table) Find(k board.Key, buf []book.Found) []book.Found {
	found, err := t.found(k, buf)
	if err != nil {
		return buf
	}
	return found
}
