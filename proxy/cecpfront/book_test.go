package cecpfront_test

// Tests of bk and hint: what the book decision holds for the board,
// asked in any mode, without disturbing a search.

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// bookWindow sends bk and reads its answer, up to the empty line that ends
// it; every line of it must start with a space.
func bookWindow(h *proxytest.Harness) []string {
	h.T.Helper()
	h.Send("bk")
	var lines []string
	for {
		l := h.Next()
		if l == "" {
			return lines
		}
		if !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t") {
			// Another line (thinking, a move) may come in between: not ours.
			if len(lines) > 0 {
				h.T.Errorf("bk's answer interrupted by %q after %q", l, lines)
			}
			continue
		}
		lines = append(lines, l)
	}
}

func TestXboardBookWindow(t *testing.T) {
	h, _ := startXboard(t, proxytest.Config(t, proxytest.SmallBook(t)), nil)
	h.Send("new", "force")
	want := []string{" test.bin:", " e4 chance 100.0% (weight 300, share 75.0%)", " d4 chance 0.0% (weight 100, share 25.0%)"}
	if got := bookWindow(h); !slices.Equal(got, want) {
		t.Errorf("bk at the start: %q, want %q", got, want)
	}
	// In force mode the board follows the GUI's moves.
	h.Send("usermove e2e4")
	want = []string{" test.bin:", " c5 chance 100.0% (weight 50, share 100.0%)"}
	if got := bookWindow(h); !slices.Equal(got, want) {
		t.Errorf("bk after 1.e4: %q, want %q", got, want)
	}
	h.Send("usermove c7c5")
	want = []string{" no book move here: not in book"}
	if got := bookWindow(h); !slices.Equal(got, want) {
		t.Errorf("bk out of book: %q, want %q", got, want)
	}
}

// bk shows what the book decision would play, the likeliest first, each
// move's chance and share: BookWidth's cut, the side's own books,
// BookDepth; and learned results.
func TestXboardBookWindowFollowsTheBookPolicies(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookWidth = 1
	h, _ := startXboard(t, cfg, nil)
	h.Send("new", "force")
	want := []string{" test.bin:", " e4 chance 100.0% (weight 300, share 75.0%)", " d4 chance 0.0% (weight 100, share 25.0%) not played: outside BookWidth 1"}
	if got := bookWindow(h); !slices.Equal(got, want) {
		t.Errorf("bk with BookWidth 1: %q, want %q", got, want)
	}
	h.Send("option Polyglot BookDepth=0")
	want = []string{" test.bin:", " e4 chance 0.0% (weight 300, share 75.0%) not played: beyond BookDepth (move 1 > 0)",
		" d4 chance 0.0% (weight 100, share 25.0%) not played: outside BookWidth 1", " no book move here: beyond BookDepth (move 1 > 0)"}
	if got := bookWindow(h); !slices.Equal(got, want) {
		t.Errorf("bk with BookDepth 0: %q, want %q", got, want)
	}

	// Black's book of its own, with learned results.
	afterE4 := fixture.Line(t, "", "e2e4")
	mv := func(s string) board.Move { m, _ := board.ParseMove(s); return m }
	blackBook := filepath.Join(t.TempDir(), "black.bin")
	if err := polyglot.WriteFile(blackBook, []book.Entry{
		{Key: afterE4.Pos.Key(), Move: mv("e7e5"), Weight: 30, Learn: book.MakeLearn(4, 6)},
		{Key: afterE4.Pos.Key(), Move: mv("c7c6"), Weight: 10},
	}); err != nil {
		t.Fatal(err)
	}
	cfg = proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookFilesBlack = []string{blackBook}
	h, _ = startXboard(t, cfg, nil)
	h.Send("new", "force", "usermove e2e4")
	want = []string{" black.bin:", " e5 chance 100.0% (weight 30, share 75.0%, 4 games, 75.0% scored)", " c6 chance 0.0% (weight 10, share 25.0%)"}
	if got := bookWindow(h); !slices.Equal(got, want) {
		t.Errorf("bk with BookFileBlack: %q, want %q", got, want)
	}
}

// bk while the engine thinks, and during analysis: answered at once, and
// the search goes on (no stop reaches the engine).
func TestXboardBookWindowDisturbsNoSearch(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), func(_ int, s *ucitest.Settings) {
		s.BestMove, s.SearchTime = "", 300*time.Millisecond
	}, nil)
	h.Send("xboard", "protover 2")
	h.Until("feature done=1")
	h.Send("new", "level 0 1 0", "usermove d2d4")
	h.WaitReceived(0, "go ")
	if got := bookWindow(h); !slices.Equal(got, []string{" no book move here: not in book"}) {
		t.Errorf("bk while thinking: %q", got)
	}
	if l := h.Until("move "); l[len(l)-1] != "move a7a5" {
		t.Errorf("after bk: %q", l)
	}
	h.Send("force", "new", "force", "analyze")
	h.WaitReceived(0, "go infinite")
	if got := bookWindow(h); len(got) != 3 {
		t.Errorf("bk during analysis: %q", got)
	}
	h.Send("ping 1")
	h.WaitFor("pong 1")
	got := h.Engine(0).Received()
	if i := slices.Index(got, "go infinite"); slices.Contains(got[i:], "stop") || len(got) != i+2 || got[i+1] != "isready" {
		t.Errorf("after bk the analysis got %q, want only the ping's isready", got[i:])
	}
}

// hint: the book's likeliest move, else the reply our last move's search
// expected, else nothing.
func TestXboardHint(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookMaxMoves = 1
	h, _ := startXboard(t, cfg, nil)
	h.Send("new", "force", "hint", "ping 1")
	if got := h.WaitFor("pong 1"); !proxytest.Contains(got, "Hint: e2e4") {
		t.Errorf("hint at the start: %q", got)
	}
	// Our book move 1.e4 expects c7c5; BookMaxMoves 1 then keeps the
	// book from answering: the expected reply is the hint.
	h.Send("go")
	h.WaitFor("move e2e4")
	h.Send("hint", "ping 2")
	if got := h.WaitFor("pong 2"); !proxytest.Contains(got, "Hint: c7c5") {
		t.Errorf("hint after our book move: %q", got)
	}
	// Out of book, and the engine's move expects nothing.
	h.Send("usermove e7e5")
	h.Until("move ")
	h.Send("hint", "ping 3")
	if got := h.WaitFor("pong 3"); proxytest.HasPrefix(got, "Hint") {
		t.Errorf("a hint with nothing to go on: %q", got)
	}
}

// ShowPonder: the thinking of a ponder search is shown led by the move it
// assumes, in parentheses, as PolyGlot shows it; off, not at all.
func TestXboardShowPonder(t *testing.T) {
	for _, show := range []bool{true, false} {
		h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), func(_ int, s *ucitest.Settings) { s.BestMove, s.Flood = "", 1 }, nil)
		h.Send("xboard", "protover 2")
		if lines := h.Until("feature done=1"); !proxytest.Contains(lines, `feature option="Polyglot ShowPonder -check 1"`) {
			t.Fatalf("no ShowPonder option in %q", lines)
		}
		if !show {
			h.Send("option Polyglot ShowPonder=0")
		}
		// The book's 1.e4 expects 1...c5: the engine ponders on it.
		h.Send("new", "post", "hard", "level 0 1 0", "go")
		h.WaitFor("move e2e4")
		h.WaitReceived(0, "go ponder")
		if show {
			h.WaitFor("2 17 0 1000 (c5) e2e4 e7e5 g1f3")
			continue
		}
		h.Quiet(300 * time.Millisecond)
	}
}
