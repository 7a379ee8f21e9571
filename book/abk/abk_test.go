package abk_test

import (
	"bytes"
	"math"
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

// chancesAt is each legal move's chance at pos in b, as the book
// decision gives it (weighted, under the proxy's default threshold),
// entries playing one move added.
func chancesAt(b *book.Book, pos *board.Position) map[board.Move]float64 {
	c := book.NewChooser(book.Options{Mode: book.Weighted, ThresholdPerMille: abk.DefaultWriteThreshold}, 1)
	out := map[board.Move]float64{}
	for _, cd := range c.Decide(book.Both(b), book.At(pos)).Candidates {
		if cd.Legal {
			out[cd.Move] += cd.Chance
		}
	}
	return out
}

// maxChanceChange is the largest change of a move's chance at pos from
// b to c.
func maxChanceChange(b, c *book.Book, pos *board.Position) (float64, board.Move) {
	was, now := chancesAt(b, pos), chancesAt(c, pos)
	var most float64
	var at board.Move
	for _, m := range [2]map[board.Move]float64{was, now} {
		for mv := range m {
			if d := math.Abs(was[mv] - now[mv]); d > most {
				most, at = d, mv
			}
		}
	}
	return most, at
}

// chanceBound is how far a move's chance may move in a conversion at a
// position of n moves: each game count is rounded to a 65535th of the
// likeliest move's, and the weights read from them again.
func chanceBound(n int) float64 { return float64(n) / 65535 }

// TestABKFromPolyglotKeepsEveryMove: bin -> abk -> bin keeps every
// (position, move) within the max ply, and each move's chance under the
// threshold to within chanceBound; a move below the threshold comes back
// with weight 0, never played.
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
	positions, unplayed := 0, 0
	var most float64
	reachable(bin, maxPly, func(pos *board.Position, ply int) {
		want := legalMoves(bin, pos)
		if len(want) > 0 {
			positions++
		}
		got := legalMoves(round, pos)
		if !slices.Equal(moveSet(want), moveSet(got)) {
			t.Fatalf("ply %d %s: moves %v, want %v", ply, pos.FEN(), moveSet(got), moveSet(want))
		}
		d, m := maxChanceChange(bin, round, pos)
		if d > chanceBound(len(want)) {
			t.Errorf("%s %s: chance %.6f came back %.6f", pos.FEN(), m, chancesAt(bin, pos)[m], chancesAt(round, pos)[m])
		}
		most = max(most, d)
		chances := chancesAt(bin, pos)
		for _, e := range got {
			if chances[pos.ToPlayed(e.Move)] == 0 {
				unplayed++
				if e.Weight != 0 {
					t.Errorf("%s %s: never played in the source, weight %d in the round trip", pos.FEN(), e.Move, e.Weight)
				}
			}
		}
	})
	if positions != abk.InfoOf(ab).Positions {
		t.Errorf("the bin book has moves in %d positions within %d plies, the ABK book has %d", positions, maxPly, abk.InfoOf(ab).Positions)
	}
	if unplayed == 0 {
		t.Error("no move below the threshold: the test tests nothing of it")
	}
	t.Logf("%d positions, %d moves never played, largest change of a chance %.2g; %+v", positions, unplayed, most, *abk.InfoOf(ab))
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
// statistics (testdata/small.abk) through bin and back to ABK keeps every
// (position, move), each move's chance and its games and points (the new
// book's games are the chance in units, marked so, plus the games played).
// What Polyglot's learn field has no room for is not kept: the split of
// the points into wins and draws, and the book's settings.
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
	var batch book.Batch
	defer batch.Abort()
	w, err := abk.Format.Write(&batch, again, mid, int(abk.InfoOf(src).Settings.MaxPly))
	if err != nil {
		t.Fatal(err)
	}
	if err := batch.Commit(); err != nil {
		t.Fatal(err)
	}
	if len(w.Warnings) != 0 {
		t.Errorf("warnings %q", w.Warnings)
	}
	back, err := abk.Open(again)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	if !abk.InfoOf(back).SyntheticGames || abk.InfoOf(src).SyntheticGames {
		t.Errorf("synthetic games: %v in Arena's book, %v in the one written", abk.InfoOf(src).SyntheticGames, abk.InfoOf(back).SyntheticGames)
	}
	type id struct {
		k board.Key
		m board.Move
	}
	movesOf := func(b *book.Book) map[id]book.Entry {
		out := map[id]book.Entry{}
		for _, e := range entriesOf(b) {
			out[id{e.Key, e.Move}] = e
		}
		return out
	}
	want, got := movesOf(src), movesOf(back)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%d moves came back of %d", len(got), len(want))
	}
	for k, e := range want {
		if g, ok := got[k]; !ok || g.Learn != e.Learn {
			t.Errorf("%s %s: %v came back as %v (found: %v)", k.k, k.m, e.Learn, g.Learn, ok)
		}
	}
	positions := 0
	reachable(src, abk.MaxPly, func(pos *board.Position, _ int) {
		positions++
		if d, m := maxChanceChange(src, back, pos); d > chanceBound(len(legalMoves(src, pos))) {
			t.Errorf("%s %s: chance %.6f came back %.6f", pos.FEN(), m, chancesAt(src, pos)[m], chancesAt(back, pos)[m])
		}
	})
	if positions < 30 {
		t.Errorf("%d positions compared", positions)
	}
}
