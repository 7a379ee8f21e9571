package abk_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// legalMoves is "move weight learn" for each legal entry of pos in b, in
// file order, moves in stored form.
func legalMoves(b *book.Book, pos *board.Position) []book.Entry {
	var out []book.Entry
	for _, e := range b.Entries(pos.Key()) {
		if _, err := pos.LegalMove(pos.ToPlayed(e.Move)); err == nil {
			out = append(out, e)
		}
	}
	return out
}

// reachable calls fn for every position the book's legal moves reach from
// the start position in fewer than maxPly plies, each once (at its
// shallowest ply).
func reachable(b *book.Book, maxPly int, fn func(pos *board.Position, ply int)) {
	type node struct {
		pos *board.Position
		ply int
	}
	seen := map[board.Key]bool{}
	queue := []node{{board.StartPosition(), 0}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n.pos.Key()] || n.ply >= maxPly {
			continue
		}
		seen[n.pos.Key()] = true
		fn(n.pos, n.ply)
		for _, e := range legalMoves(b, n.pos) {
			next := *n.pos
			next.Play(n.pos.ToPlayed(e.Move))
			queue = append(queue, node{&next, n.ply + 1})
		}
	}
}

func moveSet(entries []book.Entry) []board.Move {
	var ms []board.Move
	for _, e := range entries {
		ms = append(ms, e.Move)
	}
	slices.Sort(ms)
	return ms
}

// gnuchessABK writes the gnuchess book as an ABK book of maxPly plies.
func gnuchessABK(t *testing.T, maxPly int) (bin *book.Book, abkPath string) {
	t.Helper()
	bin, err := polyglot.Open(testenv.GnuchessBook(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bin.Close() })
	abkPath = filepath.Join(t.TempDir(), "gnuchess.abk")
	st, err := abk.Write(abkPath, bin, maxPly)
	if err != nil {
		t.Fatal(err)
	}
	if st.Records == 0 || st.Positions == 0 {
		t.Fatalf("wrote %+v", st)
	}
	return bin, abkPath
}

// TestABKFromPolyglotKeepsEveryMove: bin -> abk -> bin keeps every
// (position, move) within the max ply, and the weights' proportions to
// the nearest ninth of the heaviest (the ABK priority).
func TestABKFromPolyglotKeepsEveryMove(t *testing.T) {
	const maxPly = 14
	bin, abkPath := gnuchessABK(t, maxPly)
	ab, err := formats.Open(abkPath) // told by content and name
	if err != nil {
		t.Fatal(err)
	}
	defer ab.Close()
	if abk.InfoOf(ab) == nil || len(abk.InfoOf(ab).Problems) != 0 || len(ab.Warnings()) != 0 {
		t.Fatalf("ABK info %+v, warnings %q", abk.InfoOf(ab), ab.Warnings())
	}
	back := filepath.Join(t.TempDir(), "back.bin")
	if err := polyglot.WriteFile(back, entriesOf(ab)); err != nil {
		t.Fatal(err)
	}
	round, err := polyglot.Open(back)
	if err != nil {
		t.Fatal(err)
	}
	defer round.Close()
	positions := 0
	reachable(bin, maxPly, func(pos *board.Position, ply int) {
		want := legalMoves(bin, pos)
		if len(want) > 0 {
			positions++
		}
		got := legalMoves(round, pos)
		if !slices.Equal(moveSet(want), moveSet(got)) {
			t.Fatalf("ply %d %s: moves %v, want %v", ply, pos.FEN(), moveSet(got), moveSet(want))
		}
		var top uint16
		for _, e := range want {
			top = max(top, e.Weight)
		}
		for _, w := range want {
			i := slices.IndexFunc(got, func(g book.Entry) bool { return g.Move == w.Move })
			prio := 0
			if w.Weight > 0 {
				prio = max(1, int(float64(9*int(w.Weight))/float64(top)+0.5))
			}
			wantWeight := uint16(float64(prio)/9*65535 + 0.5)
			if top > 0 && w.Weight == top {
				wantWeight = 65535
			}
			if got[i].Weight != wantWeight {
				t.Errorf("%s %s: weight %d (of %d) came back %d, want %d (priority %d)", pos.FEN(), w.Move, w.Weight, top, got[i].Weight, wantWeight, prio)
			}
		}
	})
	if positions != abk.InfoOf(ab).Positions {
		t.Errorf("the bin book has moves in %d positions within %d plies, the ABK book has %d", positions, maxPly, abk.InfoOf(ab).Positions)
	}
	t.Logf("%d positions, %+v", positions, *abk.InfoOf(ab))
}

