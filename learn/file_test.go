package learn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"testing"

	"github.com/polyproxy/polyproxy/book"
)

const performanceBook = "../../shared/books/performance.bin"

// copyBook copies a shared book into a temporary folder: shared books are
// never written in place.
func copyBook(t testing.TB, src string) string {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Skipf("real book not available: %v", err)
	}
	defer in.Close()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeBook writes a sorted book of the given entries.
func writeBook(t testing.TB, entries []book.Entry) string {
	t.Helper()
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Key < entries[j].Key })
	var b []byte
	for _, e := range entries {
		b = book.AppendEntry(b, e)
	}
	path := filepath.Join(t.TempDir(), "learn.bin")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// assertOnlyLearnBytesChanged fails when any byte differs between before
// and after except the learn fields of the entries listed.
func assertOnlyLearnBytesChanged(t testing.TB, before, after []byte, changed map[int]bool) {
	t.Helper()
	if len(before) != len(after) {
		t.Fatalf("file size changed: %d -> %d", len(before), len(after))
	}
	for i := range before {
		entry, off := i/book.EntrySize, i%book.EntrySize
		if before[i] != after[i] && !(off >= learnOffset && changed[entry]) {
			t.Fatalf("byte %d (entry %d offset %d) changed: %#x -> %#x", i, entry, off, before[i], after[i])
		}
	}
}

func learnAt(data []byte, i int) Field {
	return Field(binary.BigEndian.Uint32(data[i*book.EntrySize+learnOffset:]))
}

// pickEntries returns n entries of a real book with counters low enough
// that adding thousands of results never triggers halving.
func pickEntries(t testing.TB, data []byte, n int) []int {
	var out []int
	var last book.Key
	for i := 0; i+1 < len(data)/book.EntrySize && len(out) < n; i += 997 {
		e := book.DecodeEntry(data[i*book.EntrySize:])
		if e.Key == 0 || e.Key == last || e.Move.IsNull() || Field(e.Learn).Games() > 50000 || Field(e.Learn).Points() > 40000 {
			continue
		}
		// Only the first entry with this key and move is ever updated.
		if f, _ := firstMatch(data, e.Key, e.Move); f != i {
			continue
		}
		last = e.Key
		out = append(out, i)
	}
	if len(out) < n {
		t.Fatalf("only %d usable entries", len(out))
	}
	return out
}

func firstMatch(data []byte, k book.Key, m book.Move) (int, bool) {
	for i := 0; i < len(data)/book.EntrySize; i++ {
		e := book.DecodeEntry(data[i*book.EntrySize:])
		if e.Key == k && e.Move == m {
			return i, true
		}
	}
	return -1, false
}

func TestApplyWritesOnlyLearnBytes(t *testing.T) {
	path := copyBook(t, performanceBook)
	before := readFile(t, path)
	idx := pickEntries(t, before, 3)
	e0 := book.DecodeEntry(before[idx[0]*book.EntrySize:])
	e1 := book.DecodeEntry(before[idx[1]*book.EntrySize:])

	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	changes, err := f.Apply([]Update{
		{e0.Key, e0.Move, Win},
		{e1.Key, e1.Move, Loss},
		{e0.Key, e0.Move, Draw},
		{e1.Key, e1.Move ^ 0x0fff, Win}, // a move the position does not have in the book
		{book.Key(0x0123456789abcdef), e0.Move, Win},
	})
	if err != nil {
		t.Fatal(err)
	}
	after := readFile(t, path)
	assertOnlyLearnBytesChanged(t, before, after, map[int]bool{idx[0]: true, idx[1]: true})

	want0 := Field(e0.Learn).Add(Win).Add(Draw)
	want1 := Field(e1.Learn).Add(Loss)
	if got := learnAt(after, idx[0]); got != want0 {
		t.Errorf("entry %d: %v, want %v", idx[0], got, want0)
	}
	if got := learnAt(after, idx[1]); got != want1 {
		t.Errorf("entry %d: %v, want %v", idx[1], got, want1)
	}
	if len(changes) != 4 {
		t.Fatalf("%d changes, want 4 (one per distinct entry): %+v", len(changes), changes)
	}
	if c := changes[0]; c.Index != idx[0] || c.Results != 2 || c.Before != Field(e0.Learn) || c.After != want0 {
		t.Errorf("change 0: %+v", c)
	}
	if changes[2].Found() || changes[3].Found() {
		t.Errorf("missing entries reported found: %+v %+v", changes[2], changes[3])
	}
}

