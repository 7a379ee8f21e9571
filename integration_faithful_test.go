package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// Tests that polyproxy answers scripts, analysis tools and odd input as
// Stockfish alone does: the same input is piped into Stockfish and into
// polyproxy in front of it, and what follows uciok is compared.

// runPiped runs name with input as its whole standard input (then the end
// of input) and returns its output lines and exit code.
func runPiped(t *testing.T, input string, name string, args ...string) ([]string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = strings.NewReader(input)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s still running after 20 s on %q; output %q, stderr %q", name, input, out.String(), stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	return lines, cmd.ProcessState.ExitCode()
}

// answers is what follows uciok: without info lines (a search's differ
// from run to run), and with each bestmove's move dropped unless
// keepMoves.
func answers(lines []string, keepMoves bool) []string {
	i := slices.Index(lines, "uciok")
	var out []string
	for _, l := range lines[i+1:] {
		switch {
		case strings.HasPrefix(l, "info"):
		case strings.HasPrefix(l, "bestmove") && !keepMoves:
			out = append(out, "bestmove")
		default:
			out = append(out, l)
		}
	}
	return out
}

// The shell pipelines a user tries first, and the commands of their own
// (perft, d, eval, bench, a typo): polyproxy (no book) answers as
// Stockfish alone, also at quit and at the end of input, also to a last
// line without its newline.
func TestPipedLikeStockfishAlone(t *testing.T) {
	sf := testenv.Stockfish(t)
	bin := testenv.Polyproxy(t)
	for _, tc := range []struct {
		name      string
		input     string
		keepMoves bool // the answers are deterministic
	}{
		// A user's first pipelines, with searches long enough that only the
		// quit ends them, however busy the machine.
		{"search, isready, quit", "uci\nisready\nposition startpos moves e2e4\ngo movetime 5000\nisready\nquit\n", false},
		{"search, isready, end of input", "uci\nisready\nposition startpos moves e2e4\ngo movetime 5000\nisready\n", false},
		{"movetime, quit", "uci\nposition startpos moves a2a3 a7a6 h2h3\ngo movetime 5000\nquit\n", false},
		{"go infinite, stop, quit", "uci\nposition startpos moves a2a3 a7a6 h2h3\ngo infinite\nstop\nquit\n", false},
		{"isready, quit", "uci\nisready\nquit\n", true},
		{"last line without newline", "uci\nisready", true},
		{"go perft", "uci\nposition startpos\ngo perft 2\nquit\n", true},
		{"d", "uci\nposition startpos moves e2e4\nd\nquit\n", true},
		{"eval", "uci\nposition startpos moves e2e4 e7e5\neval\n", true},
		{"unknown commands", "uci\nxyzzy\nhelp me\nquit\n", true},
		{"bench", "uci\nbench 16 1 1\nquit\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alone, code := runPiped(t, tc.input, sf)
			if code != 0 {
				t.Fatalf("Stockfish alone: exit %d", code)
			}
			proxied, code := runPiped(t, tc.input, bin, "-noini", "-ec", sf)
			if code != 0 {
				t.Fatalf("polyproxy: exit %d", code)
			}
			want, got := answers(alone, tc.keepMoves), answers(proxied, tc.keepMoves)
			if !slices.Equal(got, want) {
				t.Fatalf("polyproxy answered\n%q\nStockfish alone\n%q", got, want)
			}
			if len(want) == 0 {
				t.Fatal("nothing to compare")
			}
		})
	}
}

// With the book, the same pipelines get every answer, the book's bestmove
// among them, and the position Stockfish crashes on is played.
func TestPipedWithBook(t *testing.T) {
	needStockfishAndBook(t)
	bin := testenv.Polyproxy(t)
	args := []string{"-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile=" + gnuchessBook}
	for _, tc := range []struct {
		name, input string
		want        []string
	}{
		{"book answer, quit", "uci\nisready\nposition startpos moves e2e4\ngo movetime 100\nisready\nquit\n",
			[]string{"readyok", "bestmove", "readyok"}},
		{"book answer, end of input", "uci\nisready\nposition startpos moves e2e4\ngo movetime 100\nisready",
			[]string{"readyok", "bestmove", "readyok"}},
		{"out of book, quit", "uci\nposition startpos moves a2a3 a7a6 h2h3\ngo movetime 300\nquit\n", []string{"bestmove"}},
		// Castling rights without the rooks: Stockfish alone crashes.
		{"castling rights without rooks", "uci\nposition fen 4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo depth 5\n", []string{"bestmove"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines, code := runPiped(t, tc.input, bin, args...)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			if got := answers(lines, false); !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q (all: %q)", got, tc.want, lines)
			}
			if slices.Contains(lines, "bestmove 0000") {
				t.Fatalf("got %q", lines)
			}
		})
	}
}

