package formats_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
)

// gameBook is a Polyglot book of random games from the start position:
// weights spread over three orders of magnitude (some far below a
// threshold, some 0), learn fields at times, moves shared between games
// so positions have several.
func gameBook(r *rand.Rand) []book.Entry {
	type id struct {
		k board.Key
		m board.Move
	}
	seen := map[id]bool{}
	var es []book.Entry
	for range 5 + r.IntN(60) {
		pos := board.StartPosition()
		for range 1 + r.IntN(14) {
			moves := pos.LegalMoves()
			if len(moves) == 0 {
				break
			}
			m := moves[r.IntN(min(len(moves), 4))] // a few moves, so lines meet
			if k := (id{pos.Key(), pos.ToBook(m)}); !seen[k] {
				seen[k] = true
				w := uint16(r.IntN(3)) * uint16(1+r.IntN(20)) * uint16(1+r.IntN(1000))
				var l book.Learn
				if r.IntN(4) == 0 {
					games := r.Int64N(30)
					l = book.MakeLearn(games, r.Int64N(2*games+1))
				}
				es = append(es, book.Entry{Key: k.k, Move: k.m, Weight: w, Learn: l})
			}
			pos.Play(m)
		}
	}
	return es
}

// convert writes src as path in the format its name claims, keeping the
// chances under threshold, and opens what it wrote.
func convert(t *testing.T, src *book.Book, path string, threshold, maxPly int) *book.Book {
	t.Helper()
	var b book.Batch
	defer b.Abort()
	if _, err := formats.WriteAs(formats.Keeping(formats.Claimed(path), threshold), &b, path, src, maxPly); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	dst, err := formats.OpenWhole(path, formats.Options{}, maxPly)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dst.Close() })
	return dst
}

// mostMoves is the most legal moves a position of b has.
func mostMoves(b *book.Book) int {
	n, run := 0, 0
	var prev board.Key
	for i := 0; i < b.Len(); i++ {
		if k := b.Entry(i).Key; k != prev || i == 0 {
			run, prev = 0, k
		}
		run++
		n = max(n, run)
	}
	return n
}

// TestConversionsKeepTheChances: random books of games, converted to ABK
// and back under thresholds of 0, 5 and 50 per mille, play each move with
// its chance to within the rounding of a 65535th per move of a position
// (each game count and weight is rounded to a 65535th of its position's
// likeliest move); and CompareChances finds no more.
func TestConversionsKeepTheChances(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		threshold := []int{0, 5, 50}[seed%3]
		maxPly := []int{formats.MaxPly, 3 + r.IntN(10)}[r.IntN(2)]
		src := book.FromEntries("games.bin", gameBook(r))
		bound := float64(mostMoves(src)) / 65535
		dir := t.TempDir()
		ab := convert(t, src, filepath.Join(dir, "games.abk"), threshold, maxPly)
		c := formats.CompareChances(src, ab, threshold, maxPly)
		if c.Positions == 0 || c.Largest > bound {
			t.Errorf("seed %d, threshold %d, max ply %d: .bin -> .abk: %+v over %d positions, bound %.3g", seed, threshold, maxPly, c, c.Positions, bound)
		}
		bin := convert(t, ab, filepath.Join(dir, "back.bin"), threshold, maxPly)
		if back := formats.CompareChances(ab, bin, threshold, maxPly); back.Largest > bound || back.Positions != c.Positions {
			t.Errorf("seed %d: .abk -> .bin: %+v, bound %.3g (%d positions there)", seed, back, bound, c.Positions)
		}
		if again := formats.CompareChances(src, bin, threshold, maxPly); again.Largest > 2*bound {
			t.Errorf("seed %d: .bin -> .abk -> .bin: %+v", seed, again)
		}
	}
}

// TestCompareChancesFindsTheChange: a book whose one move weighs more
// after a change is found at that position, with the move's chances
// before and after, and the line to it.
func TestCompareChancesFindsTheChange(t *testing.T) {
	line := []string{"e2e4", "e7e5", "g1f3"}
	l, err := board.NewLine("")
	if err != nil {
		t.Fatal(err)
	}
	var es []book.Entry
	for _, m := range line {
		mv, err := l.Pos.LegalMove(mustMove(t, m))
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, book.Entry{Key: l.Pos.Key(), Move: l.Pos.ToBook(mv), Weight: 100})
		if _, err := l.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	black := l.Pos.Key()
	es = append(es, book.Entry{Key: black, Move: mustMove(t, "b8c6"), Weight: 300},
		book.Entry{Key: black, Move: mustMove(t, "d7d6"), Weight: 100}, book.Entry{Key: black, Move: mustMove(t, "a7a6"), Weight: 100})
	changed := append([]book.Entry(nil), es...)
	changed[len(changed)-2].Weight = 400 // d6: 20% -> 50%, c6 60% -> 37.5%
	c := formats.CompareChances(book.FromEntries("a", es), book.FromEntries("b", changed), 5, formats.MaxPly)
	got := fmt.Sprintf("%v %v %.4f %.4f %.4f %d", c.Line, c.Move, c.From, c.To, c.Largest, c.Positions)
	if want := "[e2e4 e7e5 g1f3] d7d6 0.2000 0.5000 0.3000 4"; got != want {
		t.Errorf("CompareChances: %s, want %s", got, want)
	}
}

func mustMove(t *testing.T, s string) board.Move {
	t.Helper()
	m, err := board.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCTGConversionsKeepTheChances: the CTG test books, read under each
// of the two settings' four combinations, converted to ABK and to
// Polyglot, play each move with the chance the CTG book gives it (probed
// a position at a time, as the proxy plays it: DroidFish's weights, which
// book/ctg's oracle tests hold it to), within a 65535th per move of a
// position, at every position the walk from the start position reaches.
func TestCTGConversionsKeepTheChances(t *testing.T) {
	books := []string{"annotations", "games", "small"} // those whose walk starts at the start position
	for _, name := range books {
		for k := range 4 {
			opt := formats.Options{CTGTournamentMode: k&1 != 0, CTGPreferMainLines: k&2 != 0}
			path := filepath.Join("..", "ctg", "testdata", name+".ctg")
			probed, err := formats.OpenWith(path, opt)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := formats.OpenWhole(path, opt, formats.MaxPly)
			if err != nil {
				t.Fatal(err)
			}
			bound := float64(mostMoves(whole)) / 65535
			dir := t.TempDir()
			for _, out := range []string{"out.abk", "out.bin"} {
				threshold := 5 * (k % 2)
				dst := convert(t, whole, filepath.Join(dir, out), threshold, formats.MaxPly)
				c := formats.CompareChances(probed, dst, threshold, formats.MaxPly)
				if c.Positions == 0 || c.Largest > bound {
					t.Errorf("%s (%+v) -> %s, threshold %d: %+v, bound %.3g", name, opt, out, threshold, c, bound)
				}
			}
			whole.Close()
			probed.Close()
		}
	}
}