func TestPreviewWritesNothing(t *testing.T) {
	path := copyBook(t, performanceBook)
	before := readFile(t, path)
	idx := pickEntries(t, before, 1)
	e := book.DecodeEntry(before[idx[0]*book.EntrySize:])
	f, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	changes, err := f.Preview([]Update{{e.Key, e.Move, Win}})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].After != Field(e.Learn).Add(Win) {
		t.Fatalf("preview: %+v", changes)
	}
	if _, err := f.Apply([]Update{{e.Key, e.Move, Win}}); err == nil {
		t.Fatal("Apply on a read-only book succeeded")
	}
	if !bytes.Equal(before, readFile(t, path)) {
		t.Fatal("preview changed the book")
	}
}

func TestFindEveryKeyOfASmallBook(t *testing.T) {
	// Several moves per key, keys at both ends of the file, a header entry.
	var entries []book.Entry
	entries = append(entries, book.Entry{Key: 0, Move: 0, Learn: 0xdeadbeef})
	for k := 1; k <= 40; k++ {
		for m := 1; m <= k%4+1; m++ {
			entries = append(entries, book.Entry{Key: book.Key(uint64(k) * 0x0400000000000001), Move: book.Move(m), Weight: uint16(k), Learn: uint32(k*10 + m)})
		}
	}
	path := writeBook(t, entries)
	data := readFile(t, path)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := len(data) / book.EntrySize
	for i := 0; i < n; i++ {
		e := book.DecodeEntry(data[i*book.EntrySize:])
		idx, learn, err := f.find(e.Key, e.Move, n)
		if err != nil {
			t.Fatal(err)
		}
		if e.Key == 0 {
			if idx != -1 {
				t.Errorf("header entry found at %d", idx)
			}
			continue
		}
		if idx != i || learn != Field(e.Learn) {
			t.Errorf("find(%v, %v) = %d %v, want %d %v", e.Key, e.Move, idx, learn, i, Field(e.Learn))
		}
		if idx, _, _ := f.find(e.Key+1, e.Move, n); idx != -1 {
			t.Errorf("absent key %v found at %d", e.Key+1, idx)
		}
	}
}

// findAgainstLinearScan checks find on every step-th entry of a book, and
// on absent keys and moves, against a plain linear scan.
func findAgainstLinearScan(t *testing.T, path string, step int) {
	t.Helper()
	data := readFile(t, path)
	n := len(data) / book.EntrySize
	first := map[entryID]int{}
	keys := map[book.Key]bool{}
	for i := 0; i < n; i++ {
		e := book.DecodeEntry(data[i*book.EntrySize:])
		keys[e.Key] = true
		if _, ok := first[entryID{e.Key, e.Move}]; !ok {
			first[entryID{e.Key, e.Move}] = i
		}
	}
	f, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := 0; i < n; i += step {
		e := book.DecodeEntry(data[i*book.EntrySize:])
		want := first[entryID{e.Key, e.Move}]
		if e.Key == 0 {
			want = -1
		}
		idx, learn, err := f.find(e.Key, e.Move, n)
		if err != nil {
			t.Fatal(err)
		}
		if idx != want || (idx >= 0 && learn != learnAt(data, idx)) {
			t.Fatalf("find(%v, %v) = %d, want %d", e.Key, e.Move, idx, want)
		}
		if idx, _, _ := f.find(e.Key, 0x7fff, n); idx != -1 {
			t.Fatalf("absent move of key %v found at %d", e.Key, idx)
		}
		for _, k := range []book.Key{e.Key - 1, e.Key + 1} {
			if !keys[k] {
				if idx, _, _ := f.find(k, e.Move, n); idx != -1 {
					t.Fatalf("absent key %v found at %d", k, idx)
				}
			}
		}
	}
}

