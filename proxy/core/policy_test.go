package core_test

// Tests of the book policies in games: a book per side, leaving the book
// after BookMaxMoves of our book moves, thin positions, short lines.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// namedBook is writeBook under a file name of its own, so that the info
// string and the log tell the books apart.
func namedBook(t *testing.T, name string, entries []proxytest.BookEntry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.Rename(proxytest.WriteBook(t, entries), path); err != nil {
		t.Fatal(err)
	}
	return path
}

// withLog turns the log on for cfg; the returned function reads it so far.
func withLog(t *testing.T, cfg *config.Config) func() string {
	cfg.Log = true
	cfg.LogFile = filepath.Join(t.TempDir(), "polyproxy.log")
	return func() string {
		data, err := os.ReadFile(cfg.LogFile)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
}

func TestBookPerSide(t *testing.T) {
	white := namedBook(t, "white.bin", []proxytest.BookEntry{{Moves: "", Move: "d2d4", Weight: 10}, {Moves: "d2d4 d7d5", Move: "c2c4", Weight: 10}})
	black := namedBook(t, "black.bin", []proxytest.BookEntry{{Moves: "e2e4", Move: "e7e5", Weight: 10}, {Moves: "d2d4", Move: "g8f6", Weight: 10}})
	cfg := proxytest.Config(t, proxytest.SmallBook(t)) // BookFile: 1.e4, and 1...c5 after it
	cfg.BookFilesWhite = []string{white}
	cfg.BookFilesBlack = []string{black}
	log := withLog(t, cfg)
	h := start(t, cfg, nil, nil)
	h.Handshake()
	// White to move: the white book, its ponder reply from the black book.
	h.Send("position startpos", "go")
	got := h.Until("bestmove")
	if !proxytest.Contains(got, "book move d2d4 (weight 10, chance 100.0%, share 100.0%, white.bin)") || got[len(got)-1] != "bestmove d2d4 ponder g8f6" {
		t.Fatalf("White: %q", got)
	}
	// Black to move: the black book, not BookFile's c7c5.
	h.Send("position startpos moves e2e4", "go")
	if got := h.Until("bestmove"); !proxytest.Contains(got, "book move e7e5 (weight 10, chance 100.0%, share 100.0%, black.bin)") || got[len(got)-1] != "bestmove e7e5" {
		t.Fatalf("Black: %q", got)
	}
	// The white book has no move here: the engine, not BookFile.
	if l := h.BestmoveAfter("position startpos moves e2e4 e7e5", "go"); l != "bestmove a7a6" {
		t.Fatalf("out of the white book: %q", l)
	}
	if l := h.BestmoveAfter("position startpos moves d2d4 d7d5", "go"); l != "bestmove c2c4" {
		t.Fatalf("White's second move: %q", l)
	}
	// Without a black book, Black's positions use BookFile again.
	h.Send("setoption name Polyglot BookFileBlack value <empty>")
	if l := h.BestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove c7c5" {
		t.Fatalf("BookFile for Black: %q", l)
	}
	h.Send("setoption name Polyglot BookFileWhite value " + cfg.BookFiles[0])
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("BookFileWhite set at run time: %q", l)
	}
	h.Send("isready")
	h.Until("readyok")
	for _, want := range []string{
		"book (BookFileWhite): " + white + ": d2d4 chosen",
		"book (BookFileBlack): " + black + ": e7e5 chosen",
		"book (BookFileWhite): no (" + white + ": not in book)",
		"book (BookFile): " + cfg.BookFiles[0] + ": c7c5 chosen",
	} {
		if !strings.Contains(log(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// Both sides with books of their own: BookFile is not even opened (a
// missing default book.bin is no error), and a side whose books all fail
// has no book rather than another side's.
func TestBookPerSideReplacesBookFile(t *testing.T) {
	cfg := proxytest.Config(t, filepath.Join(t.TempDir(), "book.bin")) // missing
	cfg.BookFilesWhite = []string{proxytest.SmallBook(t)}
	cfg.BookFilesBlack = []string{filepath.Join(t.TempDir(), "missing.bin")}
	h := start(t, cfg, nil, nil)
	lines := h.Handshake()
	if proxytest.HasPrefix(lines, "notice: book "+cfg.BookFiles[0]) {
		t.Errorf("BookFile opened though both sides have their own: %q", lines)
	}
	if !proxytest.HasPrefix(lines, "notice: book "+cfg.BookFilesBlack[0]+" not used") {
		t.Errorf("missing black book not reported: %q", lines)
	}
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4" {
		t.Fatalf("White: %q", l)
	}
	if l := h.BestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove a7a6" {
		t.Fatalf("Black has no usable book: %q", l)
	}
}

// A long line for both sides: e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7.
var longLine = strings.Fields("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7")

func lineBook(t testing.TB) string {
	var es []proxytest.BookEntry
	for i, m := range longLine {
		es = append(es, proxytest.BookEntry{Moves: strings.Join(longLine[:i], " "), Move: m, Weight: 10})
	}
	return proxytest.WriteBook(t, es)
}

// position is the position command after the first n plies of moves.
func position(moves []string, n int) string {
	if n == 0 {
		return "position startpos"
	}
	return "position startpos moves " + strings.Join(moves[:n], " ")
}

func TestBookMaxMoves(t *testing.T) {
	cfg := proxytest.Config(t, lineBook(t))
	cfg.BookMaxMoves = 2
	log := withLog(t, cfg)
	h := start(t, cfg, nil, nil)
	h.Handshake()
	play := func(ply int) string {
		h.T.Helper()
		l := h.BestmoveAfter(position(longLine, ply), "go")
		return strings.Fields(l)[1]
	}
	for i, tc := range []struct {
		ply  int
		want string
	}{
		{0, "e2e4"},
		{0, "e2e4"}, // the same position asked again: still one book move
		{2, "g1f3"},
		{3, "a7a6"}, // two book moves of ours in the game: the engine
		{2, "g1f3"}, // Nf3 taken back (the game goes on from ply 2): one again
		{4, "a7a6"},
	} {
		if got := play(tc.ply); got != tc.want {
			t.Fatalf("step %d, ply %d: %s, want %s", i+1, tc.ply, got, tc.want)
		}
	}
	// A new game: the book again, as Black too (its own count).
	h.Send("ucinewgame")
	for i, w := range []string{"e7e5", "b8c6", "a7a6"} {
		if got := play(2*i + 1); got != w {
			t.Fatalf("Black's move %d: %s, want %s", i+1, got, w)
		}
	}
	// A position that does not continue the game starts a new one, even
	// without ucinewgame.
	if got := play(0); got != "e2e4" {
		t.Fatalf("new game without ucinewgame: %s", got)
	}
	h.Send("isready")
	h.Until("readyok")
	if !strings.Contains(log(), "book: no (BookMaxMoves reached (2 book moves of ours in this game, at most 2))") {
		t.Errorf("log lacks the reason:\n%s", log())
	}
}

// A take-back of two plies or more, or a jump back to any earlier move,
// continues the game: the book moves of ours still in the line count, and
// those taken back do not.
func TestBookMaxMovesAfterTakeBack(t *testing.T) {
	cfg := proxytest.Config(t, lineBook(t))
	cfg.BookMaxMoves = 2
	h := start(t, cfg, func(_ int, s *ucitest.Settings) { s.BestMove = "h7h6" }, nil)
	h.Handshake()
	from := func(ply int) string {
		h.T.Helper()
		if l := h.BestmoveAfter(position(longLine, ply), "go movetime 50"); l != "bestmove h7h6" {
			return "book"
		}
		return "engine"
	}
	for _, side := range []struct {
		name  string
		steps []int // the plies asked, in order
		want  string
	}{
		// Black, as in a GUI's take-back of two plies: 1...e5 2...Nc6,
		// then the engine; back to move 2 the book plays Nc6 again (one
		// book move before it), and move 3 is still the engine's.
		{"Black", []int{1, 3, 5, 3, 5, 7}, "book book engine book engine engine"},
		// White, with a jump of four plies back and the same line again.
		{"White", []int{0, 2, 4, 6, 2, 2, 4, 6, 0, 2, 4}, "book book engine engine book book engine engine book book engine"},
	} {
		h.Send("ucinewgame")
		var got []string
		for _, ply := range side.steps {
			got = append(got, from(ply))
		}
		if strings.Join(got, " ") != side.want {
			t.Errorf("%s at plies %v: %s, want %s", side.name, side.steps, strings.Join(got, " "), side.want)
		}
	}
}

// A line with an illegal move is not followed, but the game goes on: the
// next good line that continues it keeps its book moves.
func TestBookMaxMovesAfterABadLine(t *testing.T) {
	cfg := proxytest.Config(t, lineBook(t))
	cfg.BookMaxMoves = 1
	h := start(t, cfg, func(_ int, s *ucitest.Settings) { s.BestMove = "h7h6" }, nil)
	h.Handshake()
	h.Send("ucinewgame")
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder e7e5" {
		t.Fatalf("got %q", l)
	}
	h.Send("position startpos moves e2e4 e7e5 e1e8", "go")
	got := h.Until("bestmove")
	if !proxytest.HasPrefix(got, "notice: position not followed") || got[len(got)-1] != "bestmove h7h6" {
		t.Fatalf("the bad line: %q", got)
	}
	if l := h.BestmoveAfter(position(longLine, 2), "go"); l != "bestmove h7h6" {
		t.Fatalf("a second book move of ours at BookMaxMoves 1: %q", l)
	}
}

