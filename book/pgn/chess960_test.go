package pgn

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

// TestChess960StartsLookup: a start read from the table is the position
// its FEN gives, in X-FEN and Shredder-FEN.
func TestChess960StartsLookup(t *testing.T) {
	starts := chess960Starts.Get()
	if len(starts) != 2*960 {
		t.Fatalf("%d FENs for 960 starts", len(starts))
	}
	for fen, p := range starts {
		q, err := board.ParseFENVariant(fen, true)
		if err != nil || *q != p {
			t.Fatalf("%s: table %s, read %v (%v)", fen, p.FEN(), q, err)
		}
	}
}

// TestStartVariants reads the start of games as lichess, cutechess-cli and
// others tag them.
func TestStartVariants(t *testing.T) {
	const start959 = "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB"
	for _, tc := range []struct {
		variant, fen string
		chess960     bool
		skip         bool
	}{
		{"", "", false, false},
		{"Standard", "", false, false},
		{"Chess960", start959 + " w KQkq - 0 1", true, false},
		{"fischerandom", start959 + " w CAca - 0 1", true, false},
		{"Fischer Random", start959 + " w KQkq - 0 1", true, false},
		{"chess960", "", true, false},                        // the standard start, Chess960's castling
		{"Chess960", start959 + " b Cc e3 3 7", true, false}, // not a start: read from the FEN
		{"crazyhouse", start959 + " w KQkq - 0 1", false, true},
		// No variant named (cutechess-cli's Chess960 games): the FEN's
		// castling rights tell, in any style, as python-chess reads them.
		{"", start959 + " w KQkq - 0 1", true, false},
		{"", start959 + " w CAca - 0 1", true, false},
		{"", "r3k1r1/pppppppp/8/8/8/8/PPPPPPPP/R3K1R1 w KQkq - 0 1", true, false}, // K: the rook on g1
		{"Standard", start959 + " w CAca - 0 1", true, false},
		{"", start959 + " w - - 0 1", false, false}, // no rights: nothing only Chess960 has
		{"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", false, false},
	} {
		text := "[Result \"*\"]\n"
		if tc.variant != "" {
			text += "[Variant \"" + tc.variant + "\"]\n"
		}
		if tc.fen != "" {
			text += "[SetUp \"1\"]\n[FEN \"" + tc.fen + "\"]\n"
		}
		g, err := NewReader(strings.NewReader(text + "\n*\n")).Next()
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.Start()
		if tc.skip {
			if err == nil {
				t.Errorf("%q: no skip", tc.variant)
			}
			continue
		}
		if err != nil || p.Chess960() != tc.chess960 || g.Chess960() != tc.chess960 {
			t.Errorf("%q %q: Chess960 %v (game %v), %v", tc.variant, tc.fen, p.Chess960(), g.Chess960(), err)
			continue
		}
		want := tc.fen
		if want == "" {
			want = board.StartFEN
		}
		q, _ := board.ParseFENVariant(want, tc.chess960)
		if p.Key() != q.Key() || p.FEN() != q.FEN() {
			t.Errorf("%q %q: start %s, want %s", tc.variant, tc.fen, p.FEN(), q.FEN())
		}
	}
}

// A Chess960 game without a Variant tag replays in Chess960: its castling
// (king b1, rooks a1 and h1) is legal, as king takes rook, where standard
// chess would have dropped the rights and skipped the game as illegal.
func TestReplayChess960WithoutVariant(t *testing.T) {
	text := "[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n\n1. O-O O-O-O 2. Kh1 1-0\n"
	g, err := NewReader(strings.NewReader(text)).Next()
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	if err := g.Replay(func(pos *board.Position, m board.Move) {
		if !pos.Chess960() {
			t.Fatalf("%s read as standard chess", pos.FEN())
		}
		moves = append(moves, m.String())
	}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(moves, " "); got != "b1h1 b8a8 g1h1" {
		t.Fatalf("played %s", got)
	}
}