// entriesOf lists a book's entries in file order.
func entriesOf(b *book.Book) []book.Entry {
	out := make([]book.Entry, b.Len())
	for i := range out {
		out[i] = b.Entry(i)
	}
	return out
}

// TestABKThroughPolyglotKeepsTheTree: abk -> bin -> abk gives the same
// tree, record for record: moves, priorities, games, wins and losses.
func TestABKThroughPolyglotKeepsTheTree(t *testing.T) {
	const maxPly = 12
	_, abkPath := gnuchessABK(t, maxPly)
	ab, err := formats.Open(abkPath)
	if err != nil {
		t.Fatal(err)
	}
	defer ab.Close()
	bin := filepath.Join(t.TempDir(), "mid.bin")
	if err := polyglot.WriteFile(bin, entriesOf(ab)); err != nil {
		t.Fatal(err)
	}
	mid, err := polyglot.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer mid.Close()
	again := filepath.Join(t.TempDir(), "again.abk")
	if _, err := abk.Write(again, mid, maxPly); err != nil {
		t.Fatal(err)
	}
	a, b := readFile(t, abkPath), readFile(t, again)
	if !bytes.Equal(a, b) {
		for i := abk.FirstRecord; i*abk.RecordSize < min(len(a), len(b)); i++ {
			ra, rb := abk.DecodeRecord(a[i*abk.RecordSize:]), abk.DecodeRecord(b[i*abk.RecordSize:])
			if ra != rb {
				t.Fatalf("record %d: %+v came back %+v", i, ra, rb)
			}
		}
		t.Fatalf("sizes %d and %d", len(a), len(b))
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// BenchmarkABKOpen opens the gnuchess book written as an ABK book (whole
// depth): the tree read, replayed and keyed, the weights computed.
func BenchmarkABKOpen(b *testing.B) {
	bin, err := polyglot.Open(testenv.GnuchessBook(b))
	if err != nil {
		b.Fatal(err)
	}
	defer bin.Close()
	path := filepath.Join(b.TempDir(), "gnuchess.abk")
	st, err := abk.Write(path, bin, abk.MaxPly)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.Records), "records")
	b.ResetTimer()
	for range b.N {
		ab, err := formats.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ab.Close()
	}
}

// BenchmarkABKProbe looks up the start position's moves in the opened ABK
// book: the same in-memory search as any book.
func BenchmarkABKProbe(b *testing.B) {
	bin, err := polyglot.Open(testenv.GnuchessBook(b))
	if err != nil {
		b.Fatal(err)
	}
	defer bin.Close()
	path := filepath.Join(b.TempDir(), "gnuchess.abk")
	if _, err := abk.Write(path, bin, abk.MaxPly); err != nil {
		b.Fatal(err)
	}
	ab, err := formats.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer ab.Close()
	key := board.StartPosition().Key()
	b.ResetTimer()
	for range b.N {
		if len(ab.Entries(key)) == 0 {
			b.Fatal("no moves at the start")
		}
	}
}

// TestArenaABKThroughPolyglot: a book with Arena's own settings and
// statistics (testdata/abk/small.abk) through bin and back to ABK keeps
// every (position, move) and each move's games and points. What Polyglot's
// learn field has no room for is not kept: the split of the points into
// wins and draws, and the book's settings (the new book weighs by priority,
// the priorities made from the weights the old settings gave).
func TestArenaABKThroughPolyglot(t *testing.T) {
	src, err := abk.Open("testdata/small.abk")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dir := t.TempDir()
	bin := filepath.Join(dir, "small.bin")
	if err := polyglot.WriteFile(bin, entriesOf(src)); err != nil {
		t.Fatal(err)
	}
	mid, err := polyglot.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer mid.Close()
	again := filepath.Join(dir, "again.abk")
	if _, err := abk.Write(again, mid, int(abk.InfoOf(src).Settings.MaxPly)); err != nil {
		t.Fatal(err)
	}
	back, err := abk.Open(again)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	type id struct {
		k board.Key
		m board.Move
	}
	learnOf := func(b *book.Book) map[id]book.Learn {
		out := map[id]book.Learn{}
		for _, e := range entriesOf(b) {
			out[id{e.Key, e.Move}] = e.Learn
		}
		return out
	}
	want, got := learnOf(src), learnOf(back)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%d moves came back of %d", len(got), len(want))
	}
	for k, l := range want {
		if g, ok := got[k]; !ok || g != l {
			t.Errorf("%s %s: %v came back as %v (found: %v)", k.k, k.m, l, g, ok)
		}
	}
}
