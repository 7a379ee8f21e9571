package adapter

import (
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/uci"
)

// FuzzGUILines drives the adapter with arbitrary GUI lines against an
// in-process engine: it must neither crash nor hang, and never send more
// bestmoves than it was asked for.
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
	} {
		f.Add(s)
	}
	bookPath := smallBook(f)
	f.Fuzz(func(t *testing.T, input string) {
		if strings.Contains(strings.ToLower(input), "log") {
			t.Skip("log options would write files outside the test's folder")
		}
		cfg := testConfig(t, bookPath)
		cfg.BookMode = "weighted"
		h := startHarness(t, cfg, nil, nil)
		gos := 0
		for _, l := range strings.Split(input, "\n") {
			l = strings.ReplaceAll(l, "\r", "")
			if c, _ := uci.ParseCommand(l); c.Kind == uci.CmdGo {
				gos++
			}
		}
		h.send(input, "quit")
		select {
		case <-h.done:
			h.done <- nil
		case <-time.After(10 * time.Second):
			t.Fatalf("adapter hangs on %q", input)
		}
		bestmoves := 0
		for l := range h.out {
			if strings.HasPrefix(l, "bestmove") {
				bestmoves++
			}
		}
		if bestmoves > gos {
			t.Fatalf("%d bestmoves for %d go commands", bestmoves, gos)
		}
	})
}
