package build

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/randgames"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// oldCounts is a counts file of version 1 (testdata/counts/README.md):
// testdata/pgn/small.pgn counted with the default settings.
var oldCounts = filepath.Join(fixture.Testdata, "counts", "small-v1.counts")

// countsOf builds data and returns its counts file and its book.
func countsOf(t testing.TB, data []byte, opt Options) ([]byte, []book.Entry) {
	t.Helper()
	b := NewBuilder(opt)
	if err := b.AddPGN(bytes.NewReader(data), "x.pgn"); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.WriteCounts(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), b.Entries()
}

func readers(t testing.TB, files ...[]byte) []*CountsReader {
	t.Helper()
	var out []*CountsReader
	for _, f := range files {
		cr, err := NewCountsReader(bytes.NewReader(f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, cr)
	}
	return out
}

// splitGames cuts PGN text into n parts at game starts ("[Event").
func splitGames(data []byte, n int) [][]byte {
	starts := []int{}
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], []byte("[Event "))
		if j < 0 {
			break
		}
		if i+j == 0 || data[i+j-1] == '\n' {
			starts = append(starts, i+j)
		}
		i += j + 1
	}
	var parts [][]byte
	for k := range n {
		a, b := starts[k*len(starts)/n], len(data)
		if k+1 < n {
			b = starts[(k+1)*len(starts)/n]
		}
		parts = append(parts, data[a:b])
	}
	return parts
}

// sumOfParts cuts PGN text into n parts at game starts, counts each and
// adds the counts up: the parts' counts files and their sum.
func sumOfParts(t *testing.T, data []byte, n int, opt Options) (parts [][]byte, sum []byte, st SumStats) {
	t.Helper()
	for _, p := range splitGames(data, n) {
		c, _ := countsOf(t, p, opt)
		parts = append(parts, c)
	}
	var buf bytes.Buffer
	st, err := SumCounts(readers(t, parts...), &buf)
	if err != nil {
		t.Fatal(err)
	}
	return parts, buf.Bytes(), st
}

// TestCountsShardsMatchOneBuild: games cut into parts, each counted, the
// counts added up, give the counts file and, under every move rule, the
// book of one build over all the games (no move reaches 16384 games here).
func TestCountsShardsMatchOneBuild(t *testing.T) {
	n := 2000
	if testenv.RaceEnabled {
		n = 500
	}
	data := fixture.BookGames(fixture.OpenPath(t, testenv.GnuchessBook(t)), n, "Stockfish", 5)
	for _, opt := range []Options{
		{MaxPly: 20, MinGame: 3},
		{MaxPly: 1024, MinGame: 1},
		{MaxPly: 30, MinGame: 2, MinScore: 45, Colours: WhiteOnly, MinShare: 5},
		{MaxPly: 12, MinGame: 1, Uniform: true, Colours: BlackOnly},
	} {
		whole, want := countsOf(t, data, opt)
		parts, sum, st := sumOfParts(t, data, 4, opt)
		if !bytes.Equal(sum, whole) {
			t.Errorf("%+v: the sum of 4 parts differs from the whole's counts", opt)
		}
		if st.Games != uint64(n) {
			t.Errorf("sum: %d games, want %d", st.Games, n)
		}
		for name, in := range map[string][][]byte{"whole": {whole}, "parts": parts, "sum": {sum}} {
			got, fst, err := FromCounts(readers(t, in...), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%+v from %s: %d entries, want %d", opt, name, len(got), len(want))
			}
			if fst.Halved != 0 {
				t.Errorf("%s: %d positions halved", name, fst.Halved)
			}
		}
	}
}

// TestCountsHalving: where a move reaches 16384 games the totals are
// halved to fit; those positions alone can differ from one build, and
// the others are the same.
func TestCountsHalving(t *testing.T) {
	var sb strings.Builder
	results := []string{"1-0", "0-1", "1/2-1/2"}
	for i := range 40000 {
		line := "e4 e5 2. Nf3"
		if i%7 == 0 {
			line = "d4 d5 2. c4"
		}
		if i%100 == 0 {
			line = fmt.Sprintf("e4 c5 2. a3 a6 3. a4 %s", []string{"h6", "h5", "g6"}[i%3])
		}
		fmt.Fprintf(&sb, "[Event \"%d\"]\n[Result \"%s\"]\n\n1. %s *\n\n", i, results[i%3], line)
	}
	opt := Options{MaxPly: 10, MinGame: 1}
	counts, want := countsOf(t, []byte(sb.String()), opt)
	got, st, err := FromCounts(readers(t, counts), opt)
	if err != nil {
		t.Fatal(err)
	}
	// The positions with a move of 16384 games or more: the start (e4,
	// 34,000 games), after 1. e4 (e5, 33,600) and after 1. e4 e5 (Nf3).
	hot := map[board.Key]bool{}
	cr := readers(t, counts)[0]
	for {
		g, err := cr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range g.Moves {
			if m.Games >= countMax {
				hot[g.Key] = true
			}
		}
	}
	if st.Halved != 3 || len(hot) != 3 {
		t.Errorf("%d positions halved, %d with 16384 games; want 3", st.Halved, len(hot))
	}
	byKey := func(es []book.Entry) map[board.Key][]book.Entry {
		m := map[board.Key][]book.Entry{}
		for _, e := range es {
			m[e.Key] = append(m[e.Key], e)
		}
		return m
	}
	g, w := byKey(got), byKey(want)
	for k := range w {
		if !hot[k] && !reflect.DeepEqual(g[k], w[k]) {
			t.Errorf("key %s: %v, one build %v", k, g[k], w[k])
		}
	}
	// The rule on the totals: e4 34,000 games halved twice (8,500), d4
	// 6,000 (1,500); points alike.
	start := fixture.Key(t, board.StartFEN)
	var moves []string
	for _, e := range g[start] {
		moves = append(moves, fmt.Sprintf("%s %d", e.Move, e.Weight))
	}
	if strings.Join(moves, ", ") != "e2e4 8587, d2d4 1414" {
		t.Errorf("start position: %s", strings.Join(moves, ", "))
	}
}

