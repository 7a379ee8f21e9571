package book

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
)

// Header is the optional @PG@ header: entries with key 0 at the start of
// the file whose other 8 bytes, joined, read
// "@PG@\nVERSION\nNEXTRA\nVARIANTCOUNT\nVARIANT...\nCOMMENT" padded with NULs.
type Header struct {
	Entries  int      `json:"entries"` // key-0 entries at the start of the file
	Version  string   `json:"version"`
	Variants []string `json:"variants"`
	Comment  string   `json:"comment"`
}

// HeaderEntries counts the key-0 entries at the start of the file: the
// @PG@ header, or entries that look like one.
func (b *Book) HeaderEntries() int {
	n := 0
	for n < b.Len() && b.keyAt(n) == 0 {
		n++
	}
	return n
}

// Header parses the @PG@ header. It reads only the leading key-0 entries
// (the book stays O(1) to open). It returns nil, nil for a book without
// key-0 entries and an error when they are not a well-formed header.
func (b *Book) Header() (*Header, error) {
	var n int
	var raw []byte
	if err := b.guard(func() {
		n = b.HeaderEntries()
		for i := 0; i < n; i++ {
			raw = append(raw, b.data[i*EntrySize+8:(i+1)*EntrySize]...)
		}
	}); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	h, err := parseHeader(raw)
	if err != nil {
		return nil, fmt.Errorf("%d entries with key 0 at the start: %w", n, err)
	}
	h.Entries = n
	return h, nil
}

func parseHeader(raw []byte) (*Header, error) {
	raw = bytes.TrimRight(raw, "\x00")
	fields := strings.Split(string(raw), "\n")
	if fields[0] != "@PG@" {
		return nil, fmt.Errorf("not a @PG@ header")
	}
	if len(fields) < 3 {
		return nil, fmt.Errorf("@PG@ header: missing version or field count")
	}
	h := &Header{Version: fields[1]}
	extra, err := strconv.Atoi(fields[2])
	if err != nil || extra < 0 || 3+extra > len(fields) {
		return nil, fmt.Errorf("@PG@ header: bad number of extra fields %q", fields[2])
	}
	// The extra fields are a variant count followed by the variant names.
	if extra > 0 {
		nv, err := strconv.Atoi(fields[3])
		if err != nil || nv != extra-1 {
			return nil, fmt.Errorf("@PG@ header: variant count %q does not match %d extra fields", fields[3], extra)
		}
		h.Variants = append(h.Variants, fields[4:3+extra]...)
	}
	h.Comment = strings.Join(fields[3+extra:], "\n")
	return h, nil
}

// OrderError reports the first entry whose key is smaller than the key
// before it.
type OrderError struct {
	Path  string
	Index int       // 0-based entry index
	Prev  board.Key // key of entry Index-1
	Key   board.Key
}

func (e *OrderError) Error() string {
	return fmt.Sprintf("%s: keys out of order at entry %d (key %s after %s): the book is not sorted", e.Path, e.Index, e.Key, e.Prev)
}

// scanStride is how many entries a scan reads between checks for Close.
const scanStride = 1 << 16

// Verify reads every key and returns an *OrderError for the first entry out
// of order, or nil for a sorted book. It may run on its own goroutine while
// the book is in use (it only reads), so a caller can open a huge book at
// once and validate it in the background; Close stops it with ErrClosed.
// Once it finds disorder, lookups on b switch to scanning the whole file,
// so an unsorted book still answers exactly (slowly) instead of missing
// moves.
func (b *Book) Verify() (err error) {
	if !b.beginScan() {
		return ErrClosed
	}
	defer b.scans.Done()
	if gerr := b.guard(func() { err = b.verify() }); gerr != nil {
		return gerr
	}
	return err
}

// verifyChunk is how much of the file verify reads at a time: the proxy
// checks its books once it has started, and the buffer stays resident for
// the rest of the run (nothing else allocates enough to collect it), so
// it is small. A 152 MB book took 15 ms with 64 KB, 12 ms with 256 KB and
// 23 ms with 32 KB (best of 42 runs each, on a loaded machine). It is a
// variable so that the buffer goes on the heap: a constant size this small
// puts it on the goroutine's stack, which then grows to 128 KB, and the
// runtime's walk of the frames to copy it maps more of the binary.
var verifyChunk = 64 << 10

// verify reads the keys with pread into one small buffer, not through the
// mapping: the pages are copied from the page cache and never mapped into
// us, so checking a 152 MB book adds 64 KB to the resident size instead
// of the whole file (and takes no page faults: faster too).
func (b *Book) verify() error {
	buf := make([]byte, verifyChunk)
	n := b.Len()
	var prev board.Key
	for first := 0; first < n; {
		if b.stopping.Load() {
			return ErrClosed
		}
		count := min(n-first, verifyChunk/EntrySize)
		var got int
		var err error
		if b.file != nil {
			got, err = b.file.ReadAt(buf[:count*EntrySize], int64(first)*EntrySize)
		} else { // read into memory when opened
			got = copy(buf[:count*EntrySize], b.data[first*EntrySize:])
		}
		if got < count*EntrySize {
			if err == io.EOF {
				// Shorter than the mapping: rewritten in place, as a
				// lookup would find with a fault.
				b.broken.Store(true)
				return fmt.Errorf("%s: %w", b.path, errShrunk)
			}
			return fmt.Errorf("%s: %w", b.path, err)
		}
		for i := range count {
			k := board.Key(binary.BigEndian.Uint64(buf[i*EntrySize:]))
			if first+i > 0 && k < prev {
				b.unsorted.Store(true)
				return &OrderError{Path: b.path, Index: first + i, Prev: prev, Key: k}
			}
			prev = k
		}
		first += count
	}
	return nil
}

