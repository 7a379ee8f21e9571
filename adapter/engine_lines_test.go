package adapter

// What the engine receives, line for line, over games through both
// fronts: pondering (hit and miss), book moves, engine moves, take-backs,
// a game from a FEN and the game's end. The lines are the ones the
// proxy sent before its moves were made to cost the same at any length
// of game; a change to how the game is followed must not change them.

import (
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

func TestEngineLinesXboard(t *testing.T) {
	h, _ := startXboard(t, testConfig(t, smallBook(t)), nil)
	step := func(want string, lines ...string) {
		t.Helper()
		h.send(lines...)
		h.until(want)
	}
	step("move e2e4", "new", "hard", "post", "level 40 5 0", "time 30000", "otim 30000", "go")
	h.waitReceived(0, "go ponder")                                 // on c7c5, the book's reply
	step("move g1f3", "time 29000", "otim 29500", "usermove e7e5") // a ponder miss
	step("move f1b5", "usermove b8c6")
	step("move ", "usermove a7a6") // the engine's
	step("pong 1", "remove", "ping 1")
	step("move ", "usermove g8f6")
	step("move ", "usermove h7h6")
	step("pong 2", "setboard r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 8", "force", "usermove e1g1", "usermove e8c8", "ping 2")
	step("move ", "go")
	step("move ", "usermove d8e8")
	step("move ", "usermove e8d8")
	step("pong 3", "result 1/2-1/2 {agreed}", "ping 3")
	want := []string{
		"uci",
		"ucinewgame",
		"position startpos moves e2e4 c7c5",
		"go ponder wtime 300000 btime 300000 movestogo 39",
		"stop",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
		"go wtime 290000 btime 295000 movestogo 37",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 g8f6",
		"go wtime 290000 btime 295000 movestogo 37",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 a2a3 h7h6",
		"go wtime 290000 btime 295000 movestogo 36",
		"position fen r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 8 moves e1g1 e8c8",
		"go wtime 290000 btime 295000 movestogo 39",
		"position fen r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 8 moves e1g1 e8c8 a1b1 d8e8",
		"go wtime 290000 btime 295000 movestogo 38",
		"position fen r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 8 moves e1g1 e8c8 a1b1 d8e8 a2a3 e8d8",
		"go wtime 290000 btime 295000 movestogo 37",
	}
	if got := h.engine(0).Received(); !slices.Equal(got, want) {
		t.Fatalf("the engine received\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestEngineLinesUCI(t *testing.T) {
	h := startHarness(t, testConfig(t, smallBook(t)), legalEngine(20), nil)
	h.handshake()
	fen := "position fen r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - moves" // normalised for the engine
	for _, lines := range [][]string{
		{"ucinewgame", "position startpos", "go wtime 1000 btime 1000"},
		{"position startpos moves e2e4 c7c5", "go ponder wtime 1000 btime 1000", "stop"},
		{"position startpos moves e2e4 e7e5", "go wtime 1000 btime 1000"},
		{"position startpos moves e2e4 e7e5 g1f3 b8c6", "go wtime 1000 btime 1000"},
		{"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "go wtime 1000 btime 1000"},
		{"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 g8f6", "go wtime 1000 btime 1000"}, // a take-back
		{"ucinewgame", fen + " e1g1", "go wtime 1000 btime 1000"},
		{fen + " e1g1 a7a6 a2a3", "go wtime 1000 btime 1000"},
		{fen + " e1g1 a7a6 a2a3 a6a5 b2b3", "go wtime 1000 btime 1000"},
	} {
		if l := h.bestmoveAfter(lines...); !strings.HasPrefix(l, "bestmove ") {
			t.Fatalf("got %q", l)
		}
	}
	h.send("isready")
	h.until("readyok")
	want := []string{
		"uci",
		"isready",
		"ucinewgame",
		"position startpos moves e2e4 c7c5",
		"go ponder wtime 1000 btime 1000",
		"stop",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
		"go wtime 1000 btime 1000",
		"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 g8f6",
		"go wtime 1000 btime 1000",
		"ucinewgame",
		"position fen r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1 moves e1g1",
		"go wtime 1000 btime 1000",
		"position fen r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1 moves e1g1 a7a6 a2a3",
		"go wtime 1000 btime 1000",
		"position fen r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1 moves e1g1 a7a6 a2a3 a6a5 b2b3",
		"go wtime 1000 btime 1000",
		"isready",
	}
	if got := h.engine(0).Received(); !slices.Equal(got, want) {
		t.Fatalf("the engine received\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

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
		a, _ := loopAdapter(t, "", nil)
		a.onGUILine(line(game[:26]...))
		cur := a.game.cur
		l := *a.game.cur
		var wrong string
		for _, m := range l.Pos.LegalMoves() {
			if m.String() != game[26] {
				wrong = m.String()
				break
			}
		}
		a.onGUILine(line(append(slices.Clone(game[:26]), wrong)...)) // pondering on wrong
		a.onGUILine(line(game[:28]...))                              // the real move, and the next
		if a.game.cur != cur {
			t.Errorf("%s: the game was replayed from its start", tc.prefix)
		}
		fresh, _ := loopAdapter(t, "", nil)
		fresh.onGUILine(line(game[:28]...))
		g, f := &a.game, &fresh.game
		if !g.ok || g.cur.Pos != f.cur.Pos || !slices.Equal(g.cur.Keys, f.cur.Keys) || !slices.Equal(g.moves, f.moves) ||
			g.engineLine() != f.engineLine() || g.number != f.number {
			t.Fatalf("%s: after the ponder miss: %s, %d keys, %d moves, game %d, engine line %q; replayed: %s, %d keys, %d moves, game %d, %q",
				tc.prefix, g.cur.Pos.FEN(), len(g.cur.Keys), len(g.moves), g.number, g.engineLine(),
				f.cur.Pos.FEN(), len(f.cur.Keys), len(f.moves), f.number, f.engineLine())
		}
		// A replacement that does not play is read in full, as before:
		// the game is not followed.
		a.onGUILine(line(append(slices.Clone(game[:27]), "a1a8")...))
		if a.game.ok {
			t.Errorf("%s: an illegal move followed", tc.prefix)
		}
	}
}
