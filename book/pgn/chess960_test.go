package pgn

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

// TestChess960StartsLookup: a start read from the table is the position
// its FEN gives, in X-FEN and Shredder-FEN.
func TestChess960StartsLookup(t *testing.T) {
	starts := chess960Starts()
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
