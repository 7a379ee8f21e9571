package adapter

import (
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/uci"
)

// FuzzGUILines drives the adapter with arbitrary GUI lines against an
// in-process engine: it must neither crash nor hang, and send exactly one
// bestmove per go (at most one when a quit cuts the game short).
func FuzzGUILines(f *testing.F) {
	for _, s := range []string{
		"uci\nisready\nposition startpos\ngo wtime 100 btime 100",
		"position startpos moves e2e4 e7e5 g1f3\ngo ponder\nponderhit\nstop\nstop",
		"position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2\ngo searchmoves a1a2 a1b1",
		"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0\ngo",
		"position fen 8/P7/8/8/8/8/8/K1k5 w - - 0 1 moves a7a8q\ngo",
		"position fen 8/8/8/8/8/8/8/8 w - - 0 1\ngo infinite\nstop",
		"position fen pppppppp/8/8/8/8/8/8/K1k5 b - - 0 1\ngo",
		"position fen kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1\ngo",
		"position fen 9/8/8/8/8/8/8/K1k5 w - - 0 1\ngo",
		"position startpos moves e2e4 e2e4\ngo\nsetoption name UCI_Chess960 value true\ngo",
		"setoption name Polyglot BookDepth value -3\nsetoption name Polyglot Book value maybe\nsetoption\nsetoption name\ngo mate",
		"\r\n\t \n\x00\xff\nposition\x00startpos\ngo\tponder\nponderhit",
		"go\ngo\nstop\nisready\nucinewgame\nposition startpos moves e2e4\nquit\ngo",
		"position startpos moves a2a3\ngo infinite\nposition startpos\ngo\nstop\nposition startpos moves a2a3\ngo ponder\nstop\nposition startpos moves a2a3 h7h6\ngo",
		"position startpos\ngo ponder\ngo ponder\nposition fen xx\ngo\nponderhit",
	} {
		f.Add(s)
	}
	bookPath := smallBook(f)
	f.Fuzz(func(t *testing.T, input string) {
		if strings.Contains(strings.ToLower(input), "log") {
			t.Skip("log options would write files outside the test's folder")
		}
		cfg := testConfig(t, bookPath)
		cfg.BookMode = book.Weighted
		h := startHarness(t, cfg, nil, nil)
		gos := 0
		for _, l := range strings.Split(input, "\n") {
			// As the adapter reads it: a line ends at "\n" or "\r\n".
			if c, _ := uci.ParseCommand(strings.TrimSuffix(l, "\r")); c.Kind == uci.CmdGo {
				gos++
			}
		}
		// Without a quit or an engine crash in the way, every go gets its
		// bestmove once the last search is stopped.
		exact := !strings.Contains(input, "quit") && !strings.Contains(input, "crash")
		bestmoves := 0
		if exact {
			h.send(input, "stop")
			deadline := time.After(5 * time.Second)
			for bestmoves < gos {
				select {
				case l := <-h.out:
					if strings.HasPrefix(l, "bestmove") {
						bestmoves++
					}
				case <-deadline:
					t.Fatalf("%d bestmoves for %d go commands after 5 s: %q", bestmoves, gos, input)
				}
			}
		} else {
			h.send(input)
		}
		h.send("quit")
		select {
		case <-h.done:
			h.done <- nil
		case <-time.After(10 * time.Second):
			t.Fatalf("adapter hangs on %q", input)
		}
		for l := range h.out {
			if strings.HasPrefix(l, "bestmove") {
				bestmoves++
			}
		}
		if bestmoves > gos || exact && bestmoves != gos {
			t.Fatalf("%d bestmoves for %d go commands: %q", bestmoves, gos, input)
		}
	})
}
