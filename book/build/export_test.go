package build

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// randomBook is make-book's book of random.pgn's games, all made draws
// so that every move has points and stays: every position of the book is
// reachable from the start by book moves.
func randomBook(t *testing.T, maxPly int) *book.Book {
	t.Helper()
	data, err := os.ReadFile(fixture.Testdata + "/pgn/random.pgn")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"1-0", "0-1", "*"} {
		data = bytes.ReplaceAll(data, []byte(r), []byte("1/2-1/2"))
	}
	b := NewBuilder(Options{MaxPly: maxPly, MinGame: 1})
	if err := b.AddPGN(bytes.NewReader(data), "random.pgn"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "random.bin")
	if err := polyglot.WriteFile(path, b.Entries()); err != nil {
		t.Fatal(err)
	}
	return fixture.OpenPath(t, path)
}

type keyMove struct {
	key  board.Key
	move board.Move
}

// walkRAV replays every move of PGN movetext, variations included: a
// variation starts from the position before the move it follows.
func walkRAV(t *testing.T, text string, fn func(pos *board.Position, m board.Move)) int {
	t.Helper()
	body := text[strings.Index(text, "\n\n")+2:]
	var stack [][2]board.Position // (before the last move, after it)
	cur := [2]board.Position{*board.StartPosition(), *board.StartPosition()}
	n := 0
	for len(body) > 0 {
		body = strings.TrimLeft(body, " \n")
		switch {
		case body == "":
		case body[0] == '{':
			body = body[strings.IndexByte(body, '}')+1:]
		case body[0] == '(':
			stack = append(stack, cur)
			cur = [2]board.Position{cur[0], cur[0]}
			body = body[1:]
		case body[0] == ')':
			cur, stack = stack[len(stack)-1], stack[:len(stack)-1]
			body = body[1:]
		default:
			end := strings.IndexAny(body, " \n(){")
			if end < 0 {
				end = len(body)
			}
			tok := body[:end]
			body = body[end:]
			if tok == "*" || strings.HasSuffix(tok, ".") {
				continue
			}
			pos := cur[1]
			m, err := board.ParseSAN(&pos, tok)
			if err != nil {
				t.Fatalf("move %d %q: %v", n+1, tok, err)
			}
			fn(&pos, m)
			n++
			after := pos
			after.Play(m)
			cur = [2]board.Position{pos, after}
		}
	}
	if len(stack) != 0 {
		t.Fatal("unclosed variation")
	}
	return n
}

// TestTreeToPGNReadsBack: the tree's PGN is read by our reader and by
// notnil's (main line), every move of every variation is legal where it
// stands and is a move of the book there, and every move the walk
// follows is written.
func TestTreeToPGNReadsBack(t *testing.T) {
	books := map[string]*book.Book{"random": randomBook(t, 16)}
	if !testenv.RaceEnabled {
		books["gnuchess"] = fixture.OpenPath(t, testenv.GnuchessBook(t))
	}
	for name, b := range books {
		for _, opt := range []TreeOptions{{MaxPly: 10}, {MaxPly: 30, MinShare: 10}} {
			var buf bytes.Buffer
			st, err := TreeToPGN(&buf, b, name, opt)
			if err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			written := map[keyMove]bool{}
			moves := walkRAV(t, text, func(pos *board.Position, m board.Move) {
				written[keyMove{pos.Key(), pos.ToBook(m)}] = true
				found := false
				for _, e := range b.Entries(pos.Key()) {
					found = found || pos.ToPlayed(e.Move) == m && e.Weight > 0
				}
				if !found {
					t.Errorf("%s: %s is not a book move at %s", name, m, pos.FEN())
				}
			})
			if moves != st.Moves || moves < 20 {
				t.Errorf("%s %+v: %d moves read back, %d written", name, opt, moves, st.Moves)
			}
			for _, l := range strings.Split(text, "\n") {
				if len(l) > 80 {
					t.Errorf("line of %d characters", len(l))
				}
			}
			// Our reader: one game, main line legal.
			r := pgn.NewReader(strings.NewReader(text))
			g, err := r.Next()
			if err != nil || g.Result != "*" {
				t.Fatalf("our reader: %v", err)
			}
			if err := g.Replay(func(*board.Position, board.Move) {}); err != nil {
				t.Errorf("our reader: %v", err)
			}
			main := g.NumMoves()
			if _, err := r.Next(); err != io.EOF {
				t.Errorf("more than one game: %v", err)
			}
			// notnil's decoder.
			read, err := chess.PGN(strings.NewReader(text))
			if err != nil {
				t.Fatalf("notnil: %v", err)
			}
			if n := len(chess.NewGame(read).Moves()); n != main {
				t.Errorf("notnil reads %d main-line moves, we %d", n, main)
			}
			// The lines (-lines) hold the same moves.
			lineMoves := map[keyMove]bool{}
			TreeLines(b, opt, func(line []board.Move) error {
				p := *board.StartPosition()
				for _, m := range line {
					lineMoves[keyMove{p.Key(), p.ToBook(m)}] = true
					p.Play(m)
				}
				return nil
			})
			if len(lineMoves) != len(written) {
				t.Errorf("%s %+v: lines hold %d moves, the tree %d", name, opt, len(lineMoves), len(written))
			}
			for km := range lineMoves {
				if !written[km] {
					t.Errorf("%s: line move %v not in the tree", name, km)
				}
			}
		}
	}
}

