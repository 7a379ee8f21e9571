package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/randgames"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// The book decision through the built binary: the book policies
// (BookMaxMoves, BookPonder) in games against Stockfish, the ABK and CTG
// formats, and Chess960 books.

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

// TestABKBookAnswers: the built binary converts the gnuchess book to an
// ABK book (convert-book), and answers go from it as the engine's adapter,
// naming the book, with a move the ABK tree holds.
func TestABKBookAnswers(t *testing.T) {
	needStockfishAndBook(t)
	abkPath := filepath.Join(t.TempDir(), "gnuchess.abk")
	out, err := exec.Command(testenv.Polyproxy(t), "convert-book", "-in", gnuchessBook, "-out", abkPath, "-max-ply", "12").CombinedOutput()
	if err != nil {
		t.Fatalf("convert-book: %v: %s", err, out)
	}
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+abkPath, "-pg", "BookRandom=false")
	p.send("uci", "isready", "position startpos moves e2e4", "go wtime 1000 btime 1000")
	p.until("uciok", 10*time.Second)
	got := p.until("bestmove", 10*time.Second)
	var book string
	for _, l := range got {
		if strings.HasPrefix(l, "info string book move ") {
			book = l
		}
	}
	// The gnuchess book's heaviest reply to 1.e4 is ...c5: priority 9 in
	// the ABK tree, the heaviest there too.
	if !strings.HasPrefix(book, "info string book move c7c5 (") || !strings.HasSuffix(book, ", gnuchess.abk)") ||
		!strings.HasPrefix(got[len(got)-1], "bestmove c7c5") {
		t.Fatalf("got %q", got)
	}
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestCTGBookAnswers: the built binary, as the engine's adapter with a
// CTG book named by its .cto file, answers go from it at the start
// position with the move the book decision picks there (BookRandom off:
// the heaviest), says before the first game that BookLearn cannot learn
// into it, and in a Chess960 game from the same start position never
// probes it: the engine answers, and the log says why.
func TestCTGBookAnswers(t *testing.T) {
	testenv.Stockfish(t)
	cto := filepath.Join("book", "ctg", "testdata", "games.cto")
	b, err := formats.Open(cto)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	start := board.StartPosition()
	d := book.NewChooser(book.Options{Mode: book.Best, ThresholdPerMille: 5}, 1).Choose(book.Both(b), book.At(start))
	want, ok := d.Move()
	if !ok {
		t.Fatal("the CTG book has no move at the start position")
	}
	logPath := filepath.Join(t.TempDir(), "polyglot.log")
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+cto, "-pg", "BookRandom=false",
		"-pg", "BookLearn=true", "-pg", "Log=true", "-pg", "LogFile="+logPath)
	p.send("uci")
	got := p.until("uciok", 10*time.Second)
	// Told as the first game starts, before the first move is asked for.
	p.send("ucinewgame", "isready", "position startpos")
	p.waitStderr(10*time.Second, "the CTG format is read only")
	p.send("go wtime 1000 btime 1000")
	got = append(got, p.until("bestmove", 10*time.Second)...)
	joined := strings.Join(got, "\n")
	if !strings.Contains(joined, "info string book move "+want.Move.String()+" (") || !strings.Contains(joined, ", games.cto)") ||
		got[len(got)-1] != "bestmove "+want.Move.String() && !strings.HasPrefix(got[len(got)-1], "bestmove "+want.Move.String()+" ponder ") {
		t.Fatalf("want the book move %s, got %q", want.Move, got)
	}
	if !strings.Contains(joined, "the CTG format is read only") {
		t.Errorf("no word before the first game that BookLearn cannot learn into the CTG book: %q", got)
	}

	p.send("setoption name UCI_Chess960 value true", "ucinewgame", "isready", "position startpos", "go wtime 1000 btime 1000")
	got = p.until("bestmove", 10*time.Second)
	for _, l := range got {
		if strings.HasPrefix(l, "info string book move") {
			t.Fatalf("a Chess960 game got a move from the CTG book: %q", got)
		}
	}
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"opened (CTG book, found a position at a time: 60 pages, table of 511 entries, made from 292 games)",
		"the CTG format has no Chess960: not probed in a Chess960 game"} {
		if !strings.Contains(string(log), s) {
			t.Errorf("the log does not say %q:\n%s", s, log)
		}
	}
}

// chess960Result is what one game through the proxy gave.
type chess960Result struct {
	plies, bookMoves, castlings int
	decided                     bool // ended by the rules or by the learner's scores
	firstFromBook               bool // the learner's first move was a book move
}