// TestCountsOrderOfFirstAppearance: a move first seen in the second part
// comes after the first part's moves of the same weight, as in one build.
func TestCountsOrderOfFirstAppearance(t *testing.T) {
	a := []byte("[Event \"1\"]\n[Result \"1/2-1/2\"]\n\n1. d4 *\n\n")
	b := []byte("[Event \"2\"]\n[Result \"1/2-1/2\"]\n\n1. e4 *\n\n[Event \"3\"]\n[Result \"1/2-1/2\"]\n\n1. c4 *\n\n")
	opt := Options{MaxPly: 10, MinGame: 1}
	_, want := countsOf(t, append(append([]byte{}, a...), b...), opt)
	ca, _ := countsOf(t, a, opt)
	cb, _ := countsOf(t, b, opt)
	got, _, err := FromCounts(readers(t, ca, cb), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || len(got) != 3 || got[0].Move.String() != "d2d4" {
		t.Errorf("got %v, want %v", got, want)
	}
	// Given the other way round, the order follows.
	got, _, _ = FromCounts(readers(t, cb, ca), opt)
	if got[0].Move.String() != "e2e4" {
		t.Errorf("reversed: %v", got)
	}
}

// TestCountsDamage: a counts file cut short, changed or with settings
// that differ is an error, never a smaller book.
func TestCountsDamage(t *testing.T) {
	data, err := os.ReadFile(fixture.Testdata + "/pgn/random.pgn")
	if err != nil {
		t.Fatal(err)
	}
	good, _ := countsOf(t, data, Options{MaxPly: 20, MinGame: 1})
	readAll := func(b []byte) error {
		cr, err := NewCountsReader(bytes.NewReader(b))
		if err != nil {
			return err
		}
		for {
			if _, err := cr.Next(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	}
	if err := readAll(good); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 5, 9, len(good) / 2, len(good) - 5, len(good) - 1} {
		if readAll(good[:n]) == nil {
			t.Errorf("cut to %d bytes: no error", n)
		}
	}
	for _, i := range []int{len(good) / 3, len(good) / 2, len(good) - 6} {
		bad := bytes.Clone(good)
		bad[i] ^= 0x10
		if readAll(bad) == nil {
			t.Errorf("byte %d changed: no error", i)
		}
	}
	if readAll(append(bytes.Clone(good), 0)) == nil {
		t.Error("a byte after the end: no error")
	}
	for _, v := range []byte{0, CountsVersion + 1} {
		other := bytes.Clone(good)
		other[8] = v
		want := fmt.Sprintf("counts file version %d; this polyproxy reads versions 1 to %d", v, CountsVersion)
		if err := readAll(other); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("version %d: %v, want %q", v, err, want)
		}
	}
	other, _ := countsOf(t, data, Options{MaxPly: 21, MinGame: 1})
	if _, err := SumCounts(readers(t, good, other), io.Discard); err == nil || !strings.Contains(err.Error(), "max-ply=21") {
		t.Errorf("different settings: %v", err)
	}
	if _, _, err := FromCounts(readers(t, good, other), Options{}); err == nil {
		t.Error("FromCounts with different settings: no error")
	}
}

// FuzzCountsReader: any bytes read as a counts file give groups or an
// error, never a panic; what reads whole writes back the same bytes.
func FuzzCountsReader(f *testing.F) {
	small, _ := countsOf(f, []byte("[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n"), Options{MaxPly: 10, MinGame: 1})
	f.Add(small)
	chess960, _ := countsOf(f, []byte(randgames.Chess960PGN(randgames.Options{Seed: 1, Games: 3, MaxPlies: 4})), Options{MaxPly: 6, MinGame: 1})
	f.Add(chess960)
	f.Add(fixture.ReadFile(f, oldCounts))
	f.Add([]byte(CountsMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		cr, err := NewCountsReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		cw := NewCountsWriter(&buf, cr.Header())
		for {
			g, err := cr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return
			}
			if err := cw.Write(g); err != nil {
				t.Fatalf("a group read back does not write: %v", err)
			}
		}
		if err := cw.Close(); err != nil {
			t.Fatal(err)
		}
		// An older version is written back in the current one.
		if cr.Header().Version == CountsVersion && !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("read whole but writes back differently:\n%x\n%x", data, buf.Bytes())
		}
	})
}

