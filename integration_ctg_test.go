package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

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
	want, ok, _ := book.NewChooser(book.Options{Mode: book.Best, ThresholdPerMille: 5}, 1).Choose([]*book.Book{b}, start, nil, nil)
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
