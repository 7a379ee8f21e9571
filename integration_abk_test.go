package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

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

// TestLiveLearningIntoABK: through the built binary, a proxy with BookLearn
// plays Black from an ABK book against a proxy playing White from a copy,
// the fool's mate all from the books (the learner's last book move mates);
// the live-learned book is the one "polyproxy learn -pgn" makes of the
// game, and only Black's two records changed (Black's win, a loss in
// White's view: games and losses counted).
func TestLiveLearningIntoABK(t *testing.T) {
	testenv.Stockfish(t)
	line := []string{"f2f3", "e7e5", "g2g4", "d8h4"}
	var entries []book.Entry
	for i, s := range line {
		l := fixture.Line(t, "", strings.Join(line[:i], " "))
		m, err := board.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, book.Entry{Key: l.Pos.Key(), Move: m, Weight: 10, Learn: book.MakeLearn(4, 4)})
	}
	dir := t.TempDir()
	abkPath := filepath.Join(dir, "fool.abk")
	if _, err := abk.Write(abkPath, book.FromEntries("fool", entries), 10); err != nil {
		t.Fatal(err)
	}
	before := fixture.ReadFile(t, abkPath)
	byHand := filepath.Join(t.TempDir(), "byhand.abk")
	theirs := filepath.Join(t.TempDir(), "theirs.abk")
	for _, p := range []string{byHand, theirs} {
		if err := os.WriteFile(p, before, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	learner, _, logPath := startLearning(t, abkPath)
	opponent := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+theirs)
	opponent.send("uci")
	opponent.until("uciok", 10*time.Second)
	moves := learnGame(t, learner, opponent, false, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if strings.Join(moves, " ") != strings.Join(line, " ") {
		t.Fatalf("the game left the books: %v", moves)
	}
	learner.send("ucinewgame", "isready")
	learner.until("readyok", 10*time.Second)
	var log []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		log, _ = os.ReadFile(logPath)
		if strings.Count(string(log), "learn: "+abkPath+" key") >= 2 {
			break
		}
	}
	live := fixture.ReadFile(t, abkPath)
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if err := os.WriteFile(pgn, []byte("[White \"other\"]\n[Black \"learner\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(testenv.Polyproxy(t), "learn", "-book", byHand, "-pgn", pgn, "-player", "learner").CombinedOutput(); err != nil {
		t.Fatalf("learn -pgn: %v: %s", err, out)
	}
	if string(live) != string(fixture.ReadFile(t, byHand)) {
		t.Errorf("the live-learned book differs from learn -pgn's\nlog:\n%s", log)
	}
	changed := 0
	for rec := abk.FirstRecord; (rec+1)*abk.RecordSize <= len(live); rec++ {
		was, now := abk.DecodeRecord(before[rec*abk.RecordSize:]), abk.DecodeRecord(live[rec*abk.RecordSize:])
		if was == now {
			continue
		}
		changed++
		want := was
		want.Games, want.Losses = was.Games+1, was.Losses+1
		if now != want || rec-abk.FirstRecord > 3 || (rec-abk.FirstRecord)%2 != 1 {
			t.Errorf("record %d: %+v, was %+v", rec, now, was)
		}
	}
	if changed != 2 {
		t.Errorf("%d records changed, want Black's 2\nlog:\n%s", changed, log)
	}
}
