package pgn

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
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
// be after size bytes) and, if maxPiece > 0, pieces of at most maxPiece
// bytes, as make-book does: each piece with a reader of its own, and a
// torn one read again on into the pieces after it (Continue) until one
// ends where a game starts.
func pieceEvents(t testing.TB, text []byte, size, maxPiece int) []string {
	var r io.Reader = smallReads{bytes.NewReader(text), size}
	if size == 1 {
		r = iotest.OneByteReader(bytes.NewReader(text))
	}
	sp := NewSplitter(r, size)
	if maxPiece > 0 {
		// A line cut between pieces is longer than a piece: it must be
		// longer than shortLine too, as with the splitter's own bound.
		sp.maxPiece = max(maxPiece, size, shortLine+1)
	}
	var pieces []Piece
	for {
		p, err := sp.Next(nil)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Text) > sp.MaxPiece() {
			t.Fatalf("a piece of %d bytes, more than %d", len(p.Text), sp.MaxPiece())
		}
		if n := len(pieces); n > 0 && p.Line != pieces[n-1].Line+bytes.Count(pieces[n-1].Text, []byte{'\n'}) {
			t.Fatalf("piece at line %d after %d lines from %d", p.Line, bytes.Count(pieces[n-1].Text, []byte{'\n'}), pieces[n-1].Line)
		}
		pieces = append(pieces, p)
	}
	var out []string
	for i := 0; i < len(pieces); i++ {
		events, torn := chunkEvents(t, NewChunkReader(pieces[i]))
		if torn && !pieces[i].Last {
			r := NewChunkReader(pieces[i])
			r.Continue = func() (Piece, bool) {
				if i+1 == len(pieces) {
					return Piece{}, false
				}
				i++
				return pieces[i], true
			}
			if events, torn = chunkEvents(t, r); torn {
				t.Fatal("a torn piece at the end of the stream")
			}
		}
		out = append(out, events...)
	}
	return out
}

// chunkEvents reads a chunk reader to its end.
func chunkEvents(t testing.TB, r *Reader) (events []string, torn bool) {
	for {
		g, err := r.Next()
		if err == io.EOF {
			return events, r.Torn()
		}
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Fatal(err)
		}
		events = append(events, event(g, err))
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
				if got := pieceEvents(t, text, size, 0); !reflect.DeepEqual(got, want) {
					t.Errorf("%s in pieces of %d: %d events\n%s\nwant %d\n%s", name, size, len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
				}
			}
		}
	}
}

// FuzzSplitMatchesWhole: any text cut into pieces of any size, and of any
// bound (open pieces), reads as the whole stream does, whatever the
// reader's limits.
func FuzzSplitMatchesWhole(f *testing.F) {
	for _, name := range []string{"small.pgn", "robust.pgn", "forms.pgn"} {
		if text, err := os.ReadFile("../../testdata/pgn/" + name); err == nil {
			f.Add(text, uint16(1), uint8(0))
		}
	}
	f.Add([]byte("[A \"1\"]\n\n[B \"2\"]\n1. e4 {x\n[C \"3\"]\n} *\n[D \"4\"]\n\n1. d4 (1. c4\n[E \"5\"]\n1. e4\n"), uint16(2), uint8(0))
	f.Add([]byte("[A \"1\"]\n\n1. e4 {a long comment\n[B \"2\"]\nstill in it} e5 $12 Nf3 1-0\n[C \"3\"]\n\n1. d4 *\n"), uint16(3+300*5), uint8(0x55))
	f.Fuzz(func(t *testing.T, text []byte, sizes uint16, limits uint8) {
		if len(text) > 1<<16 {
			return
		}
		defer setLimits(limits)()
		// The size of the pieces, and the most a piece holds past it (0:
		// the splitter's own bound); small bounds make open pieces.
		size, extra := int(sizes%300)+1, int(sizes/300)
		maxPiece := 0
		if extra > 0 {
			maxPiece = size + extra
		}
		want := wholeEvents(t, text)
		if got := pieceEvents(t, text, size, maxPiece); !reflect.DeepEqual(got, want) {
			t.Fatalf("pieces of %d, at most %d: %q\nwant %q", size, maxPiece, got, want)
		}
	})
}

// Offset tells where in a chunk reader's text the game read ends: after
// its termination marker, or at the next game's first tag line when it
// has none; a game after it is read from there alike.
func TestChunkReaderOffset(t *testing.T) {
	text := "\xef\xbb\xbf[White \"a\"]\r\n\r\n1. e4 e5 1-0 \r\n\r\n[White \"b\"]\n\n1. d4\n[White \"c\"]\n\n1. c4 {x} *\n"
	r := NewChunkReader(Piece{Text: []byte(text), Line: 1})
	var ends []string
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		ends = append(ends, g.Tag("White")+"|"+text[r.Offset():min(r.Offset()+6, len(text))])
	}
	want := []string{"a| \r\n\r\n[", "b|[White", "c|\n"}
	if !slices.Equal(ends, want) {
		t.Fatalf("games end at %q, want %q", ends, want)
	}
}

// A reader going on into open pieces (Continue) tells where each game
// ends in the text of all the pieces, as the reader of the whole text
// does, wherever the pieces are cut: inside lines, tags and tokens too.
func TestChunkReaderOffsetOverPieces(t *testing.T) {
	read := func(r *Reader) []string {
		var out []string
		for {
			g, err := r.Next()
			if err == io.EOF {
				return out
			}
			var se *SyntaxError
			if err != nil && !errors.As(err, &se) {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s at %d", event(g, err), r.Offset()))
		}
	}
	for _, name := range []string{"small.pgn", "forms.pgn", "robust.pgn"} {
		text, err := os.ReadFile("../../testdata/pgn/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range [][]byte{text, bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))} {
			want := read(NewChunkReader(Piece{Text: text, Line: 1, Last: true}))
			for _, size := range []int{1, 3, 50, 4097} {
				piece := func(from int) Piece {
					to := min(from+size, len(text))
					return Piece{Text: text[from:to], Line: 1, Last: to == len(text), Open: true}
				}
				at := 0
				r := NewChunkReader(piece(0))
				r.Continue = func() (Piece, bool) {
					if at += size; at >= len(text) {
						return Piece{}, false
					}
					return piece(at), true
				}
				if got := read(r); !slices.Equal(got, want) {
					t.Errorf("%s in open pieces of %d:\n%s\nwant\n%s", name, size, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		}
	}
}