func TestBookMinWeight(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t)) // the start: 300 + 100; after 1.e4: 50
	cfg.BookMinWeight = 60
	log := withLog(t, cfg)
	h := start(t, cfg, nil, nil)
	h.Handshake()
	// The ponder move is a prediction, not a book move of ours: a thin
	// position still gives it.
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove e2e4 ponder c7c5" {
		t.Fatalf("start: %q", l)
	}
	if l := h.BestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove a7a6" {
		t.Fatalf("thin position answered: %q", l)
	}
	h.Send("setoption name Polyglot BookMinWeight value 50")
	if l := h.BestmoveAfter("position startpos moves e2e4", "go"); l != "bestmove c7c5" {
		t.Fatalf("at the limit: %q", l)
	}
	if !strings.Contains(log(), "thin position (weight 50 < BookMinWeight 60)") {
		t.Errorf("log lacks the reason:\n%s", log())
	}
}

func TestBookWidthInGame(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.SmallBook(t))
	cfg.BookMode = 0 // weighted: e2e4 300, d2d4 100
	cfg.BookWidth = 1
	h := start(t, cfg, nil, nil)
	h.Handshake()
	for range 20 {
		if l := h.BestmoveAfter("position startpos", "go"); !strings.HasPrefix(l, "bestmove e2e4") {
			t.Fatalf("width 1 played %q", l)
		}
	}
}

