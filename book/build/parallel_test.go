package build

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// oddPGN is PGN where a cut before a tag line is not a game start, or
// where the game around a cut ends oddly: each must read as in one piece.
const oddPGN = `[Event "tags with an empty line between them"]

[White "a"]
[Result "1-0"]

1. e4 e5 1-0

[Event "a comment over a tag line, no empty line"]
[Result "0-1"]

1. d4 { a comment
[Event "inside the comment"]
still } d5 0-1

[Event "a comment over a tag line after an empty line: broken"]
[Result "0-1"]

1. c4 { open

[Event "after the broken comment"]
[Result "1-0"]

1. c4 c5 1-0
[Event "no empty line before the tags"]
[Result "1/2-1/2"]

1. Nf3 Nf6 (1... d5 2. g3
[Event "a variation open at the next game"]
[Result "1-0"]

1. e4 c5 2. Nf3 1-0

[Event "no termination marker"]
[Result "1-0"]

1. e4 e6 2. d4
[Event "a tag line after an escape line"]
%escape
[Result "1-0"]

1. e4 e6 1-0

[Event "bad tag]
[Result "1-0"]
[Site "tags after the bad one belong to the broken game"]

1. e4 e5 1-0

{ an open comment before any game

[Event "after it"]
[Result "1-0"]

1. e4 1-0

{ a comment before a game }
[Event "after a comment"]
[Result "0-1"]

1. e4 c6 0-1
; a line comment
[Event "after a ; comment"]
[Result "1-0"]

1. e4 c6 2. d4 1-0 [Event "on the line of the result"]
[Result "1-0"]

1. e4 c6 2. d4 d5 1-0
`

// buildWith builds data with the given threads and piece size and
// returns the book, the stats and every skip message.
func buildWith(t *testing.T, data []byte, opt Options, threads, size int) ([]book.Entry, Stats, []string) {
	t.Helper()
	defer func(old int) { pieceSize = old }(pieceSize)
	pieceSize = size
	opt.Threads = threads
	b := NewBuilder(opt)
	var skips []string
	b.OnSkip = func(s SkippedGame) { skips = append(skips, s.String()) }
	// Reads as small as the pieces, so that a piece is cut at the first
	// place it can be: with pieces of one byte, at every place.
	var r io.Reader = bytes.NewReader(data)
	if size < 4096 {
		r = iotest.OneByteReader(r)
	}
	if err := b.AddPGN(r, "x.pgn"); err != nil {
		t.Fatal(err)
	}
	return b.Entries(), b.Stats(), skips
}

// TestParallelMatchesSequential: threaded builds give the same entries
// (same order), the same counts and the same skip messages in the same
// order as the one-goroutine build, with pieces of every size from one
// byte (a cut at every possible place, so every odd case of oddPGN meets
// a cut) up.
func TestParallelMatchesSequential(t *testing.T) {
	inputs := map[string][]byte{"odd.pgn": []byte(oddPGN), "odd-crlf.pgn": []byte(strings.ReplaceAll(oddPGN, "\n", "\r\n"))}
	for _, name := range []string{"small.pgn", "ties.pgn", "forms.pgn", "robust.pgn", "random.pgn"} {
		data, err := os.ReadFile(fixture.Testdata + "/pgn/" + name)
		if err != nil {
			t.Fatal(err)
		}
		inputs[name] = data
	}
	// Halving: one move reaching 16384 games twice, another halved along;
	// results vary so that first appearances and points interleave.
	var sb strings.Builder
	results := []string{"1-0", "0-1", "1/2-1/2", "*"}
	for i := range 33000 {
		move := "e4 e5"
		if i%7 == 0 {
			move = "d4 d5"
		}
		fmt.Fprintf(&sb, "[Result \"%s\"]\n\n1. %s *\n\n", results[(i*7/3)%4], move)
	}
	inputs["halving.pgn"] = []byte(sb.String())

	opt := DefaultOptions()
	opt.MinGame = 1
	sizes := []int{1, 2, 7, 61, 300, 4096, 1 << 20}
	if testenv.RaceEnabled {
		sizes = []int{1, 61, 4096}
	}
	for name, data := range inputs {
		want, wantStats, wantSkips := buildWith(t, data, opt, 1, pieceSize)
		if wantStats.Games == 0 {
			t.Fatalf("%s: no games", name)
		}
		for _, size := range sizes {
			if name == "halving.pgn" && size < 300 || name == "random.pgn" && size < 61 {
				continue // pieces of a few games: slow, and the small files cover it
			}
			for _, threads := range []int{2, 3} {
				got, stats, skips := buildWith(t, data, opt, threads, size)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s, pieces of %d bytes, %d threads: entries differ (%d and %d)", name, size, threads, len(got), len(want))
				}
				if !reflect.DeepEqual(stats, wantStats) {
					t.Errorf("%s, pieces of %d bytes, %d threads: stats %+v, want %+v", name, size, threads, stats, wantStats)
				}
				if !reflect.DeepEqual(skips, wantSkips) {
					t.Errorf("%s, pieces of %d bytes, %d threads: skips\n%s\nwant\n%s", name, size, threads, strings.Join(skips, "\n"), strings.Join(wantSkips, "\n"))
				}
			}
		}
	}
}

// TestParallelBookGames: generated games like an opening suite's, all
// flags that change the entries, threaded and not.
func TestParallelBookGames(t *testing.T) {
	n := 3000
	if testenv.RaceEnabled {
		n = 500
	}
	data := fixture.BookGames(fixture.OpenPath(t, testenv.GnuchessBook(t)), n, "Stockfish", 11)
	for _, opt := range []Options{
		{MaxPly: 16, MinGame: 3},
		{MaxPly: 1024, MinGame: 1, MinScore: 40, Colours: BlackOnly},
		{MaxPly: 30, MinGame: 2, Uniform: true, MinShare: 10},
	} {
		want, wantStats, _ := buildWith(t, data, opt, 1, pieceSize)
		for _, threads := range []int{2, 4} {
			got, stats, _ := buildWith(t, data, opt, threads, 8<<10)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(stats, wantStats) {
				t.Errorf("%+v, %d threads: differs from one thread (%d and %d entries)", opt, threads, len(got), len(want))
			}
		}
	}
}

// errReader fails after its data.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestParallelReadError: a read error part-way is returned, as without
// threads.
func TestParallelReadError(t *testing.T) {
	defer func(old int) { pieceSize = old }(pieceSize)
	pieceSize = 64
	data, err := os.ReadFile(fixture.Testdata + "/pgn/small.pgn")
	if err != nil {
		t.Fatal(err)
	}
	boom := fmt.Errorf("boom")
	for _, threads := range []int{1, 2} {
		b := NewBuilder(Options{MaxPly: 10, MinGame: 1, Threads: threads})
		if err := b.AddPGN(&errReader{data, boom}, "x.pgn"); err == nil || !strings.Contains(err.Error(), "boom") {
			t.Errorf("%d threads: error %v", threads, err)
		}
	}
}
