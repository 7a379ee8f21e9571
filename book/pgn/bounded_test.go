package pgn

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/hostilepgn"
)

// hostile streams a hostile input as it is drawn: no test holds it.
func hostile(shape hostilepgn.Shape, size int64) io.Reader {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(hostilepgn.Write(pw, hostilepgn.Options{Shape: shape, Size: size, Seed: 1})) }()
	return pr
}

// streamEvents reads every game and syntax error of a stream, and returns
// the reader for a look at what it holds.
func streamEvents(t *testing.T, in io.Reader) ([]string, *Reader) {
	t.Helper()
	r := NewReader(in)
	var out []string
	for {
		g, err := r.Next()
		if err == io.EOF {
			return out, r
		}
		if _, ok := err.(*SyntaxError); err != nil && !ok {
			t.Fatal(err)
		}
		out = append(out, event(g, err))
	}
}

// TestReaderLineOfAnyLength: a comment of 17 MiB on one line, more than
// any line the reader once held, is read through in bounded memory, and
// the games on the line and after it are those of the same input with a
// short comment.
func TestReaderLineOfAnyLength(t *testing.T) {
	want, _ := streamEvents(t, hostile(hostilepgn.CommentOneLine, 100))
	if len(want) != 4 || !strings.HasSuffix(want[1], "[e4 e5 Nf3]") {
		t.Fatalf("the short input reads as %q", want)
	}
	got, r := streamEvents(t, hostile(hostilepgn.CommentOneLine, 17<<20))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("with a 17 MiB comment:\n got %q\nwant %q", got, want)
	}
	if held := cap(r.long) + cap(r.game.buf); held > 64<<10 {
		t.Errorf("the reader holds %d bytes after a long line", held)
	}
}

// TestSplitterPiecesBounded: whatever the input, no piece is longer than
// the splitter's bound (its size and a quarter), and the pieces read as
// the whole stream does: a comment over lines, over lines that look like
// tags (a cut inside the game), on one line; a long game; tiny games.
func TestSplitterPiecesBounded(t *testing.T) {
	const size = 4 << 10
	for _, shape := range hostilepgn.Shapes {
		n := int64(1 << 20)
		switch shape {
		case hostilepgn.LongGame:
			n = 5000
		case hostilepgn.OnePlyGames, hostilepgn.BrokenGames:
			n = 2000
		}
		t.Run(string(shape), func(t *testing.T) {
			text, err := io.ReadAll(hostile(shape, n))
			if err != nil {
				t.Fatal(err)
			}
			sp := NewSplitter(bytes.NewReader(text), size)
			for {
				p, err := sp.Next(nil)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(p.Text) > size+max(size/4, 2*shortLine) {
					t.Fatalf("a piece of %d bytes at line %d", len(p.Text), p.Line)
				}
			}
			want, _ := streamEvents(t, bytes.NewReader(text))
			if got := pieceEvents(t, text, size, 0); !reflect.DeepEqual(got, want) {
				t.Fatalf("in pieces:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// setLimits sets shortLine and maxItem from a fuzzer's byte (0: as they
// are) and returns what restores them.
func setLimits(limits uint8) func() {
	oldLine, oldItem := shortLine, maxItem
	if limits != 0 {
		shortLine, maxItem = int(limits&15)+1, int(limits>>4)+1
	}
	return func() { shortLine, maxItem = oldLine, oldItem }
}

// FuzzReaderWindows: read in windows of any size, from 16 bytes, and in
// reads of any size, any input gives the games and errors it gives read
// in the usual windows, whatever the limits (small ones make long lines,
// tokens and tags of the fuzzer's inputs).
func FuzzReaderWindows(f *testing.F) {
	f.Add([]byte("[Event \"x\"]\n\n1. e4 e5 {c} (1... c5) 2. Nf3 $1 Nc6 1-0\n"), uint8(0), uint8(1), uint8(0))
	f.Add([]byte("[Event \"a tag longer than a window\"]\n[Result \"1-0\"]\n\n1. e4 {a comment longer than a window} e5 ; a line comment longer than a window\n2. Nf3 $123456 1-0\n"), uint8(3), uint8(7), uint8(0x97))
	f.Add([]byte("{ open\n\n[Event \"next\"]\n%escape line longer than a window { }\n1. d4 *"), uint8(0), uint8(2), uint8(0x3c))
	f.Fuzz(func(t *testing.T, data []byte, window, reads, limits uint8) {
		if len(data) > 1<<16 {
			return
		}
		defer setLimits(limits)()
		want := wholeEvents(t, data)
		r := newReaderWindow(smallReads{bytes.NewReader(data), int(reads) + 1}, int(window)+16)
		var got []string
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if _, ok := err.(*SyntaxError); err != nil && !ok {
				t.Fatal(err)
			}
			got = append(got, event(g, err))
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("windows of %d bytes:\n got %q\nwant %q", int(window)+16, got, want)
		}
	})
}