func TestFindInARealBook(t *testing.T) {
	findAgainstLinearScan(t, copyBook(t, performanceBook), 53)
}

// Keys crowded at one end and duplicated make interpolation guess badly:
// the search must still be exact.
func TestFindInAnUnevenBook(t *testing.T) {
	var entries []book.Entry
	for i := 1; i <= 3000; i++ {
		k := book.Key(uint64(i) * uint64(i) * uint64(i))
		if i%500 == 0 {
			k = book.Key(^uint64(0) - uint64(i))
		}
		for m := 0; m < 1+i%3; m++ {
			entries = append(entries, book.Entry{Key: k, Move: book.Move(m + 1), Learn: uint32(i)})
		}
	}
	findAgainstLinearScan(t, writeBook(t, entries), 5)
}

func TestApplyToAnUnsortedBook(t *testing.T) {
	var data []byte
	keys := []book.Key{0x9000000000000000, 0x1000000000000000, 0x5000000000000000, 0x3000000000000000}
	for i, k := range keys {
		data = book.AppendEntry(data, book.Entry{Key: k, Move: book.Move(i + 1), Weight: 7, Learn: uint32(i)})
	}
	path := filepath.Join(t.TempDir(), "unsorted.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var updates []Update
	for i, k := range keys {
		updates = append(updates, Update{k, book.Move(i + 1), Win})
	}
	changes, err := f.Apply(updates)
	if err != nil {
		t.Fatal(err)
	}
	after := readFile(t, path)
	for i := range keys {
		if !changes[i].Found() || learnAt(after, i) != Field(i).Add(Win) {
			t.Errorf("entry %d: %+v, learn %v", i, changes[i], learnAt(after, i))
		}
	}
	assertOnlyLearnBytesChanged(t, data, after, map[int]bool{0: true, 1: true, 2: true, 3: true})
}

func TestApplyFollowsAReplacedBook(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows may refuse to rename over an open file")
	}
	e := book.Entry{Key: 0x1234, Move: 0x0123, Weight: 5, Learn: uint32(MakeField(1, 1))}
	path := writeBook(t, []book.Entry{e})
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A book writer replaces the file by renaming a new one over it.
	e.Learn = uint32(MakeField(9, 9))
	fresh := path + ".new"
	if err := os.WriteFile(fresh, book.AppendEntry(nil, e), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fresh, path); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Apply([]Update{{e.Key, e.Move, Win}}); err != nil {
		t.Fatal(err)
	}
	if got := learnAt(readFile(t, path), 0); got != MakeField(10, 11) {
		t.Fatalf("the book at the path has %v, want the update on top of 9 games 9 points", got)
	}
}

func TestOpenUnwritableBook(t *testing.T) {
	if _, err := Open(t.TempDir()); err == nil {
		t.Error("a folder opened as a book")
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none.bin")); err == nil {
		t.Error("a missing file opened as a book")
	}
}

const (
	helperEnv     = "POLYPROXY_LEARN_HELPER"
	helperUpdates = 1000
	helperProcs   = 8
)

// helperUpdate is the j-th update of process p: four entries in turn,
// results varying with p and j so that every process adds different points.
func helperUpdate(p, j int, entries []book.Entry) Update {
	e := entries[j%len(entries)]
	return Update{e.Key, e.Move, Result((p + j/len(entries)) % 3)}
}