// TestTreeLinesRoundTrip: book → one game per line → make-book gives the
// book's moves back, all of them (every position of a make-book book is
// reachable from the start).
func TestTreeLinesRoundTrip(t *testing.T) {
	b := randomBook(t, 12)
	var games bytes.Buffer
	n := 0
	if err := TreeLines(b, TreeOptions{}, func(line []board.Move) error {
		n++
		return WriteLineGame(&games, "lines", n, *board.StartPosition(), line)
	}); err != nil {
		t.Fatal(err)
	}
	bl := NewBuilder(Options{MaxPly: 1024, MinGame: 1})
	if err := bl.AddPGN(&games, "lines.pgn"); err != nil {
		t.Fatal(err)
	}
	if s := bl.Stats(); s.SkippedTotal() > 0 || s.Games != n {
		t.Fatalf("%d games, %d skipped", s.Games, s.SkippedTotal())
	}
	set := func(es []book.Entry) []string {
		var out []string
		for _, e := range es {
			if e.Key != 0 && e.Weight > 0 {
				out = append(out, fmt.Sprintf("%s %s", e.Key, e.Move))
			}
		}
		slices.Sort(out)
		return out
	}
	var orig []book.Entry
	for i := range b.Len() {
		orig = append(orig, b.Entry(i))
	}
	if got, want := set(bl.Entries()), set(orig); !slices.Equal(got, want) {
		t.Errorf("round trip: %d moves, the book has %d", len(got), len(want))
	}
}

// TestOpenings: at a ply, the distinct positions the book reaches there;
// the leaves; the share limit; and each line leads to its position.
func TestOpenings(t *testing.T) {
	b := randomBook(t, 12)
	// All positions at ply 2, by brute force over the book's moves.
	want := map[board.Key]bool{}
	start := *board.StartPosition()
	for _, m1 := range treeMoves(b, &start) {
		p1 := start
		p1.Play(m1.played)
		for _, m2 := range treeMoves(b, &p1) {
			p2 := p1
			p2.Play(m2.played)
			want[p2.Key()] = true
		}
	}
	ops := Openings(b, TreeOptions{}, 2, 0)
	if len(ops) != len(want) || len(ops) < 5 {
		t.Errorf("ply 2: %d positions, want %d", len(ops), len(want))
	}
	for _, o := range append(ops, Openings(b, TreeOptions{MaxPly: 6}, 0, 0)...) {
		p := *board.StartPosition()
		for _, m := range o.Moves {
			p.Play(m)
		}
		if p.Key() != o.Pos.Key() || o.Share <= 0 || o.Share > 1 {
			t.Errorf("opening %s: line leads elsewhere or share %v", o.Pos.FEN(), o.Share)
		}
	}
	all := Openings(b, TreeOptions{}, 0, 0)
	few := Openings(b, TreeOptions{}, 0, 5)
	if len(few) == 0 || len(few) >= len(all) {
		t.Errorf("leaves: %d, with lines of at least 5%%: %d", len(all), len(few))
	}
	for _, o := range few {
		if o.Share < 0.05 {
			t.Errorf("a line of %.3f below 5%%", o.Share)
		}
	}
}
