package randgames

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// TestChess960PGNReplays reads the games back: every one replays to its
// end as Chess960, both castlings occur, and a seed gives the same bytes.
func TestChess960PGNReplays(t *testing.T) {
	for _, cutechess := range []bool{false, true} {
		o := Options{Seed: 1, Games: 60, Cutechess: cutechess}
		text := Chess960PGN(o)
		if text != Chess960PGN(o) {
			t.Fatal("the same options gave different games")
		}
		r := pgn.NewReader(strings.NewReader(text))
		games, short, long := 0, 0, 0
		for {
			g, err := r.Next()
			if err != nil {
				break
			}
			games++
			if !g.Chess960() {
				t.Fatalf("game %d: Variant %q is not Chess960", games, g.Tag("Variant"))
			}
			err = g.Replay(func(pos *board.Position, m board.Move) {
				switch pos.SAN(m) {
				case "O-O", "O-O+", "O-O#":
					short++
				case "O-O-O", "O-O-O+", "O-O-O#":
					long++
				}
			})
			if err != nil {
				t.Fatalf("game %d: %v", games, err)
			}
		}
		if games != o.Games || short < 10 || long < 10 {
			t.Fatalf("read %d games of %d, %d O-O, %d O-O-O", games, o.Games, short, long)
		}
	}
}

// TestStandardPGNReplays: Standard games are standard chess from the start.
func TestStandardPGNReplays(t *testing.T) {
	r := pgn.NewReader(strings.NewReader(Chess960PGN(Options{Seed: 2, Games: 40, Standard: true})))
	games, castlings := 0, 0
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		games++
		if g.Tag("Variant") != "" || g.Tag("FEN") != "" {
			t.Fatalf("game %d has Variant %q FEN %q", games, g.Tag("Variant"), g.Tag("FEN"))
		}
		err = g.Replay(func(pos *board.Position, m board.Move) {
			if pos.Chess960() {
				t.Fatal("a standard game replays as Chess960")
			}
			if strings.HasPrefix(pos.SAN(m), "O-O") {
				castlings++
			}
		})
		if err != nil {
			t.Fatalf("game %d: %v", games, err)
		}
	}
	if games != 40 || castlings < 10 {
		t.Fatalf("%d games, %d castlings", games, castlings)
	}
}
