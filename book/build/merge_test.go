package build

import (
	"errors"
	"math/rand"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

func mustMove(t testing.TB, s string) board.Move {
	m, err := board.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// writeTestBook writes entries as given (sorted or not) and opens them.
func writeTestBook(t testing.TB, dir, name string, es []book.Entry) *book.Book {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := polyglot.WriteFile(path, es); err != nil {
		t.Fatal(err)
	}
	b, err := polyglot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// headerEntry is a key-0 entry with the given 8 bytes of header text.
func headerEntry(text string) book.Entry {
	var raw [polyglot.EntrySize]byte
	copy(raw[8:], text)
	return polyglot.DecodeEntry(raw[:])
}

// TestMergeRule: worked out by hand from PolyGlot's rule (checked against
// PolyGlot 2.0.4 itself where it does not overflow, see cmd_mergebook_test).
func TestMergeRule(t *testing.T) {
	dir := t.TempDir()
	m := func(s string) board.Move { return mustMove(t, s) }
	a := writeTestBook(t, dir, "a.bin", []book.Entry{
		headerEntry("@PG@\n1.0"), headerEntry("\n0\nA"),
		{Key: 5, Move: m("e2e4"), Weight: 10, Learn: 1<<16 | 2},
		{Key: 5, Move: m("d2d4"), Weight: 20, Learn: 2<<16 | 1},
		{Key: 5, Move: m("c2c4"), Weight: 30},
		{Key: 7, Move: m("g1f3"), Weight: 60000, Learn: 3<<16 | 3},
		{Key: 9, Move: m("a2a3"), Weight: 1, Learn: 1},
	})
	b := writeTestBook(t, dir, "b.bin", []book.Entry{
		headerEntry("@PG@\n1.0"), headerEntry("\n0\nB"),
		{Key: 3, Move: m("h2h3"), Weight: 4, Learn: 4},
		{Key: 5, Move: m("b2b4"), Weight: 7, Learn: 7},
		{Key: 5, Move: m("d2d4"), Weight: 5, Learn: 5<<16 | 5},
		{Key: 7, Move: m("g1f3"), Weight: 10000, Learn: 4<<16 | 4},
		{Key: 7, Move: m("b1c3"), Weight: 3, Learn: 3},
	})
	got, st, err := Merge(a, b, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []book.Entry{
		headerEntry("@PG@\n1.0"), headerEntry("\n0\nA"),
		{Key: 3, Move: m("h2h3"), Weight: 4, Learn: 4},
		{Key: 5, Move: m("e2e4"), Weight: 10, Learn: 1<<16 | 2},
		{Key: 5, Move: m("d2d4"), Weight: 25, Learn: 7<<16 | 6},
		{Key: 5, Move: m("c2c4"), Weight: 30},
		{Key: 5, Move: m("b2b4"), Weight: 7, Learn: 7},
		{Key: 7, Move: m("g1f3"), Weight: 65535, Learn: 7<<16 | 7},
		{Key: 7, Move: m("b1c3"), Weight: 3, Learn: 3},
		{Key: 9, Move: m("a2a3"), Weight: 1, Learn: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merge\n%v\nwant\n%v", got, want)
	}
	if st.Combined != 2 || st.Saturated != 1 || st.Header != "in1" || st.Written != len(want) {
		t.Errorf("stats %+v", st)
	}

	got, st, err = Merge(a, b, true)
	if err != nil {
		t.Fatal(err)
	}
	want = []book.Entry{
		headerEntry("@PG@\n1.0"), headerEntry("\n0\nA"),
		{Key: 5, Move: m("e2e4"), Weight: 10, Learn: 1<<16 | 2},
		{Key: 5, Move: m("d2d4"), Weight: 20, Learn: 7<<16 | 6},
		{Key: 5, Move: m("c2c4"), Weight: 30},
		{Key: 7, Move: m("g1f3"), Weight: 60000, Learn: 7<<16 | 7},
		{Key: 9, Move: m("a2a3"), Weight: 1, Learn: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("learn-only merge\n%v\nwant\n%v", got, want)
	}
	if st.Unmatched != 3 || st.Combined != 2 {
		t.Errorf("learn-only stats %+v", st)
	}

	// Without a header in A, B's header is used; B then A.
	plain := writeTestBook(t, dir, "plain.bin", []book.Entry{{Key: 5, Move: m("d2d4"), Weight: 1}})
	got, st, err = Merge(plain, b, false)
	if err != nil {
		t.Fatal(err)
	}
	if st.Header != "in2" || got[0] != headerEntry("@PG@\n1.0") || got[1] != headerEntry("\n0\nB") {
		t.Errorf("header from %q: %v", st.Header, got[:2])
	}
	if got[3].Key != 5 || got[3].Move != m("d2d4") || got[3].Weight != 6 || got[4].Move != m("b2b4") {
		t.Errorf("plain+b: %v", got)
	}
}

func TestMergeRejectsUnsorted(t *testing.T) {
	dir := t.TempDir()
	sorted := writeTestBook(t, dir, "s.bin", []book.Entry{{Key: 1, Move: 1, Weight: 1}})
	unsorted := writeTestBook(t, dir, "u.bin", []book.Entry{{Key: 2, Move: 1, Weight: 1}, {Key: 1, Move: 1, Weight: 1}})
	for _, pair := range [][2]*book.Book{{sorted, unsorted}, {unsorted, sorted}} {
		_, _, err := Merge(pair[0], pair[1], false)
		var oe *polyglot.OrderError
		if !errors.As(err, &oe) || oe.Index != 1 {
			t.Errorf("got %v, want an order error at entry 1", err)
		}
	}
}

// TestMergeRandomAgainstMap checks the merge of random books against a
// straightforward model: every (key, move) of both, weights summed and
// capped, each key's moves in A's order then B's.
func TestMergeRandomAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	gen := func(n int) []book.Entry {
		es := make([]book.Entry, n)
		for i := range es {
			es[i] = book.Entry{Key: board.Key(1 + rng.Intn(n/3+1)), Move: board.Move(1 + rng.Intn(12)), Weight: uint16(rng.Intn(40000)), Learn: book.Learn(rng.Uint32() & 0x00ff00ff)}
		}
		slices.SortStableFunc(es, func(x, y book.Entry) int { return cmpKey(x.Key, y.Key) })
		// Drop duplicate (key, move) pairs: the model assumes none.
		out := es[:0]
		seen := map[[2]uint64]bool{}
		for _, e := range es {
			if p := [2]uint64{uint64(e.Key), uint64(e.Move)}; !seen[p] {
				seen[p] = true
				out = append(out, e)
			}
		}
		return out
	}
	dir := t.TempDir()
	ea, eb := gen(3000), gen(2000)
	a, b := writeTestBook(t, dir, "a.bin", ea), writeTestBook(t, dir, "b.bin", eb)
	got, _, err := Merge(a, b, false)
	if err != nil {
		t.Fatal(err)
	}
	var want []book.Entry
	for _, k := range keysOf(ea, eb) {
		var run []book.Entry
		for _, e := range ea {
			if e.Key == k {
				run = append(run, e)
			}
		}
		for _, e := range eb {
			if e.Key != k {
				continue
			}
			i := slices.IndexFunc(run, func(r book.Entry) bool { return r.Move == e.Move })
			if i < 0 {
				run = append(run, e)
				continue
			}
			run[i].Weight = uint16(min(int(run[i].Weight)+int(e.Weight), 65535))
			run[i].Learn += e.Learn // no overflow: 8-bit values
		}
		want = append(want, run...)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("merge of random books differs from the model (%d and %d entries)", len(got), len(want))
	}
}

func cmpKey(a, b board.Key) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func keysOf(lists ...[]book.Entry) []board.Key {
	var ks []board.Key
	for _, l := range lists {
		for _, e := range l {
			ks = append(ks, e.Key)
		}
	}
	slices.Sort(ks)
	return slices.Compact(ks)
}

// BenchmarkMerge1M merges two generated 1,000,000-entry books (half of
// the keys shared) and writes the result: open, verify, merge, write,
// fsync, rename. Target: under 1 s.
func BenchmarkMerge1M(b *testing.B) {
	const n = 1_000_000
	rng := rand.New(rand.NewSource(1))
	shared := make([]board.Key, n/8)
	for i := range shared {
		shared[i] = board.Key(rng.Uint64())
	}
	gen := func() []book.Entry {
		es := make([]book.Entry, 0, n)
		for len(es) < n {
			k := board.Key(rng.Uint64())
			if rng.Intn(2) == 0 {
				k = shared[rng.Intn(len(shared))]
			}
			for m := 0; m < 4 && len(es) < n; m++ {
				es = append(es, book.Entry{Key: k, Move: board.Move(1 + rng.Intn(64)), Weight: uint16(rng.Intn(100)), Learn: book.Learn(rng.Uint32() & 0x00ff00ff)})
			}
		}
		slices.SortStableFunc(es, func(x, y book.Entry) int { return cmpKey(x.Key, y.Key) })
		return es
	}
	dir := b.TempDir()
	for _, name := range []string{"a.bin", "b.bin"} {
		if err := polyglot.WriteFile(filepath.Join(dir, name), gen()); err != nil {
			b.Fatal(err)
		}
	}
	out := filepath.Join(dir, "c.bin")
	b.ResetTimer()
	for b.Loop() {
		x, err := polyglot.Open(filepath.Join(dir, "a.bin"))
		if err != nil {
			b.Fatal(err)
		}
		y, err := polyglot.Open(filepath.Join(dir, "b.bin"))
		if err != nil {
			b.Fatal(err)
		}
		es, _, err := Merge(x, y, false)
		if err != nil {
			b.Fatal(err)
		}
		if err := polyglot.WriteFile(out, es); err != nil {
			b.Fatal(err)
		}
		x.Close()
		y.Close()
	}
}
