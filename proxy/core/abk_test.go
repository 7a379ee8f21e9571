package core_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// abkBook is the small book written as an ABK book.
func abkBook(t *testing.T) string {
	t.Helper()
	src, err := formats.Open(proxytest.SmallBook(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	path := filepath.Join(t.TempDir(), "small.abk")
	if _, err := abk.Write(path, src, 20); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestABKBookAnswers: an ABK book answers in standard chess; in a Chess960
// game it is never probed (the engine answers) and the log says why once.
func TestABKBookAnswers(t *testing.T) {
	cfg := proxytest.Config(t, abkBook(t))
	cfg.Log = true
	cfg.LogFile = filepath.Join(t.TempDir(), "polyproxy.log")
	h := start(t, cfg, nil, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("standard chess: %q", l)
	}
	if l := h.BestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove c7c5" {
		t.Fatalf("standard chess: %q", l)
	}
	// 1.e4 e5 2.Nf3 Nc6 is in the Polyglot book, but no line of its moves
	// from the start reaches it: the tree has no place for it.
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5 g1f3 b8c6", "go"); l != "bestmove a7a6" {
		t.Fatalf("off the tree: %q", l)
	}
	h.Send("setoption name UCI_Chess960 value true")
	h.Next()
	for range 2 {
		if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
			t.Fatalf("Chess960: %q, want the engine's move", l)
		}
	}
	h.Send("quit")
	<-h.Done
	h.Done <- nil
	data, err := os.ReadFile(cfg.LogFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "book "+cfg.BookFiles[0]+": ABK book read in ") {
		t.Error("the log does not say what reading the ABK book cost")
	}
	said := "book " + cfg.BookFiles[0] + ": " + "the ABK format has no Chess960: not probed in a Chess960 game"
	if n := strings.Count(string(data), said); n != 1 {
		t.Errorf("the log says %q %d times, want once", said, n)
	}
}

// TestABKBookWrittenInPlace: an ABK book is held in memory, so one written
// in place (learning, Arena's editor) is read again at the next
// ucinewgame (beside the loop), not in the middle of a game.
func TestABKBookWrittenInPlace(t *testing.T) {
	path := abkBook(t)
	h := start(t, proxytest.Config(t, path), nil, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("before: %q", l)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The root's two moves, e2e4 then d2d4: swap their games, which the
	// book written weighs by.
	e4 := abk.DecodeRecord(data[abk.HeaderSize:])
	d4 := abk.DecodeRecord(data[abk.HeaderSize+abk.RecordSize:])
	e4.Games, d4.Games = d4.Games, e4.Games
	e4.Encode(data[abk.HeaderSize:])
	d4.Encode(data[abk.HeaderSize+abk.RecordSize:])
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("in the same game: %q", l)
	}
	h.Send("ucinewgame")
	if got := h.Next(); got != "notice: book "+path+" opened (3 entries): the ABK book was written since it was read" {
		t.Fatalf("after ucinewgame: %q", got)
	}
	if l := h.BestmoveAfter("position startpos", "go"); !strings.HasPrefix(l, "bestmove d2d4") {
		t.Fatalf("after ucinewgame: %q", l)
	}
}
