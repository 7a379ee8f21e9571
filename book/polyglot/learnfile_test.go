package polyglot_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// sampleBook writes a sorted book of 60,000 entries with keys spread as
// real books' are (Zobrist keys are uniform), one to four moves a key and
// learn fields of every size, some near overflow.
func sampleBook(t testing.TB) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	var entries []book.Entry
	for len(entries) < 60000 {
		k := board.Key(rng.Uint64())
		for m := 0; m <= rng.IntN(4); m++ {
			games := uint16(rng.IntN(1 << uint(rng.IntN(17))))
			entries = append(entries, book.Entry{Key: k, Move: board.Move(0x100 + m), Weight: uint16(rng.IntN(1000)), Learn: book.MakeLearn(int64(games), int64(games))})
		}
	}
	return fixture.WriteEntries(t, entries)
}

// pickEntries returns n entries of a real book with counters low enough
// that adding thousands of results never triggers halving.
func pickEntries(t testing.TB, data []byte, n int) []int {
	var out []int
	var last board.Key
	for i := 0; i+1 < len(data)/polyglot.EntrySize && len(out) < n; i += 997 {
		e := polyglot.DecodeEntry(data[i*polyglot.EntrySize:])
		if e.Key == 0 || e.Key == last || e.Move.IsNull() || book.Learn(e.Learn).Games() > 50000 || book.Learn(e.Learn).Points() > 40000 {
			continue
		}
		// Only the first entry with this key and move is ever updated.
		if f, _ := fixture.FirstMatch(data, e.Key, e.Move); f != i {
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

func TestApplyWritesOnlyLearnBytes(t *testing.T) {
	path := sampleBook(t)
	before := fixture.ReadFile(t, path)
	idx := pickEntries(t, before, 3)
	e0 := polyglot.DecodeEntry(before[idx[0]*polyglot.EntrySize:])
	e1 := polyglot.DecodeEntry(before[idx[1]*polyglot.EntrySize:])

	f, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	changes, err := f.Apply(t.Context(), []book.LearnUpdate{
		{Key: e0.Key, Move: e0.Move, Result: book.Win},
		{Key: e1.Key, Move: e1.Move, Result: book.Loss},
		{Key: e0.Key, Move: e0.Move, Result: book.Draw},
		{Key: e1.Key, Move: e1.Move ^ 0x0fff, Result: book.Win}, // a move the position does not have in the book
		{Key: board.Key(0x0123456789abcdef), Move: e0.Move, Result: book.Win},
	})
	if err != nil {
		t.Fatal(err)
	}
	after := fixture.ReadFile(t, path)
	fixture.AssertOnlyLearnChanged(t, before, after, map[int]bool{idx[0]: true, idx[1]: true})

	want0 := book.Learn(e0.Learn).Add(book.Win).Add(book.Draw)
	want1 := book.Learn(e1.Learn).Add(book.Loss)
	if got := fixture.LearnAt(after, idx[0]); got != want0 {
		t.Errorf("entry %d: %v, want %v", idx[0], got, want0)
	}
	if got := fixture.LearnAt(after, idx[1]); got != want1 {
		t.Errorf("entry %d: %v, want %v", idx[1], got, want1)
	}
	if len(changes) != 4 {
		t.Fatalf("%d changes, want 4 (one per distinct entry): %+v", len(changes), changes)
	}
	if c := changes[0]; c.Index != idx[0] || c.Results != 2 || c.Before != book.Learn(e0.Learn) || c.After != want0 {
		t.Errorf("change 0: %+v", c)
	}
	if changes[2].Found() || changes[3].Found() {
		t.Errorf("missing entries reported found: %+v %+v", changes[2], changes[3])
	}
}

func TestPreviewWritesNothing(t *testing.T) {
	path := sampleBook(t)
	before := fixture.ReadFile(t, path)
	idx := pickEntries(t, before, 1)
	e := polyglot.DecodeEntry(before[idx[0]*polyglot.EntrySize:])
	f, err := book.OpenLearnFileReadOnly(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	changes, err := f.Preview(t.Context(), []book.LearnUpdate{{Key: e.Key, Move: e.Move, Result: book.Win}})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].After != book.Learn(e.Learn).Add(book.Win) {
		t.Fatalf("preview: %+v", changes)
	}
	if _, err := f.Apply(t.Context(), []book.LearnUpdate{{Key: e.Key, Move: e.Move, Result: book.Win}}); err == nil {
		t.Fatal("Apply on a read-only book succeeded")
	}
	if !bytes.Equal(before, fixture.ReadFile(t, path)) {
		t.Fatal("preview changed the book")
	}
}

func TestFindEveryKeyOfASmallBook(t *testing.T) {
	// Several moves per key, keys at both ends of the file, a header entry.
	var entries []book.Entry
	entries = append(entries, book.Entry{Key: 0, Move: 0, Learn: 0xdeadbeef})
	for k := 1; k <= 40; k++ {
		for m := 1; m <= k%4+1; m++ {
			entries = append(entries, book.Entry{Key: board.Key(uint64(k) * 0x0400000000000001), Move: board.Move(m), Weight: uint16(k), Learn: book.Learn(k*10 + m)})
		}
	}
	path := fixture.WriteEntries(t, entries)
	data := fixture.ReadFile(t, path)
	f := fixture.OpenPath(t, path)
	n := len(data) / polyglot.EntrySize
	for i := 0; i < n; i++ {
		e := polyglot.DecodeEntry(data[i*polyglot.EntrySize:])
		idx, learn, err := polyglot.IndexOf(f, e.Key, e.Move)
		if err != nil {
			t.Fatal(err)
		}
		if e.Key == 0 {
			if idx != -1 {
				t.Errorf("header entry found at %d", idx)
			}
			continue
		}
		if idx != i || learn != book.Learn(e.Learn) {
			t.Errorf("find(%v, %v) = %d %v, want %d %v", e.Key, e.Move, idx, learn, i, book.Learn(e.Learn))
		}
		if idx, _, _ := polyglot.IndexOf(f, e.Key+1, e.Move); idx != -1 {
			t.Errorf("absent key %v found at %d", e.Key+1, idx)
		}
	}
}

// findAgainstLinearScan checks find on every step-th entry of a book, and
// on absent keys and moves, against a plain linear scan.
func findAgainstLinearScan(t *testing.T, path string, step int) {
	t.Helper()
	data := fixture.ReadFile(t, path)
	n := len(data) / polyglot.EntrySize
	first := map[[2]uint64]int{}
	keys := map[board.Key]bool{}
	for i := 0; i < n; i++ {
		e := polyglot.DecodeEntry(data[i*polyglot.EntrySize:])
		keys[e.Key] = true
		if _, ok := first[[2]uint64{uint64(e.Key), uint64(e.Move)}]; !ok {
			first[[2]uint64{uint64(e.Key), uint64(e.Move)}] = i
		}
	}
	f := fixture.OpenPath(t, path)
	for i := 0; i < n; i += step {
		e := polyglot.DecodeEntry(data[i*polyglot.EntrySize:])
		want := first[[2]uint64{uint64(e.Key), uint64(e.Move)}]
		if e.Key == 0 {
			want = -1
		}
		idx, learn, err := polyglot.IndexOf(f, e.Key, e.Move)
		if err != nil {
			t.Fatal(err)
		}
		if idx != want || (idx >= 0 && learn != fixture.LearnAt(data, idx)) {
			t.Fatalf("find(%v, %v) = %d, want %d", e.Key, e.Move, idx, want)
		}
		if idx, _, _ := polyglot.IndexOf(f, e.Key, 0x7fff); idx != -1 {
			t.Fatalf("absent move of key %v found at %d", e.Key, idx)
		}
		for _, k := range []board.Key{e.Key - 1, e.Key + 1} {
			if !keys[k] {
				if idx, _, _ := polyglot.IndexOf(f, k, e.Move); idx != -1 {
					t.Fatalf("absent key %v found at %d", k, idx)
				}
			}
		}
	}
}

func TestFindInARealBook(t *testing.T) {
	findAgainstLinearScan(t, sampleBook(t), 211)
}

// Keys crowded at one end and duplicated make interpolation guess badly:
// the search must still be exact.
func TestFindInAnUnevenBook(t *testing.T) {
	var entries []book.Entry
	for i := 1; i <= 3000; i++ {
		k := board.Key(uint64(i) * uint64(i) * uint64(i))
		if i%500 == 0 {
			k = board.Key(^uint64(0) - uint64(i))
		}
		for m := 0; m < 1+i%3; m++ {
			entries = append(entries, book.Entry{Key: k, Move: board.Move(m + 1), Learn: book.Learn(i)})
		}
	}
	findAgainstLinearScan(t, fixture.WriteEntries(t, entries), 5)
}

func TestApplyToAnUnsortedBook(t *testing.T) {
	var data []byte
	keys := []board.Key{0x9000000000000000, 0x1000000000000000, 0x5000000000000000, 0x3000000000000000}
	for i, k := range keys {
		data = polyglot.AppendEntry(data, book.Entry{Key: k, Move: board.Move(i + 1), Weight: 7, Learn: book.Learn(i)})
	}
	path := filepath.Join(t.TempDir(), "unsorted.bin")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var updates []book.LearnUpdate
	for i, k := range keys {
		updates = append(updates, book.LearnUpdate{Key: k, Move: board.Move(i + 1), Result: book.Win})
	}
	changes, err := f.Apply(t.Context(), updates)
	if err != nil {
		t.Fatal(err)
	}
	after := fixture.ReadFile(t, path)
	for i := range keys {
		if !changes[i].Found() || fixture.LearnAt(after, i) != book.Learn(i).Add(book.Win) {
			t.Errorf("entry %d: %+v, learn %v", i, changes[i], fixture.LearnAt(after, i))
		}
	}
	fixture.AssertOnlyLearnChanged(t, data, after, map[int]bool{0: true, 1: true, 2: true, 3: true})
}

// oneEntryLearnBook writes a book of one entry (1 game, 1 point) and opens
// it for learning until the test ends.
func oneEntryLearnBook(t *testing.T) (book.Entry, string, *book.LearnFile) {
	t.Helper()
	e := book.Entry{Key: 0x1234, Move: 0x0123, Weight: 5, Learn: book.MakeLearn(1, 1)}
	path := fixture.WriteEntries(t, []book.Entry{e})
	f, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return e, path, f
}

func TestApplyFollowsAReplacedBook(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows may refuse to rename over an open file")
	}
	e, path, f := oneEntryLearnBook(t)
	// A book writer replaces the file by renaming a new one over it.
	e.Learn = book.MakeLearn(9, 9)
	fresh := path + ".new"
	if err := os.WriteFile(fresh, polyglot.AppendEntry(nil, e), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fresh, path); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Apply(t.Context(), []book.LearnUpdate{{Key: e.Key, Move: e.Move, Result: book.Win}}); err != nil {
		t.Fatal(err)
	}
	if got := fixture.LearnAt(fixture.ReadFile(t, path), 0); got != book.MakeLearn(10, 11) {
		t.Fatalf("the book at the path has %v, want the update on top of 9 games 9 points", got)
	}
}

// A book deleted while open for learning: the updates are refused, not
// written to a file nobody can read again.
func TestApplyToADeletedBook(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows may refuse to delete an open file")
	}
	e, path, f := oneEntryLearnBook(t)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	for _, run := range []func(context.Context, []book.LearnUpdate) ([]book.LearnChange, error){f.Apply, f.Preview} {
		changes, err := run(t.Context(), []book.LearnUpdate{{Key: e.Key, Move: e.Move, Result: book.Win}})
		if !errors.Is(err, book.ErrBookDeleted) || !strings.Contains(err.Error(), path) || changes != nil {
			t.Fatalf("got %v, %v; want ErrBookDeleted naming %s", changes, err, path)
		}
	}
	// The same path written again is a book again.
	if err := os.WriteFile(path, polyglot.AppendEntry(nil, e), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Apply(t.Context(), []book.LearnUpdate{{Key: e.Key, Move: e.Move, Result: book.Win}}); err != nil {
		t.Fatal(err)
	}
	if got := fixture.LearnAt(fixture.ReadFile(t, path), 0); got != book.MakeLearn(2, 3) {
		t.Fatalf("the new book at the path has %v", got)
	}
}

func TestOpenUnwritableBook(t *testing.T) {
	if _, err := book.OpenLearnFile(t.TempDir(), polyglot.Format); err == nil {
		t.Error("a folder opened as a book")
	}
	if _, err := book.OpenLearnFile(filepath.Join(t.TempDir(), "none.bin"), polyglot.Format); err == nil {
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
func helperUpdate(p, j int, entries []book.Entry) book.LearnUpdate {
	e := entries[j%len(entries)]
	return book.LearnUpdate{Key: e.Key, Move: e.Move, Result: book.Result((p + j/len(entries)) % 3)}
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
		entries = append(entries, book.Entry{Key: board.Key(k), Move: board.Move(m)})
	}
	f, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for j := 0; j < helperUpdates; j++ {
		c, err := f.Apply(t.Context(), []book.LearnUpdate{helperUpdate(p, j, entries)})
		if err != nil {
			t.Fatal(err)
		}
		if len(c) != 1 || !c[0].Found() {
			t.Fatalf("update %d: entry not found: %+v", j, c)
		}
	}
}

func TestConcurrentProcesses(t *testing.T) {
	path := sampleBook(t)
	before := fixture.ReadFile(t, path)
	idx := pickEntries(t, before, 4)
	var entries []book.Entry
	var list []string
	changed := map[int]bool{}
	for _, i := range idx {
		e := polyglot.DecodeEntry(before[i*polyglot.EntrySize:])
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
	want := map[int]book.Learn{}
	for n, i := range idx {
		games, points := int(book.Learn(entries[n].Learn).Games()), int(book.Learn(entries[n].Learn).Points())
		for p := 0; p < helperProcs; p++ {
			for j := n; j < helperUpdates; j += len(entries) {
				games++
				points += int(helperUpdate(p, j, entries).Result)
			}
		}
		want[i] = book.MakeLearn(int64(games), int64(points))
	}
	after := fixture.ReadFile(t, path)
	fixture.AssertOnlyLearnChanged(t, before, after, changed)
	for _, i := range idx {
		if got := fixture.LearnAt(after, i); got != want[i] {
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
	path := sampleBook(b)
	data := fixture.ReadFile(b, path)
	idx := pickEntries(b, data, 4)
	var updates []book.LearnUpdate
	for _, i := range idx {
		e := polyglot.DecodeEntry(data[i*polyglot.EntrySize:])
		updates = append(updates, book.LearnUpdate{Key: e.Key, Move: e.Move, Result: book.Draw})
	}
	f, err := book.OpenLearnFile(path, polyglot.Format)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Apply(b.Context(), updates[i%len(updates):i%len(updates)+1]); err != nil {
			b.Fatal(err)
		}
	}
}

// Goroutines sharing one File, and Files of the same book in one process,
// exclude each other too.
func TestConcurrentGoroutines(t *testing.T) {
	e := book.Entry{Key: 0x4242, Move: 0x0101, Weight: 1}
	path := fixture.WriteEntries(t, []book.Entry{e})
	shared, err := book.OpenLearnFile(path, polyglot.Format)
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
				own, err := book.OpenLearnFile(path, polyglot.Format)
				if err != nil {
					errs <- err
					return
				}
				defer own.Close()
				f = own
			}
			for i := 0; i < each; i++ {
				if _, err := f.Apply(t.Context(), []book.LearnUpdate{{Key: e.Key, Move: e.Move, Result: book.Win}}); err != nil {
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
	if got := fixture.LearnAt(fixture.ReadFile(t, path), 0); got != book.MakeLearn(workers*each, 2*workers*each) {
		t.Fatalf("%v, want %d games", got, workers*each)
	}
}

// readOnlyFormat is a format results cannot be learned into (no Learn).
type readOnlyFormat struct{}

func (readOnlyFormat) Name() string                         { return "ReadOnly" }
func (readOnlyFormat) Ext() string                          { return ".ro" }
func (readOnlyFormat) Fits(io.ReaderAt, int64) error        { return nil }
func (readOnlyFormat) Open(path string) (*book.Book, error) { return polyglot.Open(path) }
func (readOnlyFormat) Chess960() bool                       { return false }
func (readOnlyFormat) ReadWhole() bool                      { return true }

// TestOpenLearnFileOfAReadOnlyFormat: a book of a format that is read only
// is refused for learning when it is opened, before any game.
func TestOpenLearnFileOfAReadOnlyFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "book.ro")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, open := range []func(string, book.Format) (*book.LearnFile, error){book.OpenLearnFile, book.OpenLearnFileReadOnly} {
		if _, err := open(path, readOnlyFormat{}); err == nil || !strings.Contains(err.Error(), "the ReadOnly format is read only") {
			t.Errorf("a read-only format's book opened for learning: %v", err)
		}
	}
}
