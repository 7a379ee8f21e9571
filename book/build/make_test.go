package build

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/notnil/chess"
	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

var writeRandomPGN = flag.Bool("write-random-pgn", false, "regenerate testdata/pgn/random.pgn (random legal games written by notnil)")

// TestRandomPGNUpToDate checks testdata/pgn/random.pgn against its
// generator (go generate ./book/build rewrites it): seeded random games whose SAN
// comes from notnil's encoder, not ours, with castling, en passant and
// promotions (preferred whenever legal); the byte-identity test builds it
// with PolyGlot and with us. Other moves are drawn mostly from the first
// few legal moves, so lines repeat and entries collect several games.
func TestRandomPGNUpToDate(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	results := []string{"1-0", "0-1", "1/2-1/2", "*"}
	var sb strings.Builder
	for g := 0; g < 400; g++ {
		res := results[rng.Intn(len(results))]
		fmt.Fprintf(&sb, "[Event \"random %d\"]\n[Result \"%s\"]\n\n", g+1, res)
		pos := chess.StartingPosition()
		plies := 20 + rng.Intn(120)
		text := pgn.MoveText{W: &sb}
		for ply := 0; ply < plies; ply++ {
			moves := pos.ValidMoves()
			if len(moves) == 0 {
				break
			}
			var m *chess.Move
			var rare []*chess.Move
			for _, v := range moves {
				if v.HasTag(chess.KingSideCastle) || v.HasTag(chess.QueenSideCastle) || v.HasTag(chess.EnPassant) || v.Promo() != chess.NoPieceType {
					rare = append(rare, v)
				}
			}
			if len(rare) > 0 && rng.Intn(10) < 8 {
				m = rare[rng.Intn(len(rare))]
			} else if rng.Intn(10) < 7 {
				m = moves[rng.Intn(min(4, len(moves)))]
			} else {
				m = moves[rng.Intn(len(moves))]
			}
			tok := chess.AlgebraicNotation{}.Encode(pos, m)
			if ply%2 == 0 {
				tok = fmt.Sprintf("%d. %s", ply/2+1, tok)
			}
			text.Add(tok, false)
			pos = pos.Update(m)
		}
		fmt.Fprintf(&sb, " %s\n\n", res)
	}
	path := filepath.Join(fixture.Testdata, "pgn", "random.pgn")
	if *writeRandomPGN {
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if string(fixture.ReadFile(t, path)) != sb.String() {
		t.Fatalf("%s is stale: go generate ./book/build rewrites it", path)
	}
}

// keyAfter is the key after UCI moves from the start position.
func keyAfter(t *testing.T, moves string) board.Key {
	t.Helper()
	p := board.StartPosition()
	for _, s := range strings.Fields(moves) {
		m, err := board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		p.Play(m)
	}
	return p.Key()
}

type handEntry struct {
	after  string // UCI moves from the start
	move   string // as stored
	weight uint16
}

func (h handEntry) entry(t *testing.T) book.Entry {
	m, err := board.ParseMove(h.move)
	if err != nil {
		t.Fatal(err)
	}
	return book.Entry{Key: keyAfter(t, h.after), Move: m, Weight: h.weight}
}

func buildFile(t *testing.T, path string, opt Options) (*Builder, []book.Entry) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := NewBuilder(opt)
	if err := b.AddPGN(f, filepath.Base(path)); err != nil {
		t.Fatal(err)
	}
	return b, b.Entries()
}

func sortedHand(t *testing.T, hand []handEntry) []book.Entry {
	var want []book.Entry
	for _, h := range hand {
		want = append(want, h.entry(t))
	}
	// Hand lists are grouped by position in PGN order; the book is
	// ordered by key.
	sortEntries(want)
	return want
}

// sortEntries orders by key only, keeping each key's hand-written order.
func sortEntries(es []book.Entry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j-1].Key > es[j].Key; j-- {
			es[j-1], es[j] = es[j], es[j-1]
		}
	}
}

