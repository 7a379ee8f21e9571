package polyglot_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := polyglot.Open(filepath.Join(dir, "missing.bin")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := polyglot.Open(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	if fifo := filepath.Join(dir, "fifo"); mkfifo(fifo) == nil {
		if _, err := polyglot.Open(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("fifo: %v", err)
		}
	}
	if os.Getuid() != 0 { // root reads anything
		p := filepath.Join(dir, "secret.bin")
		os.WriteFile(p, make([]byte, 16), 0o000)
		if _, err := polyglot.Open(p); err == nil {
			t.Error("unreadable file opened")
		}
	}
}

func TestEmptyBook(t *testing.T) {
	b := fixture.Open(t, "empty.bin")
	if b.Len() != 0 || len(b.Warnings()) != 0 {
		t.Errorf("len %d warnings %v", b.Len(), b.Warnings())
	}
	if err := b.Verify(); err != nil {
		t.Error(err)
	}
	if es := b.Entries(board.StartPosition().Key()); len(es) != 0 {
		t.Errorf("entries in an empty book: %v", es)
	}
	if h, err := polyglot.ReadHeader(b); h != nil || err != nil {
		t.Errorf("header %v %v", h, err)
	}
	s, err := polyglot.Scan(b)
	if err != nil || s.Positions != 0 || len(s.Warnings()) != 0 {
		t.Errorf("scan %+v %v", s, err)
	}
}

func TestTrailingByte(t *testing.T) {
	b := fixture.Open(t, "trailing.bin")
	if b.Len() != 4 {
		t.Errorf("len %d, want 4 whole entries", b.Len())
	}
	if w := b.Warnings(); len(w) != 1 || !strings.Contains(w[0], "last 1 byte") {
		t.Errorf("warnings %v", w)
	}
	if n := len(b.Entries(board.StartPosition().Key())); n != 3 {
		t.Errorf("%d start entries, want 3 (null move skipped)", n)
	}
	s, _ := polyglot.Scan(b)
	if s.TrailingBytes != 1 {
		t.Errorf("trailing bytes %d", s.TrailingBytes)
	}
}

func TestHeader(t *testing.T) {
	b := fixture.Open(t, "header.bin")
	h, err := polyglot.ReadHeader(b)
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != "1.0" || len(h.Variants) != 1 || h.Variants[0] != "normal" || h.Comment != "Synthetic test book for polyproxy" || h.Entries != 7 {
		t.Errorf("header %+v", h)
	}
	// Header entries are never moves, and the book still answers.
	if es := b.Entries(0); len(es) != 0 {
		t.Errorf("key 0 entries returned: %v", es)
	}
	if n := len(b.Entries(board.StartPosition().Key())); n != 3 {
		t.Errorf("%d start entries", n)
	}
	if err := b.Verify(); err != nil {
		t.Error(err)
	}
	s, _ := polyglot.Scan(b)
	if s.HeaderEntries != 7 || s.Header == nil || s.StrayKeyZero != 0 || s.Moves != s.Entries-7 {
		t.Errorf("scan %+v", s)
	}
}

func TestParseHeaderErrors(t *testing.T) {
	for _, raw := range []string{"hello", "@PG@", "@PG@\n1.0\nx", "@PG@\n1.0\n3\n1\nnormal", "@PG@\n1.0\n2\n5\nnormal\n"} {
		if _, err := polyglot.ParseHeader([]byte(raw)); err == nil {
			t.Errorf("%q parsed", raw)
		}
	}
	h, err := polyglot.ParseHeader([]byte("@PG@\n1.0\n0\n\x00\x00"))
	if err != nil || h.Version != "1.0" || len(h.Variants) != 0 || h.Comment != "" {
		t.Errorf("%+v %v", h, err)
	}
	// Key-0 entries that are not a header are reported, not fatal.
	b := fixture.WriteBook(t, append(make([]byte, 16), fixture.BookBytes(t, fixture.Oddities[:1])...))
	if _, err := polyglot.ReadHeader(b); err == nil {
		t.Error("zero entry accepted as a header")
	}
	s, err := polyglot.Scan(b)
	if err != nil || s.HeaderError == "" || s.Moves != 4 {
		t.Errorf("scan %+v %v", s, err)
	}
}

func TestUnsortedBook(t *testing.T) {
	b := fixture.Open(t, "unsorted.bin")
	// Opening does not scan, so nothing is known yet.
	if polyglot.Unsorted(b) {
		t.Fatal("unsorted before Verify")
	}
	err := b.Verify()
	var oe *polyglot.OrderError
	if !errors.As(err, &oe) || oe.Index != 1 {
		t.Fatalf("Verify: %v", err)
	}
	if !strings.Contains(err.Error(), "entry 1") {
		t.Errorf("message %q", err)
	}
	// After Verify every position is found, even the misplaced ones.
	for _, fp := range fixture.Oddities {
		if got := len(b.Entries(fixture.Key(t, fp.FEN))); got == 0 {
			t.Errorf("%s: no entries in the unsorted book", fp.Name)
		}
	}
	s, _ := polyglot.Scan(b)
	if s.FirstUnsorted != 1 {
		t.Errorf("scan first unsorted %d", s.FirstUnsorted)
	}
}

func TestOdditiesStats(t *testing.T) {
	b := fixture.Open(t, "oddities.bin")
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	s, err := polyglot.Scan(b)
	if err != nil {
		t.Fatal(err)
	}
	want := polyglot.Stats{Entries: 26, Positions: 10, Moves: 26, NullMoves: 1, BadPromo: 1, ZeroWeight: 3, AllZero: 1, MaxPerKey: 5,
		WeightSum: 61368, WeightMax: 60000, LearnNonZero: 1, LearnGames: 3, LearnPoints: 4, FirstUnsorted: -1}
	if *s != want {
		t.Errorf("stats\n got %+v\nwant %+v", *s, want)
	}
	if w := s.Warnings(); len(w) != 4 {
		t.Errorf("warnings %q", w)
	}
}

// Close stops a scan running on another goroutine and waits for it.
func TestCloseDuringVerify(t *testing.T) {
	data := make([]byte, 0, 16*300000)
	for i := 0; i < 300000; i++ {
		data = polyglot.AppendEntry(data, book.Entry{Key: board.Key(i + 1), Move: 0x31c, Weight: 1})
	}
	b := fixture.WriteBook(t, data)
	done := make(chan error)
	go func() { done <- b.Verify() }()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil && !errors.Is(err, book.ErrClosed) {
		t.Errorf("Verify after Close: %v", err)
	}
	if err := b.Verify(); !errors.Is(err, book.ErrClosed) {
		t.Errorf("Verify on a closed book: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestLookupMany(t *testing.T) {
	// Any number of entries per key, and keys around them untouched.
	var data []byte
	data = polyglot.AppendEntry(data, book.Entry{Key: 5, Move: 1, Weight: 1})
	for i := 0; i < 5000; i++ {
		data = polyglot.AppendEntry(data, book.Entry{Key: 7, Move: board.Move(i%4000 + 1), Weight: 1})
	}
	data = polyglot.AppendEntry(data, book.Entry{Key: 9, Move: 1, Weight: 1})
	b := fixture.WriteBook(t, data)
	if first, n := polyglot.Lookup(b, 7); first != 1 || n != 5000 {
		t.Errorf("Lookup(7) = %d, %d", first, n)
	}
	for _, k := range []board.Key{0, 4, 6, 8, 10} {
		if _, n := polyglot.Lookup(b, k); n != 0 {
			t.Errorf("Lookup(%d) found %d", k, n)
		}
	}
}

// lowerBound's interpolation must agree with a plain binary search on any
// sorted book: uniform keys, clustered keys, long runs of one key.
func TestLowerBoundMatchesBinarySearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 30; trial++ {
		n := 1 + rng.IntN(3000)
		keys := make([]board.Key, n)
		for i := range keys {
			switch trial % 3 {
			case 0:
				keys[i] = board.Key(rng.Uint64())
			case 1: // clustered near both ends
				if rng.IntN(2) == 0 {
					keys[i] = board.Key(rng.Uint64N(1000) + 1)
				} else {
					keys[i] = ^board.Key(0) - board.Key(rng.Uint64N(1000))
				}
			default: // few distinct keys, long runs
				keys[i] = board.Key(rng.Uint64N(5)+1) << 60
			}
		}
		slices.Sort(keys)
		var data []byte
		for _, k := range keys {
			data = polyglot.AppendEntry(data, book.Entry{Key: k, Move: 0x31c, Weight: 1})
		}
		b := fixture.WriteBook(t, data)
		probes := []board.Key{0, 1, ^board.Key(0), keys[0], keys[n-1], keys[0] - 1, keys[n-1] + 1}
		for i := 0; i < 300; i++ {
			probes = append(probes, keys[rng.IntN(n)], board.Key(rng.Uint64()), keys[rng.IntN(n)]+1)
		}
		for _, k := range probes {
			want := sort.Search(n, func(i int) bool { return keys[i] >= k })
			if got := polyglot.LowerBound(b, k); got != want {
				t.Fatalf("trial %d: lowerBound(%s) = %d, want %d", trial, k, got, want)
			}
		}
	}
}

// A book overwritten in place while open (cp new.bin book.bin truncates
// it first) must not crash the process: reads past the new end fault, and
// the book reports ErrShrunk instead.
func TestTruncatedWhileOpen(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows does not let a mapped file shrink")
	}
	path := filepath.Join(t.TempDir(), "book.bin")
	big := make([]byte, 0, 1<<17)
	for i := 0; i < 8000; i++ {
		big = polyglot.AppendEntry(big, book.Entry{Key: board.Key(i + 1), Move: 0x31c, Weight: 1})
	}
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := polyglot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if len(b.Entries(7000)) != 1 || b.Err() != nil {
		t.Fatal("book unreadable before truncation")
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	if es := b.Entries(7000); len(es) != 0 {
		t.Errorf("entries from a truncated file: %v", es)
	}
	if !errors.Is(b.Err(), polyglot.ErrShrunk) {
		t.Errorf("Err() = %v", b.Err())
	}
	if err := b.Verify(); !errors.Is(err, polyglot.ErrShrunk) {
		t.Errorf("Verify: %v", err)
	}
	if _, err := polyglot.Scan(b); !errors.Is(err, polyglot.ErrShrunk) {
		t.Errorf("Scan: %v", err)
	}
	l := fixture.Line(t, board.StartFEN, "")
	if d := book.NewChooser(fixture.PolyGlotOptions, 1).Choose(book.Both(b), book.Game{Line: l}); d.Chosen >= 0 || !strings.Contains(d.Reason, "shrank") {
		t.Errorf("Choose: %d %q", d.Chosen, d.Reason)
	}
}

// Verify reads the file in pieces: a key out of order is found wherever
// it is, also as the first key of a piece, and a file that shrank under
// the book is reported as such.
func TestVerifyAcrossReads(t *testing.T) {
	const n = 100_000 // more than one piece (16,384 entries of 16 bytes)
	for _, at := range []int{1, 16383, 16384, 16385, 3 * 16384, n - 1} {
		data := make([]byte, 0, 16*n)
		for i := 0; i < n; i++ {
			k := board.Key(10 * (i + 1))
			if i == at {
				k = board.Key(10*i - 5) // smaller than the key before it
			}
			data = polyglot.AppendEntry(data, book.Entry{Key: k, Move: 0x31c, Weight: 1})
		}
		b := fixture.WriteBook(t, data)
		var oe *polyglot.OrderError
		if err := b.Verify(); !errors.As(err, &oe) || oe.Index != at || !polyglot.Unsorted(b) {
			t.Errorf("disorder at %d: Verify %v", at, err)
		}
		b.Close()
	}
	path := filepath.Join(t.TempDir(), "shrinks.bin")
	data := make([]byte, 0, 16*n)
	for i := 0; i < n; i++ {
		data = polyglot.AppendEntry(data, book.Entry{Key: board.Key(i + 1), Move: 0x31c, Weight: 1})
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := polyglot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := os.Truncate(path, 16*20000); err != nil {
		t.Fatal(err)
	}
	if err := b.Verify(); !errors.Is(err, polyglot.ErrShrunk) || !errors.Is(b.Err(), polyglot.ErrShrunk) {
		t.Errorf("Verify of a shrunk file: %v (Err %v)", err, b.Err())
	}
}
