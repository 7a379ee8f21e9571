package core_test

// Tests of book answers: the move, its ponder reply, and when the book
// may answer.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

func TestBookAnswer(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("position startpos", "go wtime 1000 btime 1000 winc 10 binc 10")
	got := h.Until("bestmove")
	want := []string{
		"book move e2e4 (weight 300, chance 100.0%, share 75.0%, test.bin)",
		"bestmove e2e4 ponder c7c5",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// The book answered: the engine heard nothing of it.
	for _, l := range h.Engine(0).Received() {
		if strings.HasPrefix(l, "position") || strings.HasPrefix(l, "go") {
			t.Errorf("engine got %q", l)
		}
	}
	// Book move without a reply in the book: no ponder.
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5 g1f3 b8c6", "go"); l != "bestmove f1b5" {
		t.Fatalf("got %q", l)
	}
}

func TestBookPonder(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	h.Send("position startpos", "go ponder wtime 1000 btime 1000")
	h.Quiet(50 * time.Millisecond)
	if l := h.BestmoveAfter("ponderhit"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	h.Send("position startpos", "go ponder")
	h.Quiet(30 * time.Millisecond)
	if l := h.BestmoveAfter("stop"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
	h.Send("stop", "isready")
	if l := h.Next(); l != "readyok" {
		t.Fatalf("got %q", l)
	}
}

func TestSearchMoves(t *testing.T) {
	h := start(t, proxytest.Config(t, proxytest.SmallBook(t)), nil, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos", "go searchmoves d2d4 g1f3"); l != "bestmove d2d4" {
		t.Fatalf("got %q", l)
	}
	h.Send("position startpos", "go searchmoves g1f3")
	got := h.Until("bestmove")
	if got[len(got)-1] != "bestmove a7a6" {
		t.Fatalf("book ignored searchmoves: %q", got)
	}
}

func TestBookDepth(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookDepth = 1
	h := start(t, cfg, nil, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove c7c5" {
		t.Fatalf("move 1 for Black is within depth 1: %q", l)
	}
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5", "go"); l != "bestmove a7a6" {
		t.Fatalf("move 2 is beyond depth 1: %q", l)
	}
	// The FEN's move counter counts: the start position said to be move 5.
	if l := h.BestmoveAfter("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 5", "go"); l != "bestmove a7a6" {
		t.Fatalf("move 5 is beyond depth 1: %q", l)
	}
	// A 4-field FEN is move 1.
	if l := h.BestmoveAfter("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("4-field FEN: %q", l)
	}
}

// A book that cannot be used, or only in part, is named once: the
// book's own words named it again ("book X: X: size ...").
func TestBadBookIsReportedNotFatal(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.bin")
	h := start(t, proxytest.Config(t, missing), nil, nil)
	lines := h.Handshake()
	if !slices.Contains(lines, "notice: book "+missing+" not used: no such file; playing on without it") {
		t.Fatalf("no info string: %q", lines)
	}
	odd := filepath.Join(t.TempDir(), "odd.bin")
	if err := os.WriteFile(odd, make([]byte, 20), 0o644); err != nil {
		t.Fatal(err)
	}
	if lines := start(t, proxytest.Config(t, odd), nil, nil).Handshake(); !slices.Contains(lines, "notice: book "+odd+": size 20 is not a multiple of 16: the last 4 byte(s) are ignored") {
		t.Errorf("a book of 20 bytes: %q", lines)
	}
	if !strings.Contains(h.Stderr.String(), "nope.bin") {
		t.Fatalf("stderr %q", h.Stderr.String())
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
}

// An empty book is said to be one, as a missing or garbled one is; once
// written it is read again at the next game.
func TestEmptyBookIsReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.bin")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h := start(t, proxytest.Config(t, path), nil, nil)
	lines := h.Handshake()
	if !proxytest.Contains(lines, "notice: book "+path+" has no entries: no move comes from it until it is written") {
		t.Fatalf("no info string: %q", lines)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove a7a6" {
		t.Fatalf("got %q", l)
	}
	data, err := os.ReadFile(proxytest.SmallBook(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	h.Send("ucinewgame") // the book is read again beside the loop
	if l := h.Next(); !strings.HasPrefix(l, "notice: book "+path+" opened (5 entries): the file was rewritten on disk") {
		t.Fatalf("after the book was written: %q", l)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("after the book was written: %q", l)
	}
}

func TestUnsortedBookIsReported(t *testing.T) {
	path := proxytest.SmallBook(t)
	data, _ := os.ReadFile(path)
	// Swap the first and last entries.
	n := len(data)
	first := slices.Clone(data[:16])
	copy(data[:16], data[n-16:])
	copy(data[n-16:], first)
	os.WriteFile(path, data, 0o644)
	h := start(t, proxytest.Config(t, path), nil, nil)
	lines := h.Handshake()
	if !proxytest.HasPrefix(lines, "notice: book "+path+" is not sorted") {
		l := h.Next() // the check runs in the background: it may come later
		if !strings.HasPrefix(l, "notice: book "+path+" is not sorted") {
			t.Fatalf("got %q then %q", lines, l)
		}
	}
	// Still answers exactly.
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("got %q", l)
	}
}

// The books are checked once the engine's first handshake is answered,
// not while the engine starts.
func TestBooksCheckedAfterHandshake(t *testing.T) {
	path := proxytest.SmallBook(t)
	data, _ := os.ReadFile(path)
	first := slices.Clone(data[:16])
	copy(data[:16], data[len(data)-16:])
	copy(data[len(data)-16:], first)
	os.WriteFile(path, data, 0o644)
	h := start(t, proxytest.Config(t, path), func(_ int, s *ucitest.Settings) {
		s.StartDelay = 300 * time.Millisecond
	}, nil)
	h.Send("uci") // the loop has events while the engine starts
	time.Sleep(150 * time.Millisecond)
	if strings.Contains(h.Stderr.String(), "not sorted") {
		t.Fatal("the book was checked while the engine started")
	}
	h.Until("uciok")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(h.Stderr.String(), "not sorted") {
		if time.Now().After(deadline) {
			t.Fatalf("the book was never checked: stderr %q", h.Stderr.String())
		}
		time.Sleep(time.Millisecond)
	}
}

func TestBookFilesInPriorityOrder(t *testing.T) {
	first := proxytest.WriteBook(t, []proxytest.BookEntry{{Moves: "e2e4", Move: "e7e5", Weight: 1}})
	cfg := proxytest.Config(t, first)
	cfg.BookFiles = append(cfg.BookFiles, proxytest.SmallBook(t))
	h := start(t, cfg, nil, nil)
	h.Handshake()
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder e7e5" {
		t.Fatalf("second book answers, first gives the ponder reply: %q", l)
	}
	if l := h.BestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove e7e5 ponder g1f3" {
		t.Fatalf("first book first, the reply from the second: %q", l)
	}
}
