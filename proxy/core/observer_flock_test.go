//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package core_test

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// Learning waits for a book another process holds locked, beside the
// loop: the GUI's answers meanwhile come as ever, and the game is learned
// once the lock is released.
func TestLearningIntoALockedBookDelaysNoAnswer(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookLearn = true
	h := start(t, cfg, nil, learn.NewSession(learn.Settings{}, nil))
	f, err := os.Open(cfg.BookFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	locked := false
	unlock := func() {
		if locked {
			unix.Flock(int(f.Fd()), unix.LOCK_UN)
			locked = false
		}
	}
	t.Cleanup(func() { unlock(); f.Close() }) // before the harness stops
	h.Handshake()
	h.Send("ucinewgame")
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	// Another process learns into the book, and takes its time.
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	locked = true
	// Scholar's mate: a game to learn at the ucinewgame.
	h.Send("position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7", "ucinewgame", "isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	unlock()
	h.Send("quit")
	<-h.Done
	h.Done <- nil
	start := fixture.Line(t, "", "")
	m, _ := board.ParseMove("e2e4")
	data := fixture.ReadFile(t, cfg.BookFiles[0])
	i, ok := fixture.FirstMatch(data, start.Pos.Key(), m)
	if !ok {
		t.Fatal("no entry e2e4")
	}
	if got, want := fixture.LearnAt(data, i), book.Learn(0).Add(book.Win); got != want {
		t.Fatalf("e2e4 learned %v, want %v", got, want)
	}
}
