package build

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/randgames"
)

// innerRookGame starts with White's g1 rook holding the short right while
// the h1 rook stands beyond it: its first plies have no book key.
const innerRookGame = `[Event "inner rook"]
[Result "1-0"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/1R2K1RR w GBgb - 0 1"]

1. h4 h5 2. Rh3 Rh6 3. a3 a6 1-0

`

// chess960Games is PGN of Chess960 games from a few starts, lichess's
// export and cutechess-cli's, and the inner-rook game.
func chess960Games() string {
	starts := []int{0, 518, 959, 333}
	return randgames.Chess960PGN(randgames.Options{Seed: 7, Games: 150, Starts: starts}) +
		randgames.Chess960PGN(randgames.Options{Seed: 8, Games: 50, Starts: starts, Cutechess: true}) +
		innerRookGame
}

// positionsOf replays PGN and maps every key reached to its position.
func positionsOf(t *testing.T, text string) map[board.Key]board.Position {
	t.Helper()
	out := map[board.Key]board.Position{}
	r := pgn.NewReader(strings.NewReader(text))
	for {
		g, err := r.Next()
		if err != nil {
			return out
		}
		if err := g.Replay(func(pos *board.Position, m board.Move) { out[pos.Key()] = *pos }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBuildChess960 makes a book of Chess960 games: every game is read,
// the header names the variant, every move is legal where its key was
// reached and castling is stored king takes rook, the inner-rook plies
// are left out, and the book is the same on one thread or three.
func TestBuildChess960(t *testing.T) {
	text := chess960Games()
	opt := DefaultOptions()
	opt.MinGame = 1
	b := NewBuilder(opt)
	if err := b.AddPGN(strings.NewReader(text), "960.pgn"); err != nil {
		t.Fatal(err)
	}
	s := b.Stats()
	if s.Games != 201 || s.SkippedTotal() != 0 || s.Chess960Games != 201 || s.InnerRookPlies != 4 {
		t.Fatalf("stats %+v", s)
	}
	entries := b.Entries()
	h, err := polyglot.ReadHeader(fixture.OpenPath(t, fixture.WriteEntries(t, entries)))
	if err != nil || h == nil || !slices.Equal(h.Variants, []string{polyglot.VariantChess960}) {
		t.Fatalf("header %+v, %v", h, err)
	}

	positions := positionsOf(t, text)
	inner, _ := board.ParseFENVariant("1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/1R2K1RR w GBgb - 0 1", true)
	castlings := 0
	for _, e := range entries[h.Entries:] {
		if e.Key == inner.Key() {
			t.Fatalf("the inner-rook start position is in the book: %v", e)
		}
		pos, ok := positions[e.Key]
		if !ok {
			t.Fatalf("entry %v: key reached by no game", e)
		}
		played, err := pos.LegalMove(e.Move)
		if err != nil || played != e.Move {
			t.Fatalf("entry %v in %s: %s, %v", e, pos.FEN(), played, err)
		}
		if strings.HasPrefix(pos.SAN(e.Move), "O-O") {
			castlings++
		}
	}
	if castlings < 10 {
		t.Fatalf("only %d castling entries", castlings)
	}

	opt.Threads = 3
	b3 := NewBuilder(opt)
	if err := b3.AddPGN(strings.NewReader(text), "960.pgn"); err != nil {
		t.Fatal(err)
	}
	if got := b3.Entries(); !slices.Equal(got, entries) || b3.Stats().Chess960Games != 201 || b3.Stats().InnerRookPlies != 4 {
		t.Fatalf("three threads: %d entries (one thread %d), stats %+v", len(got), len(entries), b3.Stats())
	}
}

// TestBuildChess960WithoutVariant: Chess960 games that name no variant
// (cutechess-cli's from a Chess960 opening file) are read as Chess960
// from their FEN's castling rights: the book, and its header, are those of
// the same games tagged Chess960. Before, most were skipped as illegal and
// the rest went in under standard chess's keys, castling rights lost.
func TestBuildChess960WithoutVariant(t *testing.T) {
	starts := []int{0, 959, 333} // each with castling only Chess960 has
	tagged := randgames.Chess960PGN(randgames.Options{Seed: 9, Games: 60, Starts: starts}) +
		randgames.Chess960PGN(randgames.Options{Seed: 10, Games: 60, Starts: starts, Cutechess: true}) +
		innerRookGame
	var untagged strings.Builder
	for line := range strings.Lines(tagged) {
		if !strings.HasPrefix(line, "[Variant ") {
			untagged.WriteString(line)
		}
	}
	if strings.Contains(untagged.String(), "Variant") {
		t.Fatal("a Variant tag left")
	}
	opt := DefaultOptions()
	opt.MinGame = 1
	build := func(text string) ([]book.Entry, Stats) {
		b := NewBuilder(opt)
		if err := b.AddPGN(strings.NewReader(text), "960.pgn"); err != nil {
			t.Fatal(err)
		}
		return b.Entries(), b.Stats()
	}
	want, wantStats := build(tagged)
	got, stats := build(untagged.String())
	if stats.SkippedTotal() != 0 || stats.Chess960Games != 121 || stats.Plies != wantStats.Plies || stats.InnerRookPlies != wantStats.InnerRookPlies {
		t.Fatalf("stats %+v, tagged %+v", stats, wantStats)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%d entries, %d from the tagged games", len(got), len(want))
	}
}

// TestBuildMixedVariants: standard and Chess960 games give a book whose
// header names both; standard games alone give no header (as PolyGlot).
func TestBuildMixedVariants(t *testing.T) {
	opt := DefaultOptions()
	opt.MinGame = 1
	standard := string(fixture.ReadFile(t, filepath.Join(fixture.Testdata, "pgn", "small.pgn")))
	for _, tc := range []struct {
		text string
		want []string
	}{
		{standard, nil},
		{standard + "\n" + chess960Games(), []string{polyglot.VariantNormal, polyglot.VariantChess960}},
	} {
		b := NewBuilder(opt)
		if err := b.AddPGN(strings.NewReader(tc.text), "mixed.pgn"); err != nil {
			t.Fatal(err)
		}
		h, err := polyglot.ReadHeader(fixture.OpenPath(t, fixture.WriteEntries(t, b.Entries())))
		switch {
		case err != nil:
			t.Fatal(err)
		case tc.want == nil && h != nil:
			t.Fatalf("standard games: header %+v", h)
		case tc.want != nil && (h == nil || !slices.Equal(h.Variants, tc.want)):
			t.Fatalf("header %+v, want variants %v", h, tc.want)
		}
	}
}

// TestMergeVariants: merging a Chess960 book with a standard one (no
// header) names both variants; two books of one variant keep the header.
func TestMergeVariants(t *testing.T) {
	opt := DefaultOptions()
	opt.MinGame = 1
	write := func(text string) *book.Book {
		b := NewBuilder(opt)
		if err := b.AddPGN(strings.NewReader(text), "x.pgn"); err != nil {
			t.Fatal(err)
		}
		return fixture.OpenPath(t, fixture.WriteEntries(t, b.Entries()))
	}
	standard := write(string(fixture.ReadFile(t, filepath.Join(fixture.Testdata, "pgn", "small.pgn"))))
	c960 := write(chess960Games())
	for _, tc := range []struct {
		a, b     *book.Book
		header   string
		variants []string
	}{
		{c960, standard, "in1+in2", []string{polyglot.VariantNormal, polyglot.VariantChess960}},
		{standard, c960, "in1+in2", []string{polyglot.VariantNormal, polyglot.VariantChess960}},
		{c960, c960, "in1", []string{polyglot.VariantChess960}},
		{standard, standard, "", nil},
	} {
		entries, st, err := Merge(tc.a, tc.b, false)
		if err != nil {
			t.Fatal(err)
		}
		h, err := polyglot.ReadHeader(fixture.OpenPath(t, fixture.WriteEntries(t, entries)))
		if err != nil || st.Header != tc.header || (h == nil) != (tc.variants == nil) || h != nil && !slices.Equal(h.Variants, tc.variants) {
			t.Fatalf("header from %q (want %q): %+v, %v", st.Header, tc.header, h, err)
		}
	}
}

// BenchmarkMakeBookChess960 builds a book at -max-ply 16 on one thread
// from 10,000 random Chess960 games and from 10,000 random standard games
// made the same way (internal/randgames): what Chess960 costs make-book.
func BenchmarkMakeBookChess960(b *testing.B) {
	const games = 10000
	for _, kind := range []struct {
		name string
		o    randgames.Options
	}{
		{"standard", randgames.Options{Seed: 3, Games: games, Standard: true}},
		{"chess960", randgames.Options{Seed: 3, Games: games}},
	} {
		data := []byte(randgames.Chess960PGN(kind.o))
		b.Run(kind.name, func(b *testing.B) {
			opt := DefaultOptions()
			opt.MaxPly = 16
			opt.Threads = 1
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				bl := NewBuilder(opt)
				if err := bl.AddPGN(bytes.NewReader(data), "games.pgn"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(games*b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
