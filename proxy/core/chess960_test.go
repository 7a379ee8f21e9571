package core_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
)

// chess960Position has both castlings legal at once: king b1, rooks a1
// and h1 (and the same for Black).
const chess960Position = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"

// chess960Book is the small book plus castling in a standard line and
// king-takes-rook castling at chess960Position.
func chess960Book(t *testing.T) string {
	t.Helper()
	path := proxytest.WriteBook(t, []proxytest.BookEntry{
		{Moves: "", Move: "e2e4", Weight: 300}, {Moves: "", Move: "d2d4", Weight: 100},
		{Moves: "e2e4", Move: "c7c5", Weight: 50},
		{Moves: "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", Move: "e1g1", Weight: 10},
		{Moves: "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6", Move: "d2d3", Weight: 10},
	})
	b, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var es []book.Entry
	for i := 0; i < b.Len(); i++ {
		es = append(es, b.Entry(i))
	}
	b.Close()
	p, err := board.ParseFENVariant(chess960Position, true)
	if err != nil {
		t.Fatal(err)
	}
	long, _ := board.ParseMove("b1a1")
	short, _ := board.ParseMove("b1h1")
	es = append(es, book.Entry{Key: p.Key(), Move: long, Weight: 20}, book.Entry{Key: p.Key(), Move: short, Weight: 5})
	slices.SortStableFunc(es, book.CompareEntries)
	path = filepath.Join(t.TempDir(), "960.bin")
	if err := polyglot.WriteFile(path, es); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestChess960BookAnswers: with UCI_Chess960 on, a standard book answers
// at the start; castling is answered and read as king takes rook; a
// Shredder-FEN is read and the engine gets it as X-FEN; with it off again
// castling is the king's two-square move.
func TestChess960BookAnswers(t *testing.T) {
	h := start(t, proxytest.Config(t, chess960Book(t)), nil, nil)
	h.Handshake()
	h.Send("setoption name UCI_Chess960 value true")
	if l := h.Next(); l != "notice: UCI_Chess960 is on: positions and book moves in Chess960 notation (castling king takes rook) from the next position" {
		t.Fatalf("got %q", l)
	}
	const italian = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"
	for _, tc := range []struct{ lines, want string }{
		{"position startpos", "bestmove e2e4 ponder c7c5"},
		{italian, "bestmove e1h1"},
		{italian + " e1h1 g8f6", "bestmove d2d3"},
		{"position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", "bestmove b1a1"},
		{"position fen " + chess960Position, "bestmove b1a1"},
		{"position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w AHah -", "bestmove b1a1"},
	} {
		if l := h.BestmoveAfter(tc.lines, "go"); l != tc.want {
			t.Fatalf("%s: %q, want %q", tc.lines, l, tc.want)
		}
	}
	// Out of book: the engine gets the position with an X-FEN castling field.
	if l := h.BestmoveAfter("position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1 moves a2a3", "go"); l != "bestmove a7a6" {
		t.Fatalf("out of book: %q", l)
	}
	if !proxytest.Contains(h.Engine(0).Received(), "position fen "+chess960Position+" moves a2a3") {
		t.Fatalf("the engine did not get the X-FEN: %q", h.Engine(0).Received())
	}
	h.Send("setoption name UCI_Chess960 value false")
	if l := h.Next(); l != "notice: UCI_Chess960 is off: standard chess from the next position" {
		t.Fatalf("got %q", l)
	}
	if l := h.BestmoveAfter(italian, "go"); l != "bestmove e1g1" {
		t.Fatalf("standard chess again: %q", l)
	}
	if l := h.BestmoveAfter(italian+" e1g1 g8f6", "go"); l != "bestmove d2d3" {
		t.Fatalf("standard chess again: %q", l)
	}
}

// In Chess960 the warm engine searches the position after a king-takes-
// rook book move, given to it as played, and BookDepth ends the book as in
// standard games.
func TestChess960WarmEngineAndBookDepth(t *testing.T) {
	cfg := proxytest.Config(t, chess960Book(t))
	cfg.BookPonder, cfg.BookPonderAlways = true, true
	h := start(t, cfg, nil, nil)
	h.Handshake()
	h.Send("setoption name UCI_Chess960 value true")
	h.Next()
	const fen = "position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"
	if l := h.BestmoveAfter(fen, "go wtime 1000 btime 1000"); l != "bestmove b1a1" {
		t.Fatalf("got %q", l)
	}
	waitSent(h, 0, "position fen "+chess960Position+" moves b1a1", "go infinite")
	h.Send("setoption name Polyglot BookDepth value 1")
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", "go"); l != "bestmove a7a6" {
		t.Fatalf("beyond BookDepth: %q", l)
	}
}
