package core_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

// A ponder miss (the GUI's real move instead of the one pondered on, and
// perhaps more) goes on from the position before the pondered move, not
// by replaying the game from its start, and leaves the game, and the
// engine's line, as a replay of the whole line would: from the start
// position and from a FEN the engine gets normalised.
func TestPonderMissFollowsAsReplay(t *testing.T) {
	game := liveGame(t, 40)
	l4, _ := board.NewLine("startpos")
	l4.PlayMoves(game[:4], 0)
	fen := strings.Join(strings.Fields(l4.Pos.FEN())[:4], " ") // no move counters
	for _, tc := range []struct {
		prefix string
		moves  []string
	}{
		{"position startpos moves ", game},
		{"position fen " + fen + " moves ", game[4:]},
	} {
		line := func(moves ...string) string { return tc.prefix + strings.Join(moves, " ") }
		game := tc.moves
		a, _ := byHand(t, "", nil)
		a.GUILine(line(game[:26]...))
		cur := a.State().Cur
		l := *cur
		var wrong string
		for _, m := range l.Pos.LegalMoves() {
			if m.String() != game[26] {
				wrong = m.String()
				break
			}
		}
		a.GUILine(line(append(slices.Clone(game[:26]), wrong)...)) // pondering on wrong
		a.GUILine(line(game[:28]...))                              // the real move, and the next
		if a.State().Cur != cur {
			t.Errorf("%s: the game was replayed from its start", tc.prefix)
		}
		fresh, _ := byHand(t, "", nil)
		fresh.GUILine(line(game[:28]...))
		g, f := a.State(), fresh.State()
		if !g.OK || g.Cur.Pos != f.Cur.Pos || !slices.Equal(g.Cur.Keys, f.Cur.Keys) || !slices.Equal(g.Moves, f.Moves) ||
			g.EngineLine != f.EngineLine || g.Number != f.Number {
			t.Fatalf("%s: after the ponder miss: %s, %d keys, %d moves, game %d, engine line %q; replayed: %s, %d keys, %d moves, game %d, %q",
				tc.prefix, g.Cur.Pos.FEN(), len(g.Cur.Keys), len(g.Moves), g.Number, g.EngineLine,
				f.Cur.Pos.FEN(), len(f.Cur.Keys), len(f.Moves), f.Number, f.EngineLine)
		}
		// A replacement that does not play is read in full, as before:
		// the game is not followed.
		a.GUILine(line(append(slices.Clone(game[:27]), "a1a8")...))
		if a.State().OK {
			t.Errorf("%s: an illegal move followed", tc.prefix)
		}
	}
}
