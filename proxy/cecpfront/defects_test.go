package cecpfront_test

// Regression tests of the CECP front: game ends with and without
// pondering, analysis across new, the clock settings new keeps, and the
// lines of searches whose moves are never played.

import (
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// knightDanceBook answers the knights' dance g1f3 g8f6 f3g1 f6g8 for both
// sides, so a game from the book repeats the start position.
func knightDanceBook(t *testing.T) string {
	return proxytest.WriteBook(t, []proxytest.BookEntry{
		{Moves: "", Move: "g1f3", Weight: 10}, {Moves: "g1f3", Move: "g8f6", Weight: 10},
		{Moves: "g1f3 g8f6", Move: "f3g1", Weight: 10}, {Moves: "g1f3 g8f6 f3g1", Move: "f6g8", Weight: 10},
	})
}

// The opponent's move that repeats the position a third time ends the game
// at once, whether it was pondered on (a ponder hit) or not.
func TestXboardClaimAfterTheOpponentsMoveWithAndWithoutPondering(t *testing.T) {
	bookPath := knightDanceBook(t)
	for _, mode := range []string{"easy", "hard"} {
		h, _ := startXboard(t, proxytest.Config(t, bookPath), nil)
		h.Send("new", mode, "level 0 1 0", "go")
		h.WaitFor("move g1f3")
		h.Send("usermove g8f6")
		h.WaitFor("move f3g1")
		h.Send("usermove f6g8")
		h.WaitFor("move g1f3")
		h.Send("usermove g8f6")
		h.WaitFor("move f3g1")
		// The start position a third time, by the opponent's move.
		h.Send("usermove f6g8", "ping 1")
		lines := h.WaitFor("pong 1")
		if !proxytest.Contains(lines, "1/2-1/2 {Draw by repetition}") || proxytest.HasPrefix(lines, "move ") {
			t.Errorf("%s: after the repeating move got %q, want the claim and no move", mode, lines)
		}
	}
}

// new during analyze goes on analysing, from the start position.
func TestXboardNewDuringAnalysisAnalysesTheStart(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) { s.BestMove, s.Flood = "", 1 }, nil)
	h.Send("xboard", "protover 2")
	h.Until("feature done=1")
	h.Send("new", "force", "post", "analyze", "usermove e2e4")
	h.WaitFor("2 17 0 1000 e2e4 e7e5 g1f3")
	h.Send("new")
	h.WaitFor("2 17 0 1000 e4 e5 Nf3")
	h.Send("exit", "ping 1")
	if lines := h.WaitFor("pong 1"); proxytest.HasPrefix(lines, "move ") {
		t.Errorf("analysis made a move: %q", lines)
	}
}

// new clears sd but keeps st: the next game searches st's time per move.
func TestXboardNewKeepsMoveTimeAndClearsDepth(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	h.Send("st 1", "sd 3", "new", "go")
	h.Until("move ")
	if got := lastPrefixed(h.Engine(0).Received(), "go"); got != "go movetime 980" {
		t.Errorf("after st 1, sd 3, new: %q, want go movetime 980 (PolyGlot's)", got)
	}
}

// A ponder search's book answer is never shown when the opponent plays
// another move, nor at quit: neither its book comment nor its thinking.
func TestXboardPonderMissShowsNothingOfTheDiscardedSearch(t *testing.T) {
	for _, miss := range []string{"usermove b8c6", "quit"} {
		h, _ := startXboard(t, proxytest.Config(t, knightDanceBook(t)), nil)
		h.Send("new", "post", "hard", "level 0 1 0", "go")
		h.WaitFor("move g1f3")
		// The book answers the ponder search on g8f6 (f3g1): held.
		h.Send("ping 1")
		h.WaitFor("pong 1")
		h.Send(miss, "ping 2")
		var lines []string
		for l := range h.Out {
			lines = append(lines, l)
			if l == "pong 2" {
				break
			}
		}
		for _, l := range lines {
			if strings.Contains(l, "f3g1") || strings.Contains(l, "Ng1") {
				t.Errorf("%s: the discarded ponder search's book move f3g1 shown: %q", miss, lines)
			}
		}
		if miss == "quit" {
			h.Done <- <-h.Done
		}
	}
}

// quit while the engine thinks: the search's move is never sent.
func TestXboardNoMoveAfterQuit(t *testing.T) {
	h := start(t, proxytest.Config(t, ""), func(_ int, s *ucitest.Settings) {
		s.BestMove, s.SearchTime = "", 5*time.Second
	}, nil)
	h.Send("xboard", "protover 2")
	h.Until("feature done=1")
	h.Send("new", "post", "level 0 1 0", "usermove e2e4")
	h.WaitReceived(0, "go ")
	h.Send("quit")
	var lines []string
	for l := range h.Out {
		lines = append(lines, l)
	}
	if proxytest.HasPrefix(lines, "move ") {
		t.Errorf("a move after quit: %q", lines)
	}
}

// hard turns pondering on and nothing else: on the engine's turn, the
// move still waits for go.
func TestXboardHardStartsNoMove(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	h.Send("new", "setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "hard", "ping 1")
	if lines := h.WaitFor("pong 1"); proxytest.HasPrefix(lines, "move ") || proxytest.HasPrefix(h.Engine(0).Received(), "go") {
		t.Errorf("hard started a search: %q, the engine got %q", lines, h.Engine(0).Received())
	}
}

// STFudge sets the margin st's bound keeps: none at 0.
func TestXboardSTFudge(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, ""), nil)
	h.Send("option Polyglot STFudge=0", "new", "st 1", "go")
	h.Until("move ")
	if got := lastPrefixed(h.Engine(0).Received(), "go"); got != "go movetime 1000" {
		t.Errorf("STFudge 0, st 1: %q, want go movetime 1000", got)
	}
}

// A GUI that plays past our claim of a draw by repetition (python-chess's
// XBoard client asks for the next move, as threefold is a draw only when
// claimed) gets a move for go, never silence; after the GUI's own result,
// go still starts nothing.
func TestXboardGoAfterOurDrawClaimPlaysOn(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, knightDanceBook(t)), nil)
	h.Send("new", "force", "st 1")
	h.Send("usermove g1f3", "usermove g8f6", "usermove f3g1", "usermove f6g8",
		"usermove g1f3", "usermove g8f6", "usermove f3g1")
	h.Send("go")
	// The book's f6g8 repeats the start a third time: the move and the claim.
	h.WaitFor("1/2-1/2 {Draw by repetition}")
	h.Send("force", "go")
	h.WaitFor("move g1f3")
	h.Send("force", "result 1/2-1/2 {Draw by repetition}", "go", "ping 1")
	if lines := h.WaitFor("pong 1"); proxytest.HasPrefix(lines, "move ") {
		t.Errorf("a move after the GUI's result: %q", lines)
	}
}