// Unsorted reports whether Verify found keys out of order.
func (b *Book) Unsorted() bool { return b.unsorted.Load() }

// Stats summarises a whole book, for info-book.
type Stats struct {
	Entries       int     `json:"entries"`        // whole 16-byte entries, header included
	TrailingBytes int     `json:"trailing_bytes"` // bytes after the last whole entry (ignored)
	Header        *Header `json:"header"`         // nil when there is none
	HeaderError   string  `json:"header_error"`   // why leading key-0 entries are not a header
	HeaderEntries int     `json:"header_entries"` // leading key-0 entries
	Positions     int     `json:"positions"`      // distinct keys (runs of equal keys) outside the header
	Moves         int     `json:"moves"`          // entries outside the header
	NullMoves     int     `json:"null_moves"`     // move code 0 (ignored when choosing)
	BadPromo      int     `json:"bad_promo"`      // promotion codes 5-7 (never chosen)
	ZeroWeight    int     `json:"zero_weight"`    // weight 0 (never chosen)
	AllZero       int     `json:"all_zero"`       // positions whose weights are all 0 (no book move)
	MaxPerKey     int     `json:"max_per_key"`    // most entries of one key
	StrayKeyZero  int     `json:"stray_key_zero"` // key-0 entries after the header
	WeightSum     uint64  `json:"weight_sum"`
	WeightMax     uint16  `json:"weight_max"`
	LearnNonZero  int     `json:"learn_non_zero"` // entries with learn data
	LearnGames    uint64  `json:"learn_games"`    // sum of the learn fields' games (high 16 bits)
	LearnPoints   uint64  `json:"learn_points"`   // sum of their points (low 16 bits, in half points)
	FirstUnsorted int     `json:"first_unsorted"` // first entry out of order, -1 when sorted
}

// Warnings describes the problems Stats found, one line each.
func (s *Stats) Warnings() []string {
	var w []string
	if s.TrailingBytes != 0 {
		w = append(w, fmt.Sprintf("size is not a multiple of 16: the last %d byte(s) are ignored", s.TrailingBytes))
	}
	if s.HeaderError != "" {
		w = append(w, "header: "+s.HeaderError)
	}
	if s.FirstUnsorted >= 0 {
		w = append(w, fmt.Sprintf("keys out of order at entry %d: the book is not sorted (lookups must scan the whole file)", s.FirstUnsorted))
	}
	if s.StrayKeyZero != 0 {
		w = append(w, fmt.Sprintf("%d entries with key 0 after the header", s.StrayKeyZero))
	}
	if s.NullMoves != 0 {
		w = append(w, fmt.Sprintf("%d null moves (move code 0, ignored)", s.NullMoves))
	}
	if s.BadPromo != 0 {
		w = append(w, fmt.Sprintf("%d entries with an invalid promotion code 5-7 (never played)", s.BadPromo))
	}
	if s.ZeroWeight != 0 {
		w = append(w, fmt.Sprintf("%d entries with weight 0 (never played)", s.ZeroWeight))
	}
	if s.AllZero != 0 {
		w = append(w, fmt.Sprintf("%d positions whose weights are all 0 (no book move there)", s.AllZero))
	}
	return w
}

// Scan reads the whole book once and summarises it. Like Verify it may run
// on another goroutine and Close stops it with ErrClosed; it also switches
// an unsorted book to exact lookups.
func (b *Book) Scan() (s *Stats, err error) {
	if !b.beginScan() {
		return nil, ErrClosed
	}
	defer b.scans.Done()
	if gerr := b.guard(func() { s, err = b.scan() }); gerr != nil {
		return nil, gerr
	}
	return s, err
}

func (b *Book) scan() (*Stats, error) {
	s := &Stats{Entries: b.Len(), TrailingBytes: len(b.mapping) - len(b.data), FirstUnsorted: -1}
	s.HeaderEntries = b.HeaderEntries()
	if h, err := b.Header(); err != nil {
		s.HeaderError = err.Error()
	} else {
		s.Header = h
	}
	var prev board.Key
	run, runWeight := 0, uint64(0)
	endRun := func() {
		if run == 0 {
			return
		}
		s.Positions++
		if run > s.MaxPerKey {
			s.MaxPerKey = run
		}
		if runWeight == 0 {
			s.AllZero++
		}
	}
	for i := s.HeaderEntries; i < s.Entries; i++ {
		if i%scanStride == 0 && b.stopping.Load() {
			return nil, ErrClosed
		}
		e := b.Entry(i)
		if i > 0 && e.Key < prev && s.FirstUnsorted < 0 {
			s.FirstUnsorted = i
			b.unsorted.Store(true)
		}
		if e.Key == 0 {
			s.StrayKeyZero++
		}
		if i == s.HeaderEntries || e.Key != prev {
			endRun()
			run, runWeight = 0, 0
		}
		prev = e.Key
		run++
		runWeight += uint64(e.Weight)
		s.Moves++
		switch {
		case e.Move.IsNull():
			s.NullMoves++
		case e.Move.Promo() > board.PromoQueen:
			s.BadPromo++
		}
		if e.Weight == 0 {
			s.ZeroWeight++
		}
		s.WeightSum += uint64(e.Weight)
		s.WeightMax = max(s.WeightMax, e.Weight)
		if e.Learn != 0 {
			s.LearnNonZero++
			s.LearnGames += uint64(e.Learn.Games())
			s.LearnPoints += uint64(e.Learn.Points())
		}
	}
	endRun()
	return s, nil
}
