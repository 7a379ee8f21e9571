package ucifront_test

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci"
)

// owedAnswers counts what the GUI is owed for lines, up to the first quit
// (nothing after it is read): a bestmove per go (not go perft, which
// counts moves), a readyok per isready, a uciok per uci. quit tells
// whether lines hold a quit.
func owedAnswers(lines []string) (gos, readies, ucis int, quit bool) {
	for _, l := range lines {
		// As the proxy reads it: a line ends at "\n" or "\r\n".
		c, _ := uci.ParseCommand(strings.TrimSuffix(l, "\r"))
		switch c.Kind {
		case uci.CmdGo:
			if !c.Go.Perft {
				gos++
			}
		case uci.CmdIsReady:
			readies++
		case uci.CmdUCI:
			ucis++
		case uci.CmdQuit:
			return gos, readies, ucis, true
		}
	}
	return gos, readies, ucis, false
}

// FuzzGUILines drives the proxy with arbitrary GUI lines against an
// in-process engine: it must neither crash nor hang, and answer everything
// it is asked. With cut 0 the whole input is sent and a stop after it:
// then every go gets its bestmove without a quit. Otherwise the GUI quits
// (eof: closes its end, the last line without its newline) after the
// first cut%(lines+1) lines, or at the input's own quit: every answer owed
// before it must arrive, exactly (at most, when the input crashes the
// engine).
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
		"setoption name UCI_Chess960 value true\nposition fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1 moves b1a1 b8h8\ngo\nposition fen 1r2k1rr/8/8/8/8/8/8/1R2K1RR w GBgb - 0 1\ngo\nsetoption name UCI_Chess960 value false\nposition startpos moves e2e4\ngo",
		"setoption name Polyglot BookDepth value -3\nsetoption name Polyglot Book value maybe\nsetoption\nsetoption name\ngo mate",
		"\r\n\t \n\x00\xff\nposition\x00startpos\ngo\tponder\nponderhit",
		"go\ngo\nstop\nisready\nucinewgame\nposition startpos moves e2e4\nquit\ngo",
		"position startpos moves a2a3\ngo infinite\nposition startpos\ngo\nstop\nposition startpos moves a2a3\ngo ponder\nstop\nposition startpos moves a2a3 h7h6\ngo",
		"position startpos\ngo ponder\ngo ponder\nposition fen xx\ngo\nponderhit",
		"position startpos\ngo perft 1",
		"position startpos moves a2a3\ngo depth 5\nposition startpos moves a2a3 a7a6\ngo movetime 10\nisready\nd\ngo nodes 10\nuci\nxyzzy\nisready",
		"setoption name UCI_AnalyseMode value true\nucinewgame\nisready\nposition startpos\ngo depth 8",
		"position fen 4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo depth 3\nposition fen 4k3/8/8/8/8/8/8/4K3 w - -\ngo",
	} {
		f.Add(s, uint8(0), false)
		f.Add(s, uint8(3), false)
		f.Add(s, uint8(255), true)
	}
	bookPath := proxytest.SmallBook(f)
	f.Fuzz(func(t *testing.T, input string, cut uint8, eof bool) {
		lower := strings.ToLower(input)
		if strings.Contains(lower, "log") {
			t.Skip("log options would write files outside the test's folder")
		}
		if strings.Contains(lower, "flood") || strings.Contains(lower, "searchms") {
			t.Skip("engine settings that make each search long")
		}
		crashes := strings.Contains(lower, "crash")
		cfg := proxytest.Config(t, bookPath)
		cfg.BookMode = book.Weighted
		h := start(t, cfg, nil, nil)
		lines := strings.Split(input, "\n")
		if cut == 0 {
			// Without a quit in the way, every go gets its bestmove once
			// the last search is stopped.
			gos, _, _, quit := owedAnswers(lines)
			if quit || crashes {
				return
			}
			h.Send(input, "stop")
			bestmoves := 0
			deadline := time.After(5 * time.Second)
			for bestmoves < gos {
				select {
				case l := <-h.Out:
					if strings.HasPrefix(l, "bestmove") {
						bestmoves++
					}
				case <-deadline:
					t.Fatalf("%d bestmoves for %d go commands after 5 s: %q", bestmoves, gos, input)
				}
			}
			h.Send("quit")
			for l := range h.Out {
				if strings.HasPrefix(l, "bestmove") {
					t.Fatalf("a bestmove too many (%q) for %q", l, input)
				}
			}
			return
		}
		lines = lines[:int(cut)%(len(lines)+1)]
		gos, readies, ucis, quit := owedAnswers(lines)
		text := strings.Join(lines, "\n")
		if eof && !quit {
			io.WriteString(h.GUI, text) // its last line ends with the input
		} else {
			io.WriteString(h.GUI, text+"\nquit\n")
		}
		h.GUI.Close()
		var bestmoves, readyoks, ucioks int
		deadline := time.After(10 * time.Second)
		for done := false; !done; {
			select {
			case l, ok := <-h.Out:
				switch {
				case !ok:
					done = true
				case strings.HasPrefix(l, "bestmove"):
					bestmoves++
				case l == "readyok":
					readyoks++
				case l == "uciok":
					ucioks++
				}
			case <-deadline:
				t.Fatalf("the proxy hangs on %q (cut %d, eof %t)", input, cut, eof)
			}
		}
		err := <-h.Done
		h.Done <- nil
		if crashes {
			if bestmoves > gos {
				t.Fatalf("%d bestmoves for %d go commands: %q", bestmoves, gos, input)
			}
			return
		}
		if err != nil || bestmoves != gos || readyoks != readies || ucioks != ucis {
			t.Fatalf("%q (cut %d, eof %t): %d bestmoves for %d go, %d readyok for %d isready, %d uciok for %d uci; run ended with %v",
				input, cut, eof, bestmoves, gos, readyoks, readies, ucioks, ucis, err)
		}
	})
}
