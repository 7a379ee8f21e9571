package cecpfront_test

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

func TestEngineLinesXboard(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, proxytest.SmallBook(t)), nil)
	step := func(want string, lines ...string) {
		t.Helper()
		h.Send(lines...)
		h.Until(want)
	}
	step("move e2e4", "new", "hard", "post", "level 40 5 0", "time 30000", "otim 30000", "go")
	h.WaitReceived(0, "go ponder")                                 // on c7c5, the book's reply
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
	if got := h.Engine(0).Received(); !slices.Equal(got, want) {
		t.Fatalf("the engine received\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