func TestBookMinLine(t *testing.T) {
	cfg := proxytest.Config(t, lineBook(t))
	cfg.BookMinLine = 3
	log := withLog(t, cfg)
	h := start(t, cfg, nil, nil)
	h.Handshake()
	// 10 plies of book: a move is played while 3 more follow it, so up to
	// ply 6 (Ba4, then Nf6 O-O Be7).
	for ply := range 7 {
		if l := h.BestmoveAfter(position(longLine, ply), "go"); !strings.HasPrefix(l, "bestmove "+longLine[ply]) {
			t.Fatalf("ply %d: %q", ply, l)
		}
	}
	if l := h.BestmoveAfter(position(longLine, 7), "go"); l != "bestmove a7a6" {
		t.Fatalf("ply 7, two plies before the end: %q", l)
	}
	h.Send("isready")
	h.Until("readyok")
	if !strings.Contains(log(), "short line: the book goes on 2 plies after g8f6, BookMinLine 3") {
		t.Errorf("log lacks the reason:\n%s", log())
	}
}

// A book that goes round in circles (the knights out and home again): the
// line ends where it would repeat a position of the game.
func TestBookMinLineCycle(t *testing.T) {
	cfg := proxytest.Config(t, proxytest.WriteBook(t, []proxytest.BookEntry{
		{Moves: "", Move: "g1f3", Weight: 10}, {Moves: "g1f3", Move: "g8f6", Weight: 10}, {Moves: "g1f3 g8f6", Move: "f3g1", Weight: 10}, {Moves: "g1f3 g8f6 f3g1", Move: "f6g8", Weight: 10},
	}))
	cfg.BookMinLine = 2
	h := start(t, cfg, nil, nil)
	h.Handshake()
	// After Nf3: Nf6 Ng1, then Ng8 would be the start again: 2 plies.
	if l := h.BestmoveAfter("position startpos", "go"); l != "bestmove g1f3 ponder g8f6" {
		t.Fatalf("start: %q", l)
	}
	// After Ng1 only Ng8 follows, and it repeats the start: 0 plies.
	if l := h.BestmoveAfter("position startpos moves g1f3 g8f6", "go"); l != "bestmove a7a6" {
		t.Fatalf("the cycle: %q", l)
	}
	// The second time round the game holds more positions: Nf3 now ends
	// at once (Nf6 is a position of the game).
	if l := h.BestmoveAfter("position startpos moves g1f3 g8f6 f3g1 f6g8", "go"); l != "bestmove a7a6" {
		t.Fatalf("round again: %q", l)
	}
}
