package formats_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

// propertyLines are the positions the random books hold moves of, each a
// line from the start; the last lets White castle.
var propertyLines = []string{"", "e2e4", "e2e4 e7e5", "d2d4", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"}

// movePool is the moves an edit or a random book picks from at pos: a
// few legal moves, castling among them where it is legal, spelled either
// way books store it (king takes rook, king to its square).
func movePool(r *rand.Rand, pos *board.Position) []board.Move {
	legal := pos.LegalMoves()
	pool := slices.Clone(legal[:min(6, len(legal))])
	for _, m := range legal {
		if pos.ToBook(m) != m && !slices.Contains(pool, m) {
			pool = append(pool, m)
		}
	}
	for i, m := range pool {
		if r.IntN(2) == 0 {
			pool[i] = pos.ToBook(m)
		}
	}
	return pool
}

// randomBook writes a book of the format of ext: at each line's position
// some moves of the pool, the line's next move among them, with weights
// that tie often.
func randomBook(t *testing.T, r *rand.Rand, ext string) string {
	var es []book.Entry
	for i, moves := range propertyLines {
		pos := fixture.Line(t, board.StartFEN, moves).Pos
		var next []string // the moves that lead to the later lines
		for _, later := range propertyLines[i+1:] {
			if rest, ok := strings.CutPrefix(later, moves); ok && rest != "" {
				next = append(next, strings.Fields(rest)[0])
			}
		}
		for _, m := range movePool(r, &pos) {
			if r.IntN(2) == 0 && !slices.Contains(next, pos.ToPlayed(m).String()) {
				continue
			}
			es = append(es, book.Entry{Key: pos.Key(), Move: m, Weight: []uint16{1, 5, 5, 10, 10}[r.IntN(5)]})
		}
	}
	path := fixture.WriteEntries(t, es)
	if ext == ".bin" {
		return path
	}
	src, err := polyglot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	out := filepath.Join(t.TempDir(), "book.abk")
	if _, err := abk.Write(out, src, 20); err != nil {
		t.Fatal(err)
	}
	return out
}

// randomEdit is an edit of a move of the pool at a line's position, of a
// kind the format of ext makes.
func randomEdit(t *testing.T, r *rand.Rand, ext string) book.Edit {
	pos := fixture.Line(t, board.StartFEN, propertyLines[r.IntN(len(propertyLines))]).Pos
	pool := movePool(r, &pos)
	e := book.Edit{Pos: pos, Move: pool[r.IntN(len(pool))]}
	kinds := []book.EditKind{book.EditWeight, book.EditWeight, book.EditDelete, book.EditAdd}
	if ext == ".abk" {
		kinds[0], kinds[1] = book.EditFields, book.EditFields
	}
	e.Kind = kinds[r.IntN(len(kinds))]
	e.Weight = []uint16{1, 5, 10, 20}[r.IntN(4)]
	if ext == ".abk" {
		games := r.Int64N(20)
		won := r.Int64N(games + 1)
		e.Fields = map[string]int64{"priority": r.Int64N(10), "games": games, "won": won, "lost": r.Int64N(games - won + 1)}
	}
	return e
}

// TestEditsUndoneToTheBytes: random edits and undos over random books of
// every format that can be edited (castling stored either way, weights
// tied), every edit undone in the end: the file is as it was, byte for
// byte.
func TestEditsUndoneToTheBytes(t *testing.T) {
	for seed := range 40 {
		for _, ext := range []string{".bin", ".abk"} {
			r := rand.New(rand.NewPCG(uint64(seed), 38))
			path := randomBook(t, r, ext)
			orig := fixture.ReadFile(t, path)
			lf, err := formats.OpenLearnFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var undos []book.Edit
			undo := func(what string) {
				last := undos[len(undos)-1]
				undos = undos[:len(undos)-1]
				if _, err := lf.Edit(t.Context(), last); err != nil {
					t.Fatalf("seed %d %s: %s undo of %v %s: %v", seed, ext, what, last.Kind, last.Move, err)
				}
			}
			made := 0
			for range 60 {
				if len(undos) > 0 && r.IntN(3) == 0 {
					undo("an")
					continue
				}
				e := randomEdit(t, r, ext)
				u, err := lf.Edit(t.Context(), e)
				if errors.Is(err, book.ErrEdit) {
					continue // not in the book, there already, ...
				}
				if err != nil {
					t.Fatalf("seed %d %s: %v %s: %v", seed, ext, e.Kind, e.Move, err)
				}
				made++
				undos = append(undos, u)
			}
			for len(undos) > 0 {
				undo("the last")
			}
			lf.Close()
			if !bytes.Equal(fixture.ReadFile(t, path), orig) {
				t.Errorf("seed %d %s: %d edits made and undone: the book differs", seed, ext, made)
			}
		}
	}
}
