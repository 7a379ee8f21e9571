package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// event is what a reader gives for one Next: a game (its line, result,
// tags and moves) or a syntax error.
func event(g *Game, err error) string {
	var se *SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("error %d/%d %s", se.Line, se.GameLine, se.Msg)
	}
	var moves []string
	for i := range g.NumMoves() {
		moves = append(moves, string(g.Move(i)))
	}
	return fmt.Sprintf("game %d %q %q %q %v", g.Line, g.Result, g.Tag("Event"), g.Tag("Result"), moves)
}

func wholeEvents(t testing.TB, text []byte) []string {
	var out []string
	r := NewReader(bytes.NewReader(text))
	for {
		g, err := r.Next()
		if err == io.EOF {
			return out
		}
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Fatal(err)
		}
		out = append(out, event(g, err))
	}
}

// smallReads reads at most n bytes a call.
type smallReads struct {
	r io.Reader
	n int
}

func (s smallReads) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), s.n)]) }

// pieceEvents reads text cut by a Splitter of the given size (reading as
// little at a time, so that pieces are cut at the first place they can
// be after size bytes), a torn piece read again joined with the next, as
// make-book does.
func pieceEvents(t testing.TB, text []byte, size int) []string {
	var out []string
	var r io.Reader = smallReads{bytes.NewReader(text), size}
	if size == 1 {
		r = iotest.OneByteReader(bytes.NewReader(text))
	}
	sp := NewSplitter(r, size)
	var joined []byte
	line := 0
	for {
		p, err := sp.Next(nil)
		if err == io.EOF {
			if joined != nil {
				t.Fatal("a torn piece at the end of the stream")
			}
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if joined == nil {
			line = p.Line
		} else if p.Line != line+bytes.Count(joined, []byte{'\n'}) {
			t.Fatalf("piece at line %d after %d lines from %d", p.Line, bytes.Count(joined, []byte{'\n'}), line)
		}
		joined = append(joined, p.Text...)
		var events []string
		r := NewChunkReader(joined, line, p.Last)
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			var se *SyntaxError
			if err != nil && !errors.As(err, &se) {
				t.Fatal(err)
			}
			events = append(events, event(g, err))
		}
		if r.Torn() && !p.Last {
			continue
		}
		out = append(out, events...)
		joined = nil
	}
}

// TestSplitMatchesWhole: cut at every place a splitter can cut, the
// pieces give the games and errors of the whole stream, in order.
func TestSplitMatchesWhole(t *testing.T) {
	for _, name := range []string{"small.pgn", "ties.pgn", "forms.pgn", "robust.pgn"} {
		text, err := os.ReadFile("../../testdata/pgn/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range [][]byte{text, bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))} {
			want := wholeEvents(t, text)
			for _, size := range []int{1, 3, 50, 1 << 20} {
				if got := pieceEvents(t, text, size); !reflect.DeepEqual(got, want) {
					t.Errorf("%s in pieces of %d: %d events\n%s\nwant %d\n%s", name, size, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
				}
			}
		}
	}
}

// FuzzSplitMatchesWhole: any text cut into pieces of any size reads as
// the whole stream does, whatever the reader's limits.
func FuzzSplitMatchesWhole(f *testing.F) {
	for _, name := range []string{"small.pgn", "robust.pgn", "forms.pgn"} {
		if text, err := os.ReadFile("../../testdata/pgn/" + name); err == nil {
			f.Add(text, uint16(1), uint8(0))
		}
	}
	f.Add([]byte("[A \"1\"]\n\n[B \"2\"]\n1. e4 {x\n[C \"3\"]\n} *\n[D \"4\"]\n\n1. d4 (1. c4\n[E \"5\"]\n1. e4\n"), uint16(2), uint8(0))
	f.Add([]byte("[A \"1\"]\n\n1. e4 {a long comment\n[B \"2\"]\nstill in it} e5 $12 Nf3 1-0\n[C \"3\"]\n\n1. d4 *\n"), uint16(3), uint8(0x55))
	f.Fuzz(func(t *testing.T, text []byte, size uint16, limits uint8) {
		if len(text) > 1<<16 {
			return
		}
		defer setLimits(limits)()
		want := wholeEvents(t, text)
		if got := pieceEvents(t, text, int(size%300)+1); !reflect.DeepEqual(got, want) {
			t.Fatalf("pieces of %d: %q\nwant %q", size%300+1, got, want)
		}
	})
}
