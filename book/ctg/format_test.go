package ctg_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
)

// entriesAt are the entries b gives at pos, as the Chooser finds them,
// in a fixed order.
func entriesAt(b *book.Book, pos *board.Position) []book.Entry {
	var es []book.Entry
	for _, f := range b.At(pos, nil) {
		es = append(es, f.Entry)
	}
	slices.SortFunc(es, func(x, y book.Entry) int { return int(x.Move) - int(y.Move) })
	return es
}

// TestFormatByPosition: the CTG format opens a book found by position:
// no entries by key, every position of the walk found with the reader's
// moves (as stored, castling king takes rook), weights scaled from
// DroidFish's (the heaviest 65535) and learn fields from the statistics
// of the position each move leads to; and never in a Chess960 game.
func TestFormatByPosition(t *testing.T) {
	path := filepath.Join("testdata", "castling.ctg")
	b, err := ctg.Format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !b.FoundByPosition() || b.Len() != 0 || b.Format().Name() != "CTG" || !b.NoChess960() {
		t.Fatalf("found by position %v, %d entries, format %s", b.FoundByPosition(), b.Len(), b.Format().Name())
	}
	r, opt := ctg.ReaderOf(b)
	if r == nil || opt != (ctg.Options{}) {
		t.Fatalf("reader %v, options %+v", r, opt)
	}
	roots := readRoots(t, filepath.Join("testdata", "castling.roots"))
	positions, moves, castlings := 0, 0, 0
	for _, root := range roots {
		_, err := r.Walk(root, 6, opt, func(pos *board.Position, _ int, e *ctg.Position) error {
			positions++
			got := entriesAt(b, pos)
			var weights []float64
			for _, m := range e.Moves {
				weights = append(weights, m.Weight)
			}
			scaled := book.ScaleWeights(nil, weights)
			var want []book.Entry
			for i, m := range e.Moves {
				w := scaled[i]
				var learn book.Learn
				if m.Next != nil {
					learn = book.MakeLearn(int64(m.Next.Games), 2*int64(m.Next.Losses)+int64(m.Next.Draws))
				}
				stored := pos.ToBook(m.Move)
				if stored != m.Move {
					castlings++
				}
				want = append(want, book.Entry{Key: pos.Key(), Move: stored, Weight: w, Learn: learn})
			}
			slices.SortFunc(want, func(x, y book.Entry) int { return int(x.Move) - int(y.Move) })
			if !slices.Equal(got, want) {
				t.Errorf("%s: entries %v, want %v", pos.FEN(), got, want)
			}
			moves += len(got)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if positions < 50 || castlings == 0 {
		t.Fatalf("%d positions, %d castlings", positions, castlings)
	}
	t.Logf("%d positions, %d moves (%d castlings) as the reader has them", positions, moves, castlings)

	chess960, err := board.ParseFENVariant(roots[0].FEN(), true)
	if err != nil {
		t.Fatal(err)
	}
	c := book.NewChooser(book.Options{}, 1)
	if cands := c.Candidates(b, roots[0], nil); len(cands) == 0 {
		t.Fatalf("%s: no candidates", roots[0].FEN())
	}
	if cands := c.Candidates(b, chess960, nil); len(cands) != 0 {
		t.Errorf("a Chess960 game probed the CTG book: %v", cands)
	}
	if d := c.Choose(book.Both(b), book.At(chess960)); d.Chosen >= 0 || !strings.Contains(d.Reason, "the CTG format has no Chess960") {
		t.Errorf("Chess960: chosen %v, %q", d.Chosen, d.Reason)
	}
}

// readRoots reads a roots file of testdata.
func readRoots(t *testing.T, path string) []*board.Position {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []*board.Position
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, mustFEN(t, l))
		}
	}
	return out
}

// TestWhole: the games book read whole is its walk from the start
// position: every position the book found by position gives, with the
// same entries; to a max ply, only the moves up to it, and a warning
// counting what it leaves out. A book whose positions start elsewhere
// (mirror's) finds them a position at a time, not whole.
func TestWhole(t *testing.T) {
	lazy, err := ctg.Format.Open(filepath.Join("testdata", "games.ctg"))
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	whole, err := lazy.Whole(0)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	info := ctg.InfoOf(whole)
	if info == nil || info.Walk == nil || info.Walk.InPages != 2273 || info.Walk.Entries != 2273 || info.Walk.Unreached != 0 || len(whole.Warnings()) != 0 {
		t.Fatalf("info %+v, warnings %q", info, whole.Warnings())
	}
	if r, _ := ctg.ReaderOf(whole); r != nil || whole.FoundByPosition() {
		t.Fatal("the book read whole still reads its files")
	}
	r, _ := ctg.ReaderOf(lazy)
	n := 0
	_, err = r.Walk(board.StartPosition(), 99, ctg.Options{}, func(pos *board.Position, _ int, _ *ctg.Position) error {
		want := entriesAt(lazy, pos)
		got := whole.Entries(pos.Key())
		slices.SortFunc(got, func(x, y book.Entry) int { return int(x.Move) - int(y.Move) })
		if !slices.Equal(got, want) {
			t.Errorf("%s: read whole %v, by position %v", pos.FEN(), got, want)
		}
		n += len(want)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != whole.Len() || n < 2000 {
		t.Errorf("%d entries walked, %d read whole", n, whole.Len())
	}

	short, err := lazy.Whole(3)
	if err != nil {
		t.Fatal(err)
	}
	deepest := 0
	for i := range short.Len() {
		e := short.Entry(i)
		if len(whole.Entries(e.Key)) == 0 {
			t.Errorf("entry %v is not in the book read whole", e)
		}
	}
	_, err = r.Walk(board.StartPosition(), 99, ctg.Options{}, func(pos *board.Position, ply int, _ *ctg.Position) error {
		if len(short.Entries(pos.Key())) > 0 {
			deepest = max(deepest, ply)
		}
		return nil
	})
	w := ctg.InfoOf(short).Walk
	if err != nil || deepest != 2 || w.Unreached != w.InPages-w.Entries || w.Unreached == 0 ||
		!slices.ContainsFunc(short.Warnings(), func(s string) bool {
			return strings.Contains(s, "are not reached") && strings.Contains(s, "within 3 plies")
		}) {
		t.Errorf("max ply 3: moves from positions up to ply %d, walk %+v, warnings %q (%v)", deepest, w, short.Warnings(), err)
	}

	mirror, err := ctg.Format.Open(filepath.Join("testdata", "mirror.ctg"))
	if err != nil {
		t.Fatal(err)
	}
	defer mirror.Close()
	root := readRoots(t, filepath.Join("testdata", "mirror.roots"))[0]
	mirrorWhole, err := mirror.Whole(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(entriesAt(mirror, root)) == 0 || len(mirrorWhole.Entries(root.Key())) != 0 ||
		!slices.ContainsFunc(mirrorWhole.Warnings(), func(s string) bool { return strings.Contains(s, "are not reached") }) {
		t.Errorf("%s: by position %v, whole %v, warnings %q", root.FEN(), entriesAt(mirror, root), mirrorWhole.Entries(root.Key()), mirrorWhole.Warnings())
	}
}
