package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/notnil/chess"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// learnGame plays one game from fen between the learner (polyproxy with
// BookLearn) and plain Stockfish, both as a GUI drives them, until the
// rules end it; it returns the moves.
func learnGame(t *testing.T, learner, opponent *proc, learnerWhite bool, fen string) []string {
	t.Helper()
	opt, err := chess.FEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	pos := chess.NewGame(opt).Position()
	var moves []string
	for _, p := range []*proc{learner, opponent} {
		p.send("ucinewgame", "isready")
		p.until("readyok", 10*time.Second)
	}
	for len(pos.ValidMoves()) > 0 {
		if len(moves) >= 150 {
			t.Fatalf("no end after %d plies: %v", len(moves), moves)
		}
		mover := opponent
		if (pos.Turn() == chess.White) == learnerWhite {
			mover = learner
		}
		cmd := "position fen " + fen
		if len(moves) > 0 {
			cmd += " moves " + strings.Join(moves, " ")
		}
		mover.send(cmd, "go movetime 40")
		out := mover.until("bestmove", 20*time.Second)
		move := strings.Fields(out[len(out)-1])[1]
		var played *chess.Move
		for _, m := range pos.ValidMoves() {
			if m.String() == move {
				played = m
			}
		}
		if played == nil {
			t.Fatalf("illegal move %q after %v", move, moves)
		}
		pos = pos.Update(played)
		moves = append(moves, move)
	}
	if pos.Status() != chess.Checkmate {
		t.Fatalf("game ended without mate (%v): %v", pos.Status(), moves)
	}
	return moves
}

// startLearning starts a learner, polyproxy over Stockfish playing from
// and learning into bookPath with its log on (set in a polyglot.ini in the
// book's folder, as a GUI user writes it), and its opponent, Stockfish
// alone; it returns them after their uci handshake, and the log's path.
func startLearning(t *testing.T, bookPath string) (learner, opponent *proc, logPath string) {
	t.Helper()
	dir := filepath.Dir(bookPath)
	ini := filepath.Join(dir, "polyglot.ini")
	logPath = filepath.Join(dir, "polyglot.log")
	if err := os.WriteFile(ini, []byte(fmt.Sprintf(`[PolyGlot]
EngineCommand = %s
EngineDir = %s
Book = true
BookFile = %s
BookLearn = true
Log = true
LogFile = %s
[Engine]
Threads = 1
Hash = 16
`, stockfishPath, dir, bookPath, logPath)), 0o644); err != nil {
		t.Fatal(err)
	}
	learner = startProxy(t, nil, ini)
	opponent = startProc(t, nil, stockfishPath)
	for _, p := range []*proc{learner, opponent} {
		p.send("uci")
		p.until("uciok", 10*time.Second)
	}
	return learner, opponent, logPath
}

func learnFieldOf(t *testing.T, data []byte, key board.Key, move board.Move) (games, points uint16) {
	t.Helper()
	i, ok := fixture.FirstMatch(data, key, move)
	if !ok {
		t.Fatalf("no entry %v %v", key, move)
	}
	l := fixture.LearnAt(data, i)
	return l.Games(), l.Points()
}

