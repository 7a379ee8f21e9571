package build

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/hostilepgn"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// hostileText draws a hostile input (internal/hostilepgn).
func hostileText(t *testing.T, shape hostilepgn.Shape, size int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := hostilepgn.Write(&buf, hostilepgn.Options{Shape: shape, Size: size, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// polyglotBookOf is PolyGlot's make-book of text, given on its standard
// input, with flags.
func polyglotBookOf(t *testing.T, text []byte, flags ...string) []byte {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "polyglot.bin")
	cmd := exec.Command(testenv.PolyGlot(t), append([]string{"make-book", "-pgn", "/dev/stdin", "-bin", out}, flags...)...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(text)
	msg, err := cmd.CombinedOutput()
	if err != nil || bytes.Contains(bytes.ToLower(msg), []byte("error")) {
		t.Fatalf("polyglot: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("polyglot wrote no book: %v\n%s", err, msg)
	}
	return data
}

// TestHostileInputsMatchPolyGlot: make-book reads the hostile inputs, the
// comment on one line longer than any line the readers once held (16 MiB),
// and writes PolyGlot's book with one thread and with several, the
// several reading pieces small enough that the comments and the long game
// span many of them (cut inside the game where a comment's line looks
// like a tag, or nowhere); the counts of the same reading make that book
// too.
func TestHostileInputsMatchPolyGlot(t *testing.T) {
	defer func(old int) { pieceSize = old }(pieceSize)
	pieceSize = 4 << 10
	for _, in := range []struct {
		shape hostilepgn.Shape
		size  int64
	}{
		{hostilepgn.CommentLines, 1 << 20},
		{hostilepgn.CommentTagLines, 1 << 20},
		{hostilepgn.CommentOneLine, 17 << 20},
		{hostilepgn.LongGame, 20000},
		{hostilepgn.OnePlyGames, 20000},
	} {
		text := hostileText(t, in.shape, in.size)
		want := polyglotBookOf(t, text, "-min-game", "1")
		for _, threads := range []int{1, 2, 8} {
			opt := DefaultOptions()
			opt.MinGame, opt.Threads = 1, threads
			b := NewBuilder(opt)
			if err := b.AddPGN(bytes.NewReader(text), "hostile.pgn"); err != nil {
				t.Fatalf("%s, %d threads: %v", in.shape, threads, err)
			}
			var got bytes.Buffer
			if _, err := b.WriteBook(&got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s, %d threads: a book of %d bytes, PolyGlot's %d", in.shape, threads, got.Len(), len(want))
			}
			if threads == 2 { // and the counts recipe's book of the same reading
				var counts bytes.Buffer
				if err := b.WriteCounts(&counts); err != nil {
					t.Fatal(err)
				}
				cr, err := NewCountsReader(&counts)
				if err != nil {
					t.Fatal(err)
				}
				entries, _, err := FromCounts([]*CountsReader{cr}, opt)
				if err != nil {
					t.Fatal(err)
				}
				var recipe []byte
				for _, e := range entries {
					var enc [polyglot.EntrySize]byte
					polyglot.PutEntry(enc[:], e)
					recipe = append(recipe, enc[:]...)
				}
				if !bytes.Equal(recipe, want) {
					t.Errorf("%s: the counts' book of %d bytes, PolyGlot's %d", in.shape, len(recipe), len(want))
				}
			}
			b.Close()
		}
	}
}

// TestParallelSkipLimit: with SkipLimit, OnSkip gets the first skipped
// games, the same with any threads, Stats counts them all, and no piece
// holds more of them whole (a file of broken games would otherwise hold
// one for every few bytes of the pieces in flight); without OnSkip none.
func TestParallelSkipLimit(t *testing.T) {
	defer func(old int) { pieceSize = old }(pieceSize)
	pieceSize = 4 << 10
	text := hostileText(t, hostilepgn.BrokenGames, 3000)
	var want []string
	var wantStats Stats
	for _, threads := range []int{1, 2, 8} {
		opt := DefaultOptions()
		opt.Threads = threads
		b := NewBuilder(opt)
		var got []string
		b.OnSkip = func(s SkippedGame) { got = append(got, s.String()) }
		b.SkipLimit = 21
		if err := b.AddPGN(bytes.NewReader(text), "broken.pgn"); err != nil {
			t.Fatal(err)
		}
		st := b.Stats()
		if threads == 1 {
			want, wantStats = got, st
			if len(want) != 21 || st.SkippedTotal() != 3000 {
				t.Fatalf("one thread: %d skips given, %d counted", len(want), st.SkippedTotal())
			}
		} else if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(st, wantStats) {
			t.Errorf("%d threads: skips %q, stats %+v; want %q, %+v", threads, got, st, want, wantStats)
		}
	}
	for _, keep := range []int{0, 21} {
		p := gameParser{opt: &Options{MaxPly: 10}, reader: &pgn.Reader{MoveLimit: 10}, keepSkips: keep}
		res := p.parsePiece(pgn.Piece{Text: text, Line: 1, Last: true}, "broken.pgn", nil)
		if len(res.skips) != keep || res.skippedOver[pgn.SkipSyntax] != 3000-keep {
			t.Errorf("keeping %d: a piece holds %d skipped games, counts %v", keep, len(res.skips), res.skippedOver)
		}
	}
}
