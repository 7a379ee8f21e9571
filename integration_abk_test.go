package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestABKBookAnswers: the built binary converts the gnuchess book to an
// ABK book (convert-book), and answers go from it as the engine's adapter,
// naming the book, with a move the ABK tree holds.
func TestABKBookAnswers(t *testing.T) {
	needStockfishAndBook(t)
	abk := filepath.Join(t.TempDir(), "gnuchess.abk")
	out, err := exec.Command(testenv.Polyproxy(t), "convert-book", "-in", gnuchessBook, "-out", abk, "-max-ply", "12").CombinedOutput()
	if err != nil {
		t.Fatalf("convert-book: %v: %s", err, out)
	}
	p := startProxy(t, nil, "-noini", "-ec", stockfishPath, "-pg", "Book=true", "-pg", "BookFile="+abk, "-pg", "BookRandom=false")
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
