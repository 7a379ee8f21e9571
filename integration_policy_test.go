package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// policyProxy starts polyproxy on Stockfish and the gnuchess book with the
// book settings given (-pg NAME=VALUE pairs), ready for games.
func policyProxy(t *testing.T, skill int, pg ...string) *gameSide {
	t.Helper()
	args := []string{"-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile=" + gnuchessBook,
		"-uci", "Skill Level=" + strconv.Itoa(skill), "-uci", "Threads=1", "-uci", "Hash=16", "-uci", "Move Overhead=150"}
	for _, kv := range pg {
		args = append(args, "-pg", kv)
	}
	p := startProxy(t, nil, args...)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	return &gameSide{p: p}
}

// endGames checks that nothing follows the last bestmove and quits.
func endGames(t *testing.T, sides ...*gameSide) {
	t.Helper()
	for _, s := range sides {
		s.stopPondering()
		s.p.send("isready")
		if rest := s.p.until("readyok", 10*time.Second); len(rest) != 1 {
			t.Fatalf("output after the last bestmove: %q", rest)
		}
		s.p.send("quit")
		if code := s.p.waitExit(5 * time.Second); code != 0 {
			t.Fatalf("exit code %d; stderr %s", code, s.p.stderr.String())
		}
	}
}

// BookMaxMoves 4 through the built binary, in complete games against
// Stockfish: the book answers every position it has a move for until the
// side's 4th book move of the game, and none after (playGame checks each
// move against the book), in every game: the count starts again at
// ucinewgame.
func TestBookMaxMovesGames(t *testing.T) {
	needStockfishAndBook(t)
	if testing.Short() {
		t.Skip("games take a few seconds")
	}
	const maxMoves = 4
	a := policyProxy(t, 20, "BookMaxMoves=4")
	b := policyProxy(t, 0, "BookMaxMoves=4")
	a.maxBook, b.maxBook = maxMoves, maxMoves
	reached := 0
	for game := range 2 {
		white, black := a, b
		if game == 1 {
			white, black = b, a
		}
		result := playGame(t, white, black, fastchessHabits, 256)
		t.Logf("game %d: %s; book moves %d+%d", game+1, result, white.gameBook, black.gameBook)
		for _, s := range []*gameSide{white, black} {
			if s.gameBook > maxMoves {
				t.Fatalf("%d book moves in a game", s.gameBook)
			}
			if s.gameBook == maxMoves {
				reached++
			}
		}
	}
	if reached == 0 {
		t.Error("no side reached BookMaxMoves: the test proves little")
	}
	endGames(t, a, b)
}

// BookPonder with the real Stockfish: while the GUI ponders on a book
// position Stockfish searches it (its info lines are not shown); on
// ponderhit the book's answer comes at once and Stockfish's bestmove for
// the stopped search is swallowed; the next search out of book gets
// exactly one bestmove.
func TestBookPonderStockfish(t *testing.T) {
	needStockfishAndBook(t)
	logFile := filepath.Join(t.TempDir(), "polyproxy.log")
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+gnuchessBook,
		"-pg", "BookPonder=true", "-pg", "Log=true", "-pg", "LogFile="+logFile, "-uci", "Threads=1", "-uci", "Hash=16")
	p.send("uci", "isready")
	p.until("readyok", 10*time.Second)
	p.send("position startpos moves e2e4", "go ponder wtime 60000 btime 60000")
	// Stockfish searches for 300 ms: nothing reaches the GUI.
	select {
	case l := <-p.lines:
		t.Fatalf("output while pondering: %q", l)
	case <-time.After(300 * time.Millisecond):
	}
	start := time.Now()
	p.send("ponderhit")
	got := p.until("bestmove", 10*time.Second)
	d := time.Since(start)
	if len(got) != 3 || !strings.HasPrefix(got[0], "info string book move ") {
		t.Fatalf("got %q", got)
	}
	// The book answers in microseconds; allow for a busy machine (CI runs
	// every package at once on two cores, Stockfish searching on one).
	if d > 500*time.Millisecond {
		t.Errorf("book answer %v after ponderhit", d)
	}
	p.send("isready")
	if rest := p.until("readyok", 10*time.Second); len(rest) != 1 {
		t.Fatalf("after the book answer: %q", rest)
	}
	p.send("position startpos moves g2g4 e7e5 f2f3", "go movetime 200")
	got = p.until("bestmove", 10*time.Second)
	if strings.Contains(strings.Join(got, "\n"), "book move") {
		t.Fatalf("book answered out of book: %q", got)
	}
	p.send("isready")
	if rest := p.until("readyok", 10*time.Second); len(rest) != 1 {
		t.Fatalf("after the engine's bestmove: %q", rest)
	}
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">engine go infinite", ">engine stop", "warm engine: its bestmove swallowed", "engine> info depth"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// A match as a tournament manager plays it, with a book per side and
// BookPonder on: both sides ponder (ponderhit on a hit; stop, position and
// go in one burst on a miss), and BookPonderAlways in a game without
// pondering. playGame fails on a bestmove nobody waits for, on a book move
// the book does not have, and on a time loss.
func TestBookPonderGames(t *testing.T) {
	needStockfishAndBook(t)
	if testing.Short() {
		t.Skip("games take a few seconds")
	}
	const depth = 10
	dir := t.TempDir()
	white, black := filepath.Join(dir, "white.bin"), filepath.Join(dir, "black.bin")
	data, err := os.ReadFile(gnuchessBook)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{white, black} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		habits habits
		pg     []string
	}{
		{"ponder", ponderHabits, []string{"BookPonder=true", "BookFile=" + filepath.Join(dir, "missing.bin"), "BookFileWhite=" + white, "BookFileBlack=" + black}},
		{"always", fastchessHabits, []string{"BookPonder=true", "BookPonderAlways=true"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs []string
			mk := func(skill int) *gameSide {
				logs = append(logs, filepath.Join(t.TempDir(), "polyproxy.log"))
				return policyProxy(t, skill, append(tc.pg, "BookDepth="+strconv.Itoa(depth), "Log=true", "LogFile="+logs[len(logs)-1])...)
			}
			a, b := mk(20), mk(0)
			result := playGame(t, a, b, tc.habits, depth)
			t.Logf("%s: %s; book moves %d+%d, engine moves %d+%d, ponder hits %d+%d, misses %d+%d", tc.name, result,
				a.book, b.book, a.eng, b.eng, a.ponderHits, b.ponderHits, a.ponderMiss, b.ponderMiss)
			endGames(t, a, b)
			var all string
			for _, l := range logs {
				data, err := os.ReadFile(l)
				if err != nil {
					t.Fatal(err)
				}
				all += string(data)
			}
			warm, swallowed := strings.Count(all, "warm engine: searching"), strings.Count(all, "warm engine: its bestmove swallowed")
			t.Logf("warm searches %d, bestmoves swallowed %d", warm, swallowed)
			if warm == 0 || swallowed != warm {
				t.Errorf("warm searches %d, swallowed %d", warm, swallowed)
			}
			if tc.name == "ponder" && (!strings.Contains(all, "book (BookFileWhite): "+white) || !strings.Contains(all, "book (BookFileBlack): "+black)) {
				t.Error("the log does not show both books per side answering")
			}
		})
	}
}

