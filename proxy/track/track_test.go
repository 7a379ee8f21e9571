package track_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/proxy/track"
)

// given is the game of a position line: its start, its moves, the line.
func given(t *testing.T, fen, line string, moves []string) track.Game {
	t.Helper()
	g := track.Game{FEN: fen, Line: line}
	for _, w := range moves {
		m, err := board.ParseMove(w)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
	}
	return g
}

func parse(t *testing.T, moves ...string) []board.Move { return given(t, "", "", moves).Moves }

// A ponder miss (the GUI's real move instead of the one pondered on, and
// perhaps more) goes on from the position before the pondered move, not
// by replaying the game from its start, and leaves the game, and the
// engine's line, as a replay of the whole line would: from the start
// position and from a FEN the engine gets normalised.
func TestPonderMissFollowsAsReplay(t *testing.T) {
	game := proxytest.LiveGame(t, 40)
	l4, _ := board.NewLine("startpos")
	l4.PlayMoves(game[:4], 0)
	fen := strings.Join(strings.Fields(l4.Pos.FEN())[:4], " ") // no move counters
	for _, tc := range []struct {
		fen, prefix string
		moves       []string
	}{
		{"", "position startpos moves ", game},
		{fen, "position fen " + fen + " moves ", game[4:]},
	} {
		line := func(moves ...string) string { return tc.prefix + strings.Join(moves, " ") }
		game := tc.moves
		g := track.New()
		if ch := g.Set(given(t, tc.fen, line(game[:26]...), game[:26])); ch.Kind != track.Followed {
			t.Fatalf("%s: the game is not followed: %+v", tc.prefix, ch)
		}
		cur := g.Current()
		var wrong string
		for _, m := range cur.Pos.LegalMoves() {
			if m.String() != game[26] {
				wrong = m.String()
				break
			}
		}
		g.Play(parse(t, wrong), line(append(slices.Clone(game[:26]), wrong)...)) // pondering on wrong
		g.ReplaceLast(parse(t, game[26:28]...), line(game[:28]...))              // the real move, and the next
		if g.Current() != cur {
			t.Errorf("%s: the game was replayed from its start", tc.prefix)
		}
		fresh := track.New()
		fresh.Set(given(t, tc.fen, line(game[:28]...), game[:28]))
		gc, fc := g.Current(), fresh.Current()
		_, gm := g.Given()
		_, fm := fresh.Given()
		if !g.OK() || gc.Pos != fc.Pos || !slices.Equal(gc.Keys, fc.Keys) || !slices.Equal(gm, fm) ||
			g.EngineLine() != fresh.EngineLine() || g.Number() != fresh.Number() {
			t.Fatalf("%s: after the ponder miss: %s, %d keys, %d moves, game %d, engine line %q; replayed: %s, %d keys, %d moves, game %d, %q",
				tc.prefix, gc.Pos.FEN(), len(gc.Keys), len(gm), g.Number(), g.EngineLine(),
				fc.Pos.FEN(), len(fc.Keys), len(fm), fresh.Number(), fresh.EngineLine())
		}
		// A replacement that does not play is read in full, as before:
		// the game is not followed.
		if ch := g.ReplaceLast(parse(t, "a1a8"), line(append(slices.Clone(game[:27]), "a1a8")...)); ch.Kind != track.Lost || g.OK() {
			t.Errorf("%s: an illegal move followed: %+v", tc.prefix, ch)
		}
	}
}
