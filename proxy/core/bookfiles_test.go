package core_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// bookAnswer sends lines and returns the output up to the bestmove.
func bookAnswer(h *proxytest.Harness, lines ...string) []string {
	h.T.Helper()
	h.Send(lines...)
	return h.Until("bestmove")
}

// replaceBook renames a new book onto path, whose only move is move at
// the start.
func replaceBook(t *testing.T, path, move string) {
	t.Helper()
	next := proxytest.WriteBook(t, []proxytest.BookEntry{{Moves: "", Move: move, Weight: 5}})
	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
}

// A book replaced on disk (a new file renamed onto its path) is noticed at
// the next ucinewgame, read again beside the loop, and the GUI told;
// setoption of the same BookFile reopens it at once.
func TestBookReplacedOnDisk(t *testing.T) {
	path := proxytest.SmallBook(t) // 1.e4 (weight 300) or 1.d4 (100)
	h := start(t, proxytest.Config(t, path), nil, nil)
	h.Handshake()
	if got := bookAnswer(h, "position startpos", "go"); got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	replaceBook(t, path, "g1f3")
	// Within the game, the book open is the one used ...
	if got := bookAnswer(h, "position startpos", "go"); got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	// ... the next game opens the new one.
	h.Send("ucinewgame")
	if got := h.Next(); got != "notice: book "+path+" opened (1 entries): the file was replaced on disk" {
		t.Fatalf("got %q", got)
	}
	got := bookAnswer(h, "position startpos", "go")
	if got[len(got)-1] != "bestmove g1f3" {
		t.Fatalf("got %q", got)
	}
	replaceBook(t, path, "b1c3")
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
	// The book as opened has no move now: the engine answers, and the
	// book is read again.
	got := bookAnswer(h, "position startpos", "go")
	if got[len(got)-1] != "bestmove a7a6" {
		t.Fatalf("got %q", got)
	}
	said := "notice: book " + path + " opened (1 entries): the file was rewritten on disk"
	if !proxytest.HasPrefix(got, said) { // told before the engine's answer, or after
		if got := h.Next(); !strings.HasPrefix(got, said) {
			t.Fatalf("got %q", got)
		}
	}
	if got := bookAnswer(h, "position startpos", "go"); got[len(got)-1] != "bestmove g1f3" {
		t.Fatalf("got %q", got)
	}
}

// A book changed on disk is read again beside the loop: however long the
// reading takes (an ABK book is read whole, seconds on a loaded machine),
// no answer waits for it. The books open answer meanwhile, the engine
// where they have no move, and the new books once they are read.
func TestBookReadBesideTheLoop(t *testing.T) {
	path := proxytest.SmallBook(t)
	h := start(t, proxytest.Config(t, path), nil, nil)
	h.Handshake()
	var release func()
	h.Do(func() { release = sync.OnceFunc(h.Core.HoldBookReads()) })
	t.Cleanup(release)
	replaceBook(t, path, "g1f3")
	got := bookAnswer(h, "ucinewgame", "position startpos", "go")
	if got[len(got)-1] != "bestmove e2e4 ponder c7c5" || proxytest.HasPrefix(got, "notice: ") {
		t.Fatalf("while the new book is read: %q", got)
	}
	got = bookAnswer(h, "ucinewgame", "position startpos moves d2d4", "go")
	if got[len(got)-1] != "bestmove a7a6" || proxytest.HasPrefix(got, "notice: ") {
		t.Fatalf("while the new book is read, out of the book: %q", got)
	}
	release()
	if got := h.Next(); got != "notice: book "+path+" opened (1 entries): the file was replaced on disk" {
		t.Fatalf("got %q", got)
	}
	if got := bookAnswer(h, "ucinewgame", "position startpos", "go"); got[len(got)-1] != "bestmove g1f3" {
		t.Fatalf("once read: %q", got)
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
	h.Send("ucinewgame")
	if got := h.Next(); !strings.HasPrefix(got, "notice: book "+path+" not used") {
		t.Fatalf("got %q", got)
	}
	if got := bookAnswer(h, "position startpos", "go"); got[len(got)-1] != "bestmove a7a6" {
		t.Fatalf("got %q", got)
	}
	if err := os.Rename(saved, path); err != nil {
		t.Fatal(err)
	}
	h.Send("ucinewgame")
	if got := h.Next(); !strings.HasPrefix(got, "notice: book "+path+" opened (5 entries): the file is on disk now") {
		t.Fatalf("got %q", got)
	}
	if got := bookAnswer(h, "position startpos", "go"); got[len(got)-1] != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", got)
	}
	// Nothing changed: not a word.
	got := bookAnswer(h, "ucinewgame", "position startpos", "go")
	if len(got) != 2 || proxytest.HasPrefix(got, "notice: ") {
		t.Fatalf("got %q", got)
	}
}
