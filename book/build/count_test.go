package build

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/lichessgames"
)

// TestCountMatchesPolyGlotModel feeds plies in small batches (so a key's
// plies are split over many merges) and compares the counts with a model
// of PolyGlot's hash table: each ply counted in stream order, a key's
// moves halved when one reaches 16384, moves in order of first appearance.
func TestCountMatchesPolyGlotModel(t *testing.T) {
	type modelMove struct {
		move          board.Move
		n, sum        int
		games, points uint64
	}
	for _, batch := range []int{1, 7, 1000, 1 << 20} {
		rng := rand.New(rand.NewPCG(3, uint64(batch)))
		opt := Options{Threads: 2}
		var c counter
		c.init(&opt)
		c.batchCap = batch
		c.setBatchLimit()
		model := map[board.Key][]modelMove{}
		keys := []board.Key{5, 1 << 60, 1<<60 + 1, 0xfedcba9876543210}
		var plies []ply
		for range 70000 {
			k := keys[rng.IntN(len(keys))]
			// A skewed choice, so one move passes 16384 games several times.
			m := board.Move(1 + min(rng.IntN(8), rng.IntN(8)))
			p := ply{key: k, move: m, white: k&1 == 1, points: uint8(rng.IntN(3))}
			plies = append(plies, p)
			moves := model[k]
			i := slices.IndexFunc(moves, func(x modelMove) bool { return x.move == m })
			if i < 0 {
				moves = append(moves, modelMove{move: m})
				i = len(moves) - 1
			}
			moves[i].n++
			moves[i].sum += int(p.points)
			moves[i].games++
			moves[i].points += uint64(p.points)
			if moves[i].n >= countMax {
				for j := range moves {
					moves[j].n, moves[j].sum = (moves[j].n+1)/2, (moves[j].sum+1)/2
				}
			}
			model[k] = moves
		}
		for len(plies) > 0 { // in uneven pieces, as the pipeline adds them
			n := min(len(plies), 1+rng.IntN(500))
			if err := c.add(plies[:n]); err != nil {
				t.Fatal(err)
			}
			plies = plies[n:]
		}
		var got []board.Key
		err := c.finish(func(g *CountGroup, moves []aggEntry) error {
			got = append(got, g.Key)
			want := model[g.Key]
			if len(moves) != len(want) {
				t.Fatalf("batch %d, key %x: %d moves, want %d", batch, g.Key, len(moves), len(want))
			}
			for i, m := range moves {
				w := want[i]
				if m.move != w.move || int(m.n) != w.n || int(m.sum) != w.sum || m.games != w.games || m.points != w.points || g.Moves[i].Games != w.games {
					t.Fatalf("batch %d, key %x, move %d: %+v, want %+v", batch, g.Key, i, m, w)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.IsSorted(got) || len(got) != len(keys) {
			t.Fatalf("batch %d: keys %x", batch, got)
		}
	}
}

// TestSortRecords: by key, a key's records in their order, for keys that
// share long prefixes and for many records of one key.
func TestSortRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 31, 33, 1000, 200000} {
		r := make([]record, n)
		for i := range r {
			k := rng.Uint64()
			switch rng.IntN(4) {
			case 0:
				k &= 0xff00000000000fff // shared middle bytes
			case 1:
				k = 42
			}
			r[i] = record{board.Key(k), uint64(i) << 19}
		}
		want := slices.Clone(r)
		slices.SortStableFunc(want, func(x, y record) int { return cmp.Compare(x.key, y.key) })
		sortRecords(r, make([]record, n), 2)
		if !slices.Equal(r, want) {
			t.Fatalf("%d records: not sorted stably by key", n)
		}
	}
}

// gamesPGN is n of lichessgames' games from the first.
func gamesPGN(first, n int) []byte {
	return lichessgames.PGN(lichessgames.Options{Seed: 11, First: first, Games: n})
}

// forceSpills makes a build write a run every few hundred pairs.
func forceSpills(b *Builder) {
	b.count.batchCap = 200
	b.count.aggCap = 450
	b.count.setBatchLimit()
}

// TestSpilledBuildIsCountsRecipe: a build forced to spill many times makes
// the book and the counts the counts recipe makes of the same games
// (make-book -counts on parts, sum-counts, make-book -from-counts), on one
// thread and on two, and leaves no temporary file.
func TestSpilledBuildIsCountsRecipe(t *testing.T) {
	opt := DefaultOptions()
	opt.MaxPly = 30
	opt.MinGame = 2
	// The recipe: three parts counted apart, added up.
	var parts []*CountsReader
	var partCounts [][]byte
	var all []byte // the games of the parts, which are the first 250
	for _, p := range [][2]int{{0, 100}, {100, 70}, {170, 80}} {
		text := gamesPGN(p[0], p[1])
		all = append(all, text...)
		b := NewBuilder(opt)
		if err := b.AddPGN(bytes.NewReader(text), "part"); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := b.WriteCounts(&buf); err != nil {
			t.Fatal(err)
		}
		partCounts = append(partCounts, buf.Bytes())
	}
	open := func() []*CountsReader {
		parts = parts[:0]
		for _, c := range partCounts {
			r, err := NewCountsReader(bytes.NewReader(c))
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, r)
		}
		return parts
	}
	want, _, err := FromCounts(open(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var wantCounts bytes.Buffer
	if _, err := SumCounts(open(), &wantCounts); err != nil {
		t.Fatal(err)
	}
	if len(want) < 50 {
		t.Fatalf("the recipe's book has %d entries: too few to tell", len(want))
	}
	for _, threads := range []int{1, 2} {
		opt.Threads = threads
		opt.TempDir = t.TempDir()
		b := NewBuilder(opt)
		forceSpills(b)
		if err := b.AddPGN(bytes.NewReader(all), "all"); err != nil {
			t.Fatal(err)
		}
		if got := b.Entries(); !slices.Equal(got, want) {
			t.Fatalf("threads %d: the spilled build's book (%d entries) differs from the recipe's (%d)", threads, len(got), len(want))
		}
		var counts bytes.Buffer
		if err := b.WriteCounts(&counts); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(counts.Bytes(), wantCounts.Bytes()) {
			t.Fatalf("threads %d: the spilled build's counts differ from sum-counts of the parts'", threads)
		}
		if s := b.Stats(); s.Runs < 10 || s.TempBytes == 0 || s.Positions != int(countRecords(t, wantCounts.Bytes())) {
			t.Fatalf("threads %d: %d runs, %d bytes, %d positions: want many runs", threads, s.Runs, s.TempBytes, s.Positions)
		}
		if left := dirEntries(t, opt.TempDir); len(left) != 1 {
			t.Fatalf("threads %d: want the build's one folder while it runs, have %v", threads, left)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		if left := dirEntries(t, opt.TempDir); len(left) > 0 {
			t.Fatalf("threads %d: temporary files left after Close: %v", threads, left)
		}
	}
}

func countRecords(t *testing.T, counts []byte) uint64 {
	r, err := NewCountsReader(bytes.NewReader(counts))
	if err != nil {
		t.Fatal(err)
	}
	n := uint64(0)
	for {
		g, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		n += uint64(len(g.Moves))
	}
}

func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestUnspilledWriteBook: a build that fits writes the bytes Entries
// holds, and no temporary file.
func TestUnspilledWriteBook(t *testing.T) {
	opt := DefaultOptions()
	opt.MinGame = 1
	opt.TempDir = t.TempDir()
	opt.Memory = MinMemory
	b := NewBuilder(opt)
	if err := b.AddPGN(bytes.NewReader(gamesPGN(0, 200)), "games"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	moves, err := b.WriteBook(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, e := range b.Entries() {
		var enc [polyglot.EntrySize]byte
		polyglot.PutEntry(enc[:], e)
		want = append(want, enc[:]...)
	}
	if !bytes.Equal(buf.Bytes(), want) || moves*polyglot.EntrySize != len(want) || moves < 1000 {
		t.Fatalf("WriteBook wrote %d bytes (%d moves), Entries %d bytes", buf.Len(), moves, len(want))
	}
	if s := b.Stats(); s.Runs != 0 {
		t.Fatalf("%d runs", s.Runs)
	}
	if left := dirEntries(t, opt.TempDir); len(left) > 0 {
		t.Fatalf("temporary files of a build that fits: %v", left)
	}
}

// failingReader gives its text, then an error.
type failingReader struct {
	r io.Reader
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errors.New("disk read error")
	}
	return n, err
}

// TestTempFilesOnError: a build that fails after spilling leaves nothing
// once closed; an unusable temporary folder is a TempError naming it.
func TestTempFilesOnError(t *testing.T) {
	dir := t.TempDir()
	opt := DefaultOptions()
	opt.TempDir = dir
	b := NewBuilder(opt)
	forceSpills(b)
	err := b.AddPGN(&failingReader{bytes.NewReader(gamesPGN(0, 100))}, "broken")
	if err == nil || b.Stats().Runs == 0 {
		t.Fatalf("err %v, %d runs: want a read error after some runs", err, b.Stats().Runs)
	}
	b.Close()
	if left := dirEntries(t, dir); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}

	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	opt.TempDir = filepath.Join(notDir, "sub")
	b = NewBuilder(opt)
	forceSpills(b)
	err = b.AddPGN(bytes.NewReader(gamesPGN(0, 100)), "games")
	var te *TempError
	if !errors.As(err, &te) || te.Dir != opt.TempDir {
		t.Fatalf("err %v: want a TempError naming %s", err, opt.TempDir)
	}
	b.Close()
	if left := dirEntries(t, dir); !slices.Equal(left, []string{"file"}) {
		t.Fatalf("left %v", left)
	}
}
