package learn

import (
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

// mayFollow holds what moves cannot undo, and nothing more.
func TestMayFollow(t *testing.T) {
	for _, c := range []struct {
		name          string
		before, after string
		want          bool
	}{
		{"the same", board.StartFEN, board.StartFEN, true},
		{"a game on", board.StartFEN, "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", true},
		{"a pawn back", "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1", "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", false},
		{"a pawn a file aside by a capture", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", "4k3/8/8/8/8/2P5/8/4K3 w - - 0 1", true},
		{"a pawn two files aside in a rank", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", "4k3/8/8/8/8/1P6/8/4K3 w - - 0 1", false},
		{"a black pawn forward", "4k3/3p4/8/8/8/8/8/4K3 b - - 0 1", "4k3/8/8/3p4/8/8/8/4K3 b - - 0 1", true},
		{"a black pawn back", "4k3/8/8/3p4/8/8/8/4K3 b - - 0 1", "4k3/3p4/8/8/8/8/8/4K3 b - - 0 1", false},
		{"a castling right back", "r3k2r/8/8/8/8/8/8/R3K2R w Kk - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", false},
		{"a piece more", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "4k3/8/8/8/8/8/8/R2QK3 w - - 0 1", false},
		{"a pawn made a queen", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "Q3k3/8/8/8/8/8/8/4K3 b - - 0 1", true},
	} {
		before, err := board.ParseFEN(c.before)
		if err != nil {
			t.Fatal(err)
		}
		after, err := board.ParseFEN(c.after)
		if err != nil {
			t.Fatal(err)
		}
		if got := mayFollow(before, after); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
