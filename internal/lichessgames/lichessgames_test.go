package lichessgames

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// TestSameBytes: a seed gives the same text, written at once or in
// parts, by Write on all cores or by PGN.
func TestSameBytes(t *testing.T) {
	whole := PGN(Options{Seed: 7, Games: 300})
	parts := append(PGN(Options{Seed: 7, Games: 130}), PGN(Options{Seed: 7, First: 130, Games: 170})...)
	if !bytes.Equal(whole, parts) {
		t.Fatal("games 0-299 differ from games 0-129 and 130-299")
	}
	var buf bytes.Buffer
	if err := Write(&buf, Options{Seed: 7, Games: 300}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(whole, buf.Bytes()) {
		t.Fatal("Write and PGN differ")
	}
	if bytes.Equal(whole, PGN(Options{Seed: 8, Games: 300})) {
		t.Fatal("another seed gave the same games")
	}
}

// TestGamesLookReal reads the games back: legal to the end, lichess's
// tags, a clock comment after every move and evals in some games, a mix
// of results and speeds, openings that repeat and middlegames that do not.
func TestGamesLookReal(t *testing.T) {
	const games = 200
	text := PGN(Options{Seed: 1, Games: games})
	r := pgn.NewReader(bytes.NewReader(text))
	results, events := map[string]int{}, map[string]int{}
	firstMoves := map[string]int{}
	atPly30 := map[board.Key]bool{}
	long, n := 0, 0
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		n++
		for _, tag := range []string{"Site", "UTCDate", "UTCTime", "WhiteElo", "BlackElo", "WhiteRatingDiff", "ECO", "Opening", "TimeControl", "Termination"} {
			if g.Tag(tag) == "" {
				t.Fatalf("game %d: no %s tag", n, tag)
			}
		}
		if g.Result != g.Tag("Result") {
			t.Fatalf("game %d: result %q, Result tag %q", n, g.Result, g.Tag("Result"))
		}
		results[g.Result]++
		events[g.Tag("Event")]++
		firstMoves[string(g.Move(0))]++
		ply := 0
		err = g.Replay(func(pos *board.Position, m board.Move) {
			if ply == 30 {
				atPly30[pos.Key()] = true
			}
			ply++
		})
		if err != nil {
			t.Fatalf("game %d: %v", n, err)
		}
		if ply >= 31 {
			long++
		}
	}
	if n != games {
		t.Fatalf("read %d games of %d", n, games)
	}
	if len(results) != 3 || results["1/2-1/2"] > games/5 || len(events) < 4 {
		t.Fatalf("results %v, events %v", results, events)
	}
	if clocks := bytes.Count(text, []byte("[%clk ")); clocks < 30*games {
		t.Fatalf("%d clock comments in %d games", clocks, games)
	}
	if evals := bytes.Count(text, []byte("[%eval ")); evals == 0 || evals > bytes.Count(text, []byte("[%clk "))/4 {
		t.Fatalf("%d evals: want some analysed games, not most", evals)
	}
	most := 0
	for _, c := range firstMoves {
		most = max(most, c)
	}
	if most < games/3 || len(firstMoves) < 4 {
		t.Fatalf("first moves %v: want a popular one and a few others", firstMoves)
	}
	if len(atPly30) < long*9/10 {
		t.Fatalf("%d distinct positions at ply 30 in %d games that long: middlegames should diverge", len(atPly30), long)
	}
	if !strings.Contains(string(text[:2000]), "1... ") {
		t.Fatal("no lichess-style move number after a comment")
	}
}
