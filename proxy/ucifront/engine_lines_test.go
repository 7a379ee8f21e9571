package ucifront_test

// What the engine receives, line for line, over games through both
// fronts: pondering (hit and miss), book moves, engine moves, take-backs,
// a game from a FEN and the game's end. The lines are the ones the
// proxy sent before its moves were made to cost the same at any length
// of game; a change to how the game is followed must not change them.

import (
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"slices"
	"strings"
	"testing"
)

func TestEngineLinesUCI(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), proxytest.LegalEngine(20), nil)
	h.Handshake()
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
		if l := h.BestmoveAfter(lines...); !strings.HasPrefix(l, "bestmove ") {
			t.Fatalf("got %q", l)
		}
	}
	h.Send("isready")
	h.Until("readyok")
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
	if got := h.Engine(0).Received(); !slices.Equal(got, want) {
		t.Fatalf("the engine received\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