// Games through the proxy against Stockfish that end in mate, one won and
// one lost by the learner, then the learn fields of the book moves it
// played are checked.
func TestLiveLearningAgainstStockfish(t *testing.T) {
	testenv.Stockfish(t)
	// Won: White's book move Kb6 forces Kb8, then Rh8 mates; the learner's
	// engine delivers the mate itself.
	const wonFEN = "k7/8/2K5/8/8/8/8/7R w - - 0 1"
	// Lost: Black, a lone king against king and queen, plays its book move
	// and is mated some moves later; the learner never sees the final
	// position, only its engine's mate scores.
	const lostFEN = "8/8/8/4k3/8/8/8/3QK3 b - - 0 1"
	key := func(fen string) board.Key {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		return p.Key()
	}
	mv := func(s string) board.Move {
		m, err := board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	wonKey, lostKey := key(wonFEN), key(lostFEN)
	won, lost := mv("c6b6"), mv("e5e4")
	entries := []book.Entry{
		{Key: wonKey, Move: won, Weight: 10, Learn: 0},
		{Key: lostKey, Move: lost, Weight: 10, Learn: 2<<16 | 3},
	}
	bookPath := fixture.WriteEntries(t, entries)
	before := fixture.ReadFile(t, bookPath)
	learner, opponent, logPath := startLearning(t, bookPath)

	wonMoves := learnGame(t, learner, opponent, true, wonFEN)
	if wonMoves[0] != "c6b6" {
		t.Fatalf("book move not played: %v", wonMoves)
	}
	lostMoves := learnGame(t, learner, opponent, false, lostFEN)
	if lostMoves[0] != "e5e4" {
		t.Fatalf("book move not played: %v", lostMoves)
	}
	// The next game's ucinewgame ends the last one. Learning runs beside
	// the proxy's loop (a locked book never delays an answer): it is done
	// once the log says the last entry was updated.
	learner.send("ucinewgame", "isready")
	learner.until("readyok", 10*time.Second)
	var log []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		log, _ = os.ReadFile(logPath)
		if strings.Contains(string(log), "move e5e4: ") {
			break
		}
	}
	after, err := os.ReadFile(bookPath)
	if err != nil {
		t.Fatal(err)
	}
	if g, p := learnFieldOf(t, after, wonKey, won); g != 1 || p != 2 {
		t.Errorf("won game's book move: %d games %d points, want 1 game 2 points\nlog:\n%s", g, p, log)
	}
	if g, p := learnFieldOf(t, after, lostKey, lost); g != 3 || p != 3 {
		t.Errorf("lost game's book move: %d games %d points, want 3 games 3 points (was 2 games 3 points)\nlog:\n%s", g, p, log)
	}
	fixture.AssertOnlyLearnChanged(t, before, after, map[int]bool{0: true, 1: true})
	for _, want := range []string{"learn: game ended (ucinewgame): 1-0 by checkmate", "learn: game ended (ucinewgame): 1-0 by engine reported black mate -"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// A book deleted during a game with BookLearn, through the built binary:
// the GUI is told that its book move was not learned, and why, and the log
// claims no update of a file that no longer exists.
func TestLearningIntoADeletedBookBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows may refuse to delete an open file")
	}
	start, err := board.ParseFEN(board.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	e4, _ := board.ParseMove("e2e4")
	bookPath := fixture.WriteEntries(t, []book.Entry{{Key: start.Key(), Move: e4, Weight: 10}})
	logPath := filepath.Join(filepath.Dir(bookPath), "polyglot.log")
	p := startProxy(t, nil, "-noini", "-ec", testenv.FakeEngine(t), "-pg", "Book=true", "-pg", "BookFile="+bookPath,
		"-pg", "BookLearn=true", "-log", "true", "-lf", logPath)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	p.send("ucinewgame", "position startpos", "go movetime 20")
	if l := p.until("bestmove", 10*time.Second); l[len(l)-1] != "bestmove e2e4" {
		t.Fatalf("got %q", l)
	}
	if err := os.Remove(bookPath); err != nil {
		t.Fatal(err)
	}
	// Scholar's mate: a game with a result, ended by the next ucinewgame.
	p.send("position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7", "ucinewgame", "isready")
	// The GUI is told (learning runs beside the loop: the book may have
	// been gone before it was first opened for learning, which is said
	// too), and the log accounts for the book move.
	for l := ""; !strings.HasPrefix(l, "info string learn: ") || !strings.Contains(l, bookPath); {
		l = p.next(10 * time.Second)
	}
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	log, _ := os.ReadFile(logPath)
	if want := "learn: " + bookPath + " key " + start.Key().String() + " move e2e4: not learned ("; !strings.Contains(string(log), want) || strings.Contains(string(log), "->") {
		t.Fatalf("the log lacks %q or claims an update:\n%s", want, log)
	}
}
