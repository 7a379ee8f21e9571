package core_test

import (
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bookAnswer sends lines and returns the output up to the bestmove.
func bookAnswer(h *proxytest.Harness, lines ...string) []string {
	h.T.Helper()
	h.Send(lines...)
	return h.Until("bestmove")
}

// A book replaced on disk (a new file renamed onto its path) is noticed at
// the next ucinewgame, reopened, and the GUI told; setoption of the same
// BookFile reopens it at once.
func TestBookReplacedOnDisk(t *testing.T) {
	path := proxytest.SmallBook(t) // 1.e4 (weight 300) or 1.d4 (100)
	h := start(t, proxytest.Config(t, path), nil, nil)
	h.Handshake()
	if got := bookAnswer(h, "position startpos", "go"); got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	replace := func(move string) {
		t.Helper()
		next := proxytest.WriteBook(t, []proxytest.BookEntry{{Moves: "", Move: move, Weight: 5}})
		if err := os.Rename(next, path); err != nil {
			t.Fatal(err)
		}
	}
	replace("g1f3")
	// Within the game, the book open is the one used ...
	if got := bookAnswer(h, "position startpos", "go"); got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	// ... the next game opens the new one.
	got := bookAnswer(h, "ucinewgame", "position startpos", "go")
	if got[0] != "notice: book "+path+" opened (1 entries): the file was replaced on disk" || got[len(got)-1] != "bestmove g1f3" {
		t.Fatalf("got %q", got)
	}
	replace("b1c3")
	got = bookAnswer(h, "setoption name Polyglot BookFile value "+path, "position startpos", "go")
	if got[0] != "notice: book "+path+" opened (1 entries): setoption Polyglot BookFile" || got[len(got)-1] != "bestmove b1c3" {
		t.Fatalf("got %q", got)
	}
}

// A book rewritten in place (as cp does) is noticed when a probe finds no
// move, and reopened at once: the GUI gets the new book's move.
func TestBookRewrittenInPlace(t *testing.T) {
	path := proxytest.SmallBook(t)
	h := start(t, proxytest.Config(t, path), nil, nil)
	h.Handshake()
	if got := bookAnswer(h, "position startpos", "go"); got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	data, err := os.ReadFile(proxytest.WriteBook(t, []proxytest.BookEntry{{Moves: "", Move: "g1f3", Weight: 5}}))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil { // truncates, then writes: the file shrinks
		t.Fatal(err)
	}
	got := bookAnswer(h, "position startpos", "go")
	if !strings.HasPrefix(got[0], "notice: book "+path+" opened (1 entries): the file was rewritten on disk") || got[len(got)-1] != "bestmove g1f3" {
		t.Fatalf("got %q", got)
	}
}

// A book gone from disk is dropped at the next game, with an info string;
// back on disk, it is opened again at the game after.
func TestBookGoneAndBack(t *testing.T) {
	path := proxytest.SmallBook(t)
	h := start(t, proxytest.Config(t, path), nil, nil)
	h.Handshake()
	saved := filepath.Join(t.TempDir(), "saved.bin")
	if err := os.Rename(path, saved); err != nil {
		t.Fatal(err)
	}
	got := bookAnswer(h, "ucinewgame", "position startpos", "go")
	if !strings.HasPrefix(got[0], "notice: book "+path+" not used") || got[len(got)-1] != "bestmove a7a6" {
		t.Fatalf("got %q", got)
	}
	if err := os.Rename(saved, path); err != nil {
		t.Fatal(err)
	}
	got = bookAnswer(h, "ucinewgame", "position startpos", "go")
	if !strings.HasPrefix(got[0], "notice: book "+path+" opened (5 entries): the file is on disk now") || got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	// Nothing changed: not a word.
	got = bookAnswer(h, "ucinewgame", "position startpos", "go")
	if len(got) != 2 || proxytest.HasPrefix(got, "notice: ") {
		t.Fatalf("got %q", got)
	}
}