// TestBuildSmallByHand: testdata/pgn/small.pgn, book worked out by hand
// (2 points per win, 1 per draw from the mover's view; no Result tag counts
// as a draw; a lost move scores 0 and is dropped; castling stored e1h1).
func TestBuildSmallByHand(t *testing.T) {
	opt := DefaultOptions()
	opt.MinGame = 1
	_, got := buildFile(t, filepath.Join(fixture.Testdata, "pgn/small.pgn"), opt)
	want := sortedHand(t, []handEntry{
		{"", "e2e4", 3}, {"", "d2d4", 1},
		{"e2e4", "e7e5", 2}, {"e2e4", "c7c5", 1},
		{"e2e4 e7e5", "g1f3", 2},
		{"e2e4 e7e5 g1f3", "g8f6", 2},
		{"e2e4 e7e5 g1f3 b8c6", "f1c4", 2},
		{"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", "e1h1", 2},
		{"d2d4", "d7d5", 1},
	})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("book\n%v\nwant\n%v", got, want)
	}

	// PolyGlot's defaults: min-game 3 leaves only 1. e4 (3 games).
	_, got = buildFile(t, filepath.Join(fixture.Testdata, "pgn/small.pgn"), DefaultOptions())
	if want := sortedHand(t, []handEntry{{"", "e2e4", 3}}); !reflect.DeepEqual(got, want) {
		t.Errorf("default options: %v, want %v", got, want)
	}

	// -only-black, -uniform, -max-ply 1.
	opt = DefaultOptions()
	opt.MinGame, opt.Colours, opt.Uniform = 1, BlackOnly, true
	_, got = buildFile(t, filepath.Join(fixture.Testdata, "pgn/small.pgn"), opt)
	want = sortedHand(t, []handEntry{
		{"e2e4", "e7e5", 1}, {"e2e4", "c7c5", 1},
		{"e2e4 e7e5 g1f3", "g8f6", 1},
		{"d2d4", "d7d5", 1},
	})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("only black, uniform: %v, want %v", got, want)
	}
	opt = DefaultOptions()
	opt.MinGame, opt.MaxPly, opt.MinScore = 1, 1, 60
	_, got = buildFile(t, filepath.Join(fixture.Testdata, "pgn/small.pgn"), opt)
	if len(got) != 0 {
		t.Errorf("max-ply 1, min-score 60 (e4 scores 50%%, d4 50%%): %v, want nothing", got)
	}
	opt.MinScore = 50
	_, got = buildFile(t, filepath.Join(fixture.Testdata, "pgn/small.pgn"), opt)
	if want := sortedHand(t, []handEntry{{"", "e2e4", 3}, {"", "d2d4", 1}}); !reflect.DeepEqual(got, want) {
		t.Errorf("max-ply 1, min-score 50: %v, want %v", got, want)
	}
}

// TestBuildTiesInOrderOfAppearance: equal weights keep the PGN's order,
// not the move codes' (a2a3 has a smaller code than e2e4).
func TestBuildTiesInOrderOfAppearance(t *testing.T) {
	opt := DefaultOptions()
	opt.MinGame = 1
	_, got := buildFile(t, filepath.Join(fixture.Testdata, "pgn/ties.pgn"), opt)
	var start []string
	for _, e := range got {
		if e.Key == keyAfter(t, "") {
			start = append(start, fmt.Sprintf("%v:%d", e.Move, e.Weight))
		}
	}
	if want := []string{"e2e4:2", "a2a3:2", "d2d4:1", "g1f3:1", "b2b3:1"}; !reflect.DeepEqual(start, want) {
		t.Errorf("start position %v, want %v", start, want)
	}
}