// FENs that Stockfish and python-chess accept are played through
// polyproxy (none answered bestmove 0000), and none kills Stockfish.
func TestLenientFENsWithStockfish(t *testing.T) {
	testenv.Stockfish(t)
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0",           // 5 fields
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 0",          // move number 0
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - - -",          // counters as "-"
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 extra",    // 7 fields
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - -1 1",         // a negative counter
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1",          // Shredder letters
		"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1",                                  // rights without rooks
		"r3k2r/8/8/8/8/8/8/4K3 b KQkq - 0 1",                                  // and for Black
		"rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",         // e.p. square no pawn can take
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4", // with moves
	} {
		p.send("position fen "+fen, "go depth 4")
		got := p.until("bestmove", 10*time.Second)
		if got[len(got)-1] == "bestmove 0000" || strings.Contains(strings.Join(got, "\n"), "engine died") {
			t.Fatalf("%s: got %q", fen, got)
		}
	}
	// After exit all the proxy wrote to stderr has been read: a death
	// reported just before the last answer is not missed.
	p.send("quit")
	if code := p.waitExit(10 * time.Second); code != 0 {
		t.Fatalf("exit code %d; stderr %q", code, p.stderr.String())
	}
	if s := p.stderr.String(); strings.Contains(s, "died") {
		t.Fatalf("stderr %q", s)
	}
}

// Four positions and go depth N in one write (a batch-analysis script):
// each search runs to its depth, as with Stockfish alone, none is cut
// short; the moves are Stockfish's own.
func TestDepthBurstLikeStockfishAlone(t *testing.T) {
	testenv.Stockfish(t)
	depth := 16
	if testing.Short() {
		depth = 10
	}
	var burst []string
	for _, fen := range []string{
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
		"r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
		"8/5k2/8/3K4/8/8/5P2/8 w - - 0 1",
	} {
		burst = append(burst, "position fen "+fen, fmt.Sprintf("go depth %d", depth))
	}
	run := func(p *proc) (depths []string, moves []string) {
		p.send("uci")
		p.until("uciok", 10*time.Second)
		p.send("setoption name Threads value 1", "setoption name Hash value 16", "isready")
		p.until("readyok", 10*time.Second)
		p.send(burst...)
		for range 4 {
			got := p.until("bestmove", 60*time.Second)
			last := ""
			for _, l := range got {
				if f := strings.Fields(l); len(f) > 2 && f[0] == "info" && f[1] == "depth" {
					last = f[2]
				}
			}
			depths = append(depths, last)
			moves = append(moves, strings.Fields(got[len(got)-1])[1])
		}
		return depths, moves
	}
	aloneDepths, aloneMoves := run(startProc(t, nil, stockfishPath))
	depths, moves := run(startProxy(t, nil, "-noini", "-ec", stockfishPath))
	want := strings.Repeat(fmt.Sprint(depth)+" ", 4)
	if strings.Join(depths, " ")+" " != want || strings.Join(aloneDepths, " ")+" " != want {
		t.Fatalf("depths: polyproxy %q, Stockfish alone %q", depths, aloneDepths)
	}
	if !slices.Equal(moves, aloneMoves) {
		t.Fatalf("moves: polyproxy %q, Stockfish alone %q", moves, aloneMoves)
	}
}

// python-chess's analyse, by hand (python-chess itself is not installed
// here): it sets UCI_AnalyseMode, starts a new game, waits for readyok,
// and searches to a depth. The book must not answer: the GUI gets
// Stockfish's analysis to that depth. Its play then clears
// UCI_AnalyseMode, and the book answers again.
func TestPythonChessAnalyse(t *testing.T) {
	needStockfishAndBook(t)
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+gnuchessBook)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	p.send("setoption name UCI_AnalyseMode value true", "setoption name MultiPV value 1", "ucinewgame", "isready")
	p.until("readyok", 10*time.Second)
	p.send("position startpos", "go depth 8")
	got := p.until("bestmove", 20*time.Second)
	deepest := ""
	for _, l := range got {
		if strings.HasPrefix(l, "info string book") {
			t.Fatalf("the book answered an analysis: %q", got)
		}
		if strings.HasPrefix(l, "info depth 8 ") {
			deepest = l
		}
	}
	if deepest == "" || !strings.Contains(deepest, " score ") {
		t.Fatalf("no depth-8 analysis: %q", got)
	}
	p.send("setoption name UCI_AnalyseMode value false", "position startpos", "go movetime 100")
	if got := p.until("bestmove", 10*time.Second); !strings.HasPrefix(got[0], "info string book move") {
		t.Fatalf("book not back for play: %q", got)
	}
}

// An [Engine]/-uci value outside the option's range is clamped, said on
// stderr, and never announced as a default outside min..max.
func TestOutOfRangeEngineOption(t *testing.T) {
	testenv.Stockfish(t)
	lines, code := runPiped(t, "uci\nquit\n", testenv.Polyproxy(t), "-noini", "-ec", stockfishPath, "-uci", "Threads=0", "-uci", "Hash=99999999999")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"option name Threads type spin default 1 min 1 max 1024",
		"option name Hash type spin default 33554432 min 1 max 33554432",
		"info string [Engine] option Threads: 0 is below the option's minimum: 1 sent",
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("no %q in %q", want, lines)
		}
	}
}

// A quit while the engine's handshake is slow ends everything within a
// second when nothing before it needs the engine.
func TestQuitDuringSlowHandshakeIsQuick(t *testing.T) {
	fake := testenv.FakeEngine(t)
	p := startProxy(t, []string{"FAKEENGINE_START_MS=3000"}, "-noini", "-ec", fake)
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("quit took %v", d)
	}
}
