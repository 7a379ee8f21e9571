package hostilepgn

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
)

func write(t *testing.T, o Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestShapes: each shape is what it says, the same bytes for a seed: the
// comment of exactly Size bytes (without a line break on one line, with
// tag-like lines where asked), the long game legal to its Size plies, Size
// one-ply games, Size broken games; normal games before and after.
func TestShapes(t *testing.T) {
	for _, shape := range Shapes {
		o := Options{Shape: shape, Size: 5000, Seed: 3}
		if shape == OnePlyGames || shape == BrokenGames {
			o.Size = 40
		}
		text := write(t, o)
		if !bytes.Equal(text, write(t, o)) {
			t.Fatalf("%s: two writes differ", shape)
		}
		var plies []int
		broken := 0
		r := pgn.NewReader(bytes.NewReader(text))
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if _, ok := err.(*pgn.SyntaxError); ok && shape == BrokenGames {
				broken++
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", shape, err)
			}
			if err := g.Replay(func(*board.Position, board.Move) {}); err != nil {
				t.Fatalf("%s: game at line %d: %v", shape, g.Line, err)
			}
			plies = append(plies, g.NumMoves())
		}
		games := 4
		switch shape {
		case LongGame:
			if plies[1] != 5000 {
				t.Errorf("the long game has %d plies", plies[1])
			}
		case OnePlyGames:
			games = 43
		case BrokenGames:
			games = 3
			if broken != 40 {
				t.Errorf("%d broken games", broken)
			}
		default:
			open, end := bytes.IndexByte(text, '{'), bytes.IndexByte(text, '}')
			comment := string(text[open+1 : end])
			if len(comment) != 5000 || strings.Contains(comment, "\n") != (shape != CommentOneLine) ||
				strings.Contains(comment, "\n[Event ") != (shape == CommentTagLines) {
				t.Errorf("%s: a comment of %d bytes, %d lines", shape, len(comment), strings.Count(comment, "\n"))
			}
		}
		if len(plies) != games {
			t.Errorf("%s: %d games", shape, len(plies))
		}
	}
}