// TestBuildRobust: testdata/pgn/robust.pgn has a BOM, CRLF, a FEN game and
// ten broken games PolyGlot would abort on; each is skipped and counted,
// and none leaves a trace in the book.
func TestBuildRobust(t *testing.T) {
	opt := DefaultOptions()
	opt.MinGame = 1
	var skipped []string
	f, err := os.Open(filepath.Join(fixture.Testdata, "pgn/robust.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := NewBuilder(opt)
	b.OnSkip = func(s SkippedGame) { skipped = append(skipped, fmt.Sprintf("%d %s", s.Line, s.Reason)) }
	if err := b.AddPGN(f, "robust.pgn"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"13 " + pgn.SkipIllegal, "18 " + pgn.SkipAmbiguous, "23 " + pgn.SkipNullMove, "28 " + pgn.SkipNullMove, "33 " + pgn.SkipNullMove,
		"38 " + pgn.SkipBadTag, "43 " + pgn.SkipNoResult, "48 " + pgn.SkipVariant, "55 " + pgn.SkipBadFEN, "62 " + pgn.SkipBadMove,
	}
	if !reflect.DeepEqual(skipped, want) {
		t.Errorf("skipped\n%q\nwant\n%q", skipped, want)
	}
	s := b.Stats()
	if s.Games != 13 || s.SkippedTotal() != 10 || s.Skipped[pgn.SkipNullMove] != 3 || s.Plies != 11 {
		t.Errorf("stats %+v", s)
	}
	got := b.Entries()
	wantEntries := sortedHand(t, []handEntry{
		{"", "e2e4", 3},
		{"e2e4", "c7c5", 2}, // from the FEN game, which Black won
		{"e2e4", "e7e5", 1},
		{"e2e4 e7e5", "g1f3", 1},
		{"e2e4 e7e5 g1f3", "b8c6", 1},
		{"e2e4 e7e5 g1f3 b8c6", "f1c4", 1},
		{"e2e4 e7e5 g1f3 b8c6 f1c4", "f8c5", 1},
		{"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", "e1h1", 1},
	})
	if !reflect.DeepEqual(got, wantEntries) {
		t.Errorf("book\n%v\nwant\n%v", got, wantEntries)
	}
}

// TestBuildHalving: when an entry reaches 16384 games, every move of that
// position is halved, rounding up (PolyGlot's rule).
func TestBuildHalving(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("[Result \"1/2-1/2\"]\n1. d4 *\n")
	for i := 0; i < 16384; i++ {
		sb.WriteString("[Result \"1-0\"]\n1. e4 *\n")
	}
	opt := DefaultOptions()
	opt.MinGame = 1
	b := NewBuilder(opt)
	if err := b.AddPGN(strings.NewReader(sb.String()), "halving"); err != nil {
		t.Fatal(err)
	}
	// e4: n 16384 -> 8192, points 32768 -> 16384; d4: n 1 -> 1, points 1 -> 1.
	want := sortedHand(t, []handEntry{{"", "e2e4", 16384}, {"", "d2d4", 1}})
	if got := b.Entries(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// n is now 8192 for e4: with min-game 8193 it is dropped, 8192 kept.
	for _, mg := range []int{8192, 8193} {
		b.opt.MinGame = mg
		n := 0
		for _, e := range b.Entries() {
			if e.Move.String() == "e2e4" {
				n++
			}
		}
		if want := map[int]int{8192: 1, 8193: 0}[mg]; n != want {
			t.Errorf("min-game %d: e2e4 kept %d times, want %d", mg, n, want)
		}
	}
}

// TestBuildManyEntries grows the index several times and checks counts
// survive: every game a different first-two-moves pair.
func TestBuildManyEntries(t *testing.T) {
	p := board.StartPosition()
	var firsts []string
	cp := chess.StartingPosition()
	for _, m := range cp.ValidMoves() {
		firsts = append(firsts, chess.AlgebraicNotation{}.Encode(cp, m))
	}
	var sb strings.Builder
	games := 0
	for _, a := range firsts {
		q := *p
		am, err := board.ParseSAN(&q, a)
		if err != nil {
			t.Fatal(err)
		}
		q.Play(am)
		for _, b := range []string{"a6", "a5", "b6", "b5", "c6", "c5", "d6", "d5", "e6", "e5", "f6", "f5", "g6", "g5", "h6", "h5", "Na6", "Nc6", "Nf6", "Nh6"} {
			for r := 0; r < 3; r++ {
				fmt.Fprintf(&sb, "[Result \"1-0\"]\n1. %s %s *\n", a, b)
				games++
			}
		}
	}
	opt := DefaultOptions()
	b := NewBuilder(opt)
	if err := b.AddPGN(strings.NewReader(sb.String()), "many"); err != nil {
		t.Fatal(err)
	}
	got := b.Entries()
	// 20 first moves with 60 wins each; 400 replies with 3 losses (0
	// points): only the 20 first moves remain, weight 120.
	if len(got) != 20 || b.Stats().Positions != 420 || b.Stats().Games != games {
		t.Fatalf("%d entries, %+v", len(got), b.Stats())
	}
	for _, e := range got {
		if e.Weight != 120 || e.Key != p.Key() {
			t.Fatalf("entry %+v", e)
		}
	}
}

// TestWriteBookAtomic: the target holds the old book or the new one, never
// a part; failures leave no temporary file.
func TestWriteBookAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	if err := os.WriteFile(path, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	es := []book.Entry{{Key: 1, Move: 2, Weight: 3, Learn: 4}, {Key: 5, Move: 6, Weight: 7, Learn: 8}}
	if err := polyglot.WriteFile(path, es); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) != 32 || polyglot.DecodeEntry(data[16:]) != es[1] {
		t.Fatalf("written %x, %v", data, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
	// A directory in the way, a missing directory: errors, nothing left.
	if err := polyglot.WriteFile(dir, es); err == nil {
		t.Error("writing over a directory succeeded")
	}
	if err := polyglot.WriteFile(filepath.Join(dir, "missing", "x.bin"), es); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
	names, _ := os.ReadDir(dir)
	if len(names) != 1 {
		t.Errorf("directory holds %v, want only out.bin", names)
	}
	// An empty book: an empty file. A replaced book keeps its mode.
	if err := os.Chmod(path, 0o664); err != nil {
		t.Fatal(err)
	}
	if err := polyglot.WriteFile(path, nil); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Size() != 0 || st.Mode().Perm() != 0o664 {
		t.Errorf("empty book: %d bytes, mode %v", st.Size(), st.Mode())
	}
}