// TestCountsKeepVariants: Chess960 games, alone or with standard ones,
// cut into parts, counted and added up give the counts of one build, with
// the games of each variant; a book from them has the @PG@ header one
// build writes (none for standard games alone).
func TestCountsKeepVariants(t *testing.T) {
	standard := fixture.ReadFile(t, filepath.Join(fixture.Testdata, "pgn", "random.pgn"))
	chess960 := []byte(chess960Games())
	for _, tc := range []struct {
		name     string
		data     []byte
		variants []VariantGames
		header   []string
	}{
		{"chess960", chess960, []VariantGames{{polyglot.VariantChess960, 201}}, []string{polyglot.VariantChess960}},
		// Cut in four: two parts of standard games, one of both, one of Chess960 games.
		{"mixed", slices.Concat(standard, []byte("\n"), chess960), []VariantGames{{polyglot.VariantChess960, 201}, {polyglot.VariantNormal, 400}}, []string{polyglot.VariantNormal, polyglot.VariantChess960}},
		{"standard", standard, []VariantGames{{polyglot.VariantNormal, 400}}, nil},
	} {
		opt := Options{MaxPly: 20, MinGame: 1}
		whole, want := countsOf(t, tc.data, opt)
		parts, sum, st := sumOfParts(t, tc.data, 4, opt)
		if !bytes.Equal(sum, whole) {
			t.Errorf("%s: the sum of 4 parts differs from the whole's counts", tc.name)
		}
		if h := readers(t, sum)[0].Header(); !reflect.DeepEqual(h.Variants, tc.variants) || !reflect.DeepEqual(st.Variants, tc.variants) {
			t.Errorf("%s: the sum's variants %v (stats %v), want %v", tc.name, h.Variants, st.Variants, tc.variants)
		}
		got, fst, err := FromCounts(readers(t, parts...), opt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(fst.Variants, tc.variants) {
			t.Errorf("%s: from the parts' counts %d entries (variants %v), one build %d", tc.name, len(got), fst.Variants, len(want))
		}
		header := polyglot.HeaderEntriesFor(tc.header, "made by polyproxy make-book")
		if tc.header == nil {
			header = nil
		}
		if len(got) < len(header) || !slices.Equal(got[:len(header)], header) || len(got) > len(header) && got[len(header)].Key == 0 {
			t.Errorf("%s: the book does not start with the header naming %v", tc.name, tc.header)
		}
	}
}

// TestCountsVersion1: a counts file of version 1 still reads, its games
// standard ones; it adds up with a current file, and makes the book its
// games make.
func TestCountsVersion1(t *testing.T) {
	old := fixture.ReadFile(t, oldCounts)
	h := readers(t, old)[0].Header()
	if h.Version != 1 || h.Games != 4 || !reflect.DeepEqual(h.Variants, []VariantGames{{polyglot.VariantNormal, 4}}) {
		t.Fatalf("header %+v", h)
	}
	games := fixture.ReadFile(t, filepath.Join(fixture.Testdata, "pgn", "small.pgn"))
	opt := DefaultOptions()
	opt.MinGame = 1
	current, want := countsOf(t, games, opt)
	got, st, err := FromCounts(readers(t, old), opt)
	if err != nil || !reflect.DeepEqual(got, want) || st.Games != 4 {
		t.Fatalf("from version 1: %v, %d games, %v; want %v", got, st.Games, err, want)
	}
	// Version 1 and version 2 add up to version 2.
	twice, _ := countsOf(t, slices.Concat(games, []byte("\n"), games), opt)
	var sum bytes.Buffer
	if _, err := SumCounts(readers(t, old, current), &sum); err != nil || !bytes.Equal(sum.Bytes(), twice) {
		t.Fatalf("version 1 + 2: %v; equal to the games counted twice: %v", err, bytes.Equal(sum.Bytes(), twice))
	}
}

// TestCountsWriterRefusesBadVariants: a header whose variants its reader
// would refuse is not written.
func TestCountsWriterRefusesBadVariants(t *testing.T) {
	for _, h := range []CountsHeader{
		{Games: 3, Variants: []VariantGames{{polyglot.VariantNormal, 2}}},
		{Games: 3, Variants: []VariantGames{{polyglot.VariantNormal, 2}, {polyglot.VariantChess960, 1}}},
		{Games: 3, Variants: []VariantGames{{"Chess 960", 3}}},
		{Games: 3, Variants: []VariantGames{{polyglot.VariantNormal, 3}, {"x", 0}}},
		{Games: 1, Variants: []VariantGames{{"a", 1}, {"b", 1<<64 - 1}}},
	} {
		cw := NewCountsWriter(io.Discard, h)
		if err := cw.Close(); err == nil {
			t.Errorf("%+v: written", h)
		}
	}
	if err := NewCountsWriter(io.Discard, CountsHeader{}).Close(); err != nil {
		t.Errorf("no games: %v", err)
	}
}
