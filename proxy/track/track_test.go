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

// Each command says what became of the game followed: followed (going on
// or a new game), the same again, lost until a good game (told once), or
// refused (told once; the engine gets no line for it).
func TestChanges(t *testing.T) {
	g := track.New()
	step := func(what string, ch track.Change, kind track.Kind, continues bool) {
		t.Helper()
		if ch.Kind != kind || ch.Continues != continues {
			t.Fatalf("%s: %+v, want kind %d, continues %v", what, ch, kind, continues)
		}
	}
	step("a game", g.Set(given(t, "", "", []string{"e2e4", "e7e5"})), track.Followed, false)
	if g.Number() != 1 || g.EngineLine() != "position startpos moves e2e4 e7e5" {
		t.Fatalf("game %d, line %q", g.Number(), g.EngineLine())
	}
	step("a move more", g.Play(parse(t, "g1f3"), ""), track.Followed, true)
	step("the same again", g.Set(given(t, "", "", []string{"e2e4", "e7e5", "g1f3"})), track.Same, false)
	ch := g.Play(parse(t, "e1e8"), "")
	step("an illegal move", ch, track.Lost, true)
	if !ch.Tell || !strings.Contains(ch.Message, "move 4 (e1e8)") || g.OK() {
		t.Fatalf("illegal move: %+v, followed %v", ch, g.OK())
	}
	if ch := g.Set(given(t, "", "", []string{"e2e4", "e7e5", "g1f3", "e1e8"})); ch.Kind != track.Lost || ch.Tell {
		t.Fatalf("the same bad game again is told again: %+v", ch)
	}
	ch = g.Set(given(t, "", "", []string{"e2e4", "e7e5", "g1f3", "b8c6"}))
	step("good again", ch, track.Followed, true)
	if !ch.Again || g.Number() != 1 {
		t.Fatalf("followed again: %+v, game %d", ch, g.Number())
	}
	ch = g.Set(track.Game{FEN: "4k3/8/8/8/8/8/8/8 w - - 0 1"})
	if ch.Kind != track.Refused || !ch.Tell || !strings.Contains(ch.Message, "exactly one king") || g.EngineLine() != "" || g.Refused() == "" {
		t.Fatalf("a bad FEN: %+v, line %q", ch, g.EngineLine())
	}
	if ch := g.Play(parse(t, "e2e4"), ""); ch.Kind != track.Refused {
		t.Fatalf("a move after a refused game: %+v", ch)
	}
	if ch := g.Refuse("bad line", "position x"); ch.Kind != track.Refused || ch.Detail != "position x" {
		t.Fatalf("a game the front could not read: %+v", ch)
	}
	n := g.Number()
	step("a new game", g.Set(track.Game{}), track.Followed, false)
	if g.Number() != n+1 {
		t.Fatalf("game %d after game %d", g.Number(), n)
	}
}

// A ponder search's move is the game's only once the ponderhit plays it:
// the game as played leaves it out.
func TestPonder(t *testing.T) {
	g := track.New()
	g.Set(given(t, "", "", []string{"e2e4"}))
	before := *g.PlayedPosition()
	g.PonderOn(parse(t, "e7e5")[0])
	if !g.Pondering() || *g.PlayedPosition() != before || g.Current().Pos == before {
		t.Fatal("the move pondered on is played, or not searched")
	}
	if _, moves := g.Given(); len(moves) != 1 {
		t.Fatalf("the game as given holds %d moves", len(moves))
	}
	if played := g.Played(); played.Pos != before || len(played.Keys) != 2 {
		t.Fatalf("played: %d keys", len(played.Keys))
	}
	g.PonderHit()
	if _, moves := g.Given(); g.Pondering() || len(moves) != 2 {
		t.Fatalf("after the ponderhit: pondering %v, %d moves", g.Pondering(), len(moves))
	}
}

// A position that killed the engine twice is kept from any engine: the
// game is refused, and so is that game given again.
func TestPoison(t *testing.T) {
	g := track.New()
	g.Set(given(t, "", "", []string{"e2e4"}))
	line := g.EngineLine()
	g.Poison(line, "the engine died twice in a search of this position (exit status 3)")
	if g.Refused() == "" || g.EngineLine() != "" {
		t.Fatalf("refused %q, line %q", g.Refused(), g.EngineLine())
	}
	if ch := g.Set(given(t, "", "", []string{"e2e4"})); ch.Kind != track.Refused || !strings.Contains(ch.Message, "died twice") {
		t.Fatalf("the poisoned game again: %+v", ch)
	}
	if ch := g.Set(given(t, "", "", []string{"d2d4"})); ch.Kind != track.Followed {
		t.Fatalf("another game: %+v", ch)
	}
}