// playChess960Game plays a Chess960 game from fen between the learner (the
// proxy over Stockfish) and a weak Stockfish, as a GUI drives them: every
// move must be legal in Chess960 (castling king takes rook) and every book
// move one of the book's moves there. It ends by the rules, or once the
// learner's engine scores beyond 1000 cp three moves running (as the
// proxy's learning adjudicates), or after 200 plies.
func playChess960Game(t *testing.T, learner, opponent *proc, learnerWhite bool, fen string, b *book.Book) chess960Result {
	t.Helper()
	line, err := board.NewLineVariant(fen, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*proc{learner, opponent} {
		p.send("ucinewgame", "isready")
		p.until("readyok", 10*time.Second)
	}
	var res chess960Result
	var moves []string
	big := 0
	for ; res.plies < 200; res.plies++ {
		if line.Pos.Status() != board.Playing {
			res.decided = true
			break
		}
		if big >= 3 {
			res.decided = true
			break
		}
		learnerMoves := line.Pos.WhiteToMove() == learnerWhite
		mover, goCmd := opponent, "go depth 1"
		if learnerMoves {
			mover, goCmd = learner, "go movetime 25"
		}
		cmd := "position fen " + fen
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		mover.send(cmd, goCmd)
		out := mover.until("bestmove", 20*time.Second)
		move := strings.Fields(out[len(out)-1])[1]
		m, err := board.ParseMove(move)
		if err != nil {
			t.Fatalf("%s: bestmove %q after %v", fen, move, moves)
		}
		fromBook, lastBig := false, false // lastBig: the search's last score
		for _, l := range out {
			if strings.HasPrefix(l, "info string book move "+move+" ") {
				fromBook = true
			}
			if f := strings.Fields(l); len(f) > 0 && f[0] == "info" {
				for i := 0; i+2 < len(f); i++ {
					if f[i] == "score" {
						n, _ := strconv.Atoi(f[i+2])
						lastBig = f[i+1] == "mate" || n > 1000 || n < -1000
					}
				}
			}
		}
		if learnerMoves && !fromBook {
			if lastBig {
				big++
			} else {
				big = 0
			}
		}
		if learnerMoves && res.plies < 2 {
			res.firstFromBook = fromBook
		}
		if fromBook {
			res.bookMoves++
			inBook := false
			for _, e := range b.Entries(line.Pos.Key()) {
				inBook = inBook || e.Move == m
			}
			if !inBook {
				t.Fatalf("%s: book move %s after %v is not the book's (king takes rook)", fen, move, moves)
			}
		}
		if strings.HasPrefix(line.Pos.SAN(m), "O-O") {
			res.castlings++
		}
		if _, err := line.Play(m); err != nil || line.Pos.ToPlayed(m) != m {
			t.Fatalf("%s: illegal move %s after %v: %v", fen, move, moves, err)
		}
		moves = append(moves, move)
	}
	return res
}

// A GUI plays Chess960 games through the proxy (UCI_Chess960 on, over
// Stockfish) with a book made by make-book from Chess960 games, from
// X-FEN and Shredder-FEN starts: all moves legal, book moves in king-
// takes-rook notation, and the learn fields written, nothing else.
func TestChess960GamesThroughProxy(t *testing.T) {
	testenv.Stockfish(t)
	lichess, cutechess := randgames.WriteChess960PGN(t, 400)
	dir := t.TempDir()
	bin := filepath.Join(dir, "960.bin")
	if out, err := exec.Command(testenv.Polyproxy(t), "make-book", "-pgn", lichess, "-pgn", cutechess, "-bin", bin, "-min-game", "1", "-q").CombinedOutput(); err != nil {
		t.Fatalf("make-book: %v\n%s", err, out)
	}
	before, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	b, err := formats.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	learner, opponent, logPath := startLearning(t, bin)
	for _, p := range []*proc{learner, opponent} {
		p.send("setoption name UCI_Chess960 value true")
	}
	opponent.send("setoption name Skill Level value 0")

	var total chess960Result
	decided := 0
	for i, n := range randgames.TestStarts {
		start, err := board.ParseFENVariant(board.Chess960StartFEN(n), true)
		if err != nil {
			t.Fatal(err)
		}
		fen := start.FEN()
		if i%2 == 1 {
			fen = start.ShredderFEN()
		}
		r := playChess960Game(t, learner, opponent, i%2 == 0, fen, b)
		if i%2 == 0 && !r.firstFromBook {
			// Every start is in the book for White (its games' wins and draws).
			t.Errorf("start %d: the learner's first move as White was not a book move", n)
		}
		total.plies += r.plies
		total.bookMoves += r.bookMoves
		total.castlings += r.castlings
		if r.decided {
			decided++
		}
	}
	learner.send("ucinewgame", "isready")
	learner.until("readyok", 10*time.Second)
	after, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(logPath)
	t.Logf("%d games (%d decided), %d plies, %d book moves, %d castlings", len(randgames.TestStarts), decided, total.plies, total.bookMoves, total.castlings)
	if total.bookMoves < len(randgames.TestStarts)/2 {
		t.Fatalf("only %d book moves in %d games\n%s", total.bookMoves, len(randgames.TestStarts), log)
	}
	learned := map[int]bool{}
	for i := range min(len(before), len(after)) / polyglot.EntrySize {
		if fixture.LearnAt(before, i) != fixture.LearnAt(after, i) {
			learned[i] = true
		}
	}
	fixture.AssertOnlyLearnChanged(t, before, after, learned)
	if len(learned) == 0 || !strings.Contains(string(log), "learn: game ended") {
		t.Fatalf("no learn field written (%d games decided)\n%s", decided, log)
	}
}