// A take-back through the built binary, on the gnuchess book: BookMaxMoves
// 2 still counts the book move kept before it (the third book move of the
// game came when a take-back of two plies was taken for a new game).
func TestBookMaxMovesTakeBackBinary(t *testing.T) {
	testenv.GnuchessBook(t)
	p := startProxy(t, nil, "-noini", "-ec", testenv.FakeEngine(t)+" -search-ms 20", "-pg", "Book=true",
		"-pg", "BookFile="+gnuchessBook, "-pg", "BookSeed=7", "-pg", "BookMaxMoves=2")
	p.send("uci")
	p.until("uciok", 10*time.Second)
	p.send("ucinewgame")
	var got []string
	for _, moves := range []string{"e2e4", "e2e4 e7e5 g1f3", "e2e4 e7e5 g1f3 b8c6 f1b5", "e2e4 e7e5 g1f3", "e2e4 e7e5 g1f3 b8c6 f1b5"} {
		p.send("position startpos moves "+moves, "go movetime 50")
		lines := p.until("bestmove", 10*time.Second)
		from := "engine"
		if strings.HasPrefix(lines[0], "info string book move") {
			from = "book"
		}
		got = append(got, from+" "+strings.Fields(lines[len(lines)-1])[1])
	}
	if want := "book e7e5,book b8c6,engine a7a5,book b8c6,engine a7a5"; strings.Join(got, ",") != want {
		t.Fatalf("got %s, want %s", strings.Join(got, ","), want)
	}
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

// The engine dies in a warm search (BookPonderAlways) through the built
// binary: the GUI's next go still gets its bestmove and the session goes
// on (polyproxy gave up on the engine and exited 1).
func TestBookPonderWarmDeathBinary(t *testing.T) {
	testenv.GnuchessBook(t)
	p := startProxy(t, nil, "-noini", "-ec", testenv.FakeEngine(t)+" -crash-in d2d4 -search-ms 200", "-pg", "Book=true",
		"-pg", "BookFile="+gnuchessBook, "-pg", "BookSeed=1", "-pg", "BookPonder=true", "-pg", "BookPonderAlways=true")
	p.send("uci")
	p.until("uciok", 10*time.Second)
	p.send("ucinewgame", "position startpos", "go wtime 10000 btime 10000")
	if l := p.until("bestmove", 10*time.Second); !strings.HasPrefix(l[len(l)-1], "bestmove d2d4") {
		t.Fatalf("got %q", l)
	}
	p.until("info string the engine died", 10*time.Second) // in the warm search of d2d4
	// The GUI's own search dies too (its line holds d2d4): twice in one
	// position, so bestmove 0000, as without BookPonder.
	p.send("position startpos moves d2d4 a7a5", "go wtime 10000 btime 10000")
	if l := p.until("bestmove", 10*time.Second); l[len(l)-1] != "bestmove 0000" {
		t.Fatalf("got %q", l)
	}
	p.send("position startpos moves e2e4 e7e5", "go wtime 10000 btime 10000")
	p.until("bestmove", 10*time.Second)
	p.send("isready")
	p.until("readyok", 10*time.Second)
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit code %d; stderr %s", code, p.stderr.String())
	}
}