// TestHelperProcess is not a test: it is the child of
// TestConcurrentProcesses, one process applying its updates one by one.
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("only run as a helper process")
	}
	p, _ := strconv.Atoi(os.Getenv(helperEnv + "_P"))
	var entries []book.Entry
	for _, s := range filepath.SplitList(os.Getenv(helperEnv + "_ENTRIES")) {
		k, m := uint64(0), uint64(0)
		fmt.Sscanf(s, "%x/%x", &k, &m)
		entries = append(entries, book.Entry{Key: book.Key(k), Move: book.Move(m)})
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for j := 0; j < helperUpdates; j++ {
		c, err := f.Apply([]Update{helperUpdate(p, j, entries)})
		if err != nil {
			t.Fatal(err)
		}
		if len(c) != 1 || !c[0].Found() {
			t.Fatalf("update %d: entry not found: %+v", j, c)
		}
	}
}

func TestConcurrentProcesses(t *testing.T) {
	path := copyBook(t, performanceBook)
	before := readFile(t, path)
	idx := pickEntries(t, before, 4)
	var entries []book.Entry
	var list []string
	changed := map[int]bool{}
	for _, i := range idx {
		e := book.DecodeEntry(before[i*book.EntrySize:])
		entries = append(entries, e)
		list = append(list, fmt.Sprintf("%x/%x", uint64(e.Key), uint16(e.Move)))
		changed[i] = true
	}

	var cmds []*exec.Cmd
	var outputs []*bytes.Buffer
	for p := 0; p < helperProcs; p++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperEnv+"="+path, fmt.Sprintf("%s_P=%d", helperEnv, p),
			helperEnv+"_ENTRIES="+joinList(list))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		outputs = append(outputs, &out)
	}
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper %d: %v\n%s", p, err, outputs[p])
		}
	}

	// No halving can happen with these entries, so the order of the
	// updates does not matter: the totals are exact.
	want := map[int]Field{}
	for n, i := range idx {
		games, points := int(Field(entries[n].Learn).Games()), int(Field(entries[n].Learn).Points())
		for p := 0; p < helperProcs; p++ {
			for j := n; j < helperUpdates; j += len(entries) {
				games++
				points += int(helperUpdate(p, j, entries).Result.Points())
			}
		}
		want[i] = MakeField(uint16(games), uint16(points))
	}
	after := readFile(t, path)
	assertOnlyLearnBytesChanged(t, before, after, changed)
	for _, i := range idx {
		if got := learnAt(after, i); got != want[i] {
			t.Errorf("entry %d: %v, want %v (updates lost)", i, got, want[i])
		}
	}
}

func joinList(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += string(os.PathListSeparator)
		}
		out += v
	}
	return out
}

func BenchmarkApplyOne(b *testing.B) {
	path := copyBook(b, performanceBook)
	data := readFile(b, path)
	idx := pickEntries(b, data, 4)
	var updates []Update
	for _, i := range idx {
		e := book.DecodeEntry(data[i*book.EntrySize:])
		updates = append(updates, Update{e.Key, e.Move, Draw})
	}
	f, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Apply(updates[i%len(updates) : i%len(updates)+1]); err != nil {
			b.Fatal(err)
		}
	}
}

// Goroutines sharing one File, and Files of the same book in one process,
// exclude each other too.
func TestConcurrentGoroutines(t *testing.T) {
	e := book.Entry{Key: 0x4242, Move: 0x0101, Weight: 1}
	path := writeBook(t, []book.Entry{e})
	shared, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	const workers, each = 6, 200
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func() {
			f := shared
			if w%2 == 1 { // its own descriptor
				own, err := Open(path)
				if err != nil {
					errs <- err
					return
				}
				defer own.Close()
				f = own
			}
			for i := 0; i < each; i++ {
				if _, err := f.Apply([]Update{{e.Key, e.Move, Win}}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := learnAt(readFile(t, path), 0); got != MakeField(workers*each, 2*workers*each) {
		t.Fatalf("%v, want %d games", got, workers*each)
	}
}
