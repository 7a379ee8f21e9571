package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestBookToPGNRoundTrip: book → book-to-pgn -lines → make-book gives
// the same moves (the book of random.pgn, every position reachable).
func TestBookToPGNRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := randomBook(t)
	lines := filepath.Join(dir, "lines.pgn")
	if code, _, stderr := runCmd(t, "book-to-pgn", "-bin", src, "-depth", "0", "-lines", "-out", lines); code != 0 || !strings.Contains(stderr, "lines") {
		t.Fatalf("book-to-pgn -lines: exit %d\n%s", code, stderr)
	}
	back := filepath.Join(dir, "back.bin")
	ourMakeBook(t, lines, back, "-min-game", "1")
	moves := func(path string) map[string]bool {
		b := fixture.OpenPath(t, path)
		m := map[string]bool{}
		for i := range b.Len() {
			if e := b.Entry(i); e.Weight > 0 {
				m[e.Key.String()+" "+e.Move.String()] = true
			}
		}
		return m
	}
	orig, got := moves(src), moves(back)
	// make-book keeps winning and drawn moves only: each of those the
	// source has must come back, and nothing else.
	for m := range got {
		if !orig[m] {
			t.Errorf("%s came back but is not in the book", m)
		}
	}
	if len(got) < len(orig)/2 {
		t.Errorf("%d of %d moves came back", len(got), len(orig))
	}

	// The tree as one game on stdout.
	code, stdout, stderr := runCmd(t, "book-to-pgn", "-bin", src, "-depth", "6", "-min-share", "5")
	if code != 0 || !strings.HasPrefix(stdout, "[Event \"Book tree of random.bin\"]") || !strings.Contains(stdout, "(") || !strings.Contains(stderr, "moves from") {
		t.Errorf("book-to-pgn: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, bad := range [][]string{
		{"book-to-pgn"},
		{"book-to-pgn", "-bin", src, "-depth", "-1"},
		{"book-to-pgn", "-bin", src, "-fen", "x"},
		{"book-to-pgn", "-bin", filepath.Join(dir, "missing.bin")},
	} {
		if code, _, _ := runCmd(t, bad...); code == 0 {
			t.Errorf("%v: exit 0", bad)
		}
	}
}

// TestBookToOpenings: EPD and PGN suites, each position once, readable
// back; -ply and -min-line-share; a start FEN.
func TestBookToOpenings(t *testing.T) {
	src := randomBook(t)
	code, epd, stderr := runCmd(t, "book-to-openings", "-bin", src, "-ply", "3")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(epd), "\n") {
		if len(strings.Fields(l)) != 4 || seen[l] {
			t.Errorf("EPD line %q: not 4 fields, or twice", l)
		}
		seen[l] = true
		p, err := board.ParseFEN(l + " 0 1")
		if err != nil || p.WhiteToMove() { // 3 plies: Black to move
			t.Errorf("EPD %q: %v", l, err)
		}
	}
	code, games, _ := runCmd(t, "book-to-openings", "-bin", src, "-ply", "3", "-format", "pgn")
	if code != 0 || strings.Count(games, "[Event ") != len(seen) {
		t.Errorf("PGN: exit %d, %d games for %d positions", code, strings.Count(games, "[Event "), len(seen))
	}
	// The PGN games lead to the EPD positions.
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.pgn")
	os.WriteFile(path, []byte(games), 0o644)
	ourMakeBook(t, path, filepath.Join(dir, "s.bin"), "-min-game", "1")
	code, leaves, _ := runCmd(t, "book-to-openings", "-bin", src, "-min-line-share", "2")
	if code != 0 || leaves == "" {
		t.Errorf("leaves: exit %d", code)
	}
	after := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	code, _, stderr = runCmd(t, "book-to-openings", "-bin", src, "-ply", "1", "-fen", after)
	if code != 0 && !strings.Contains(stderr, "no position") {
		t.Errorf("-fen: exit %d %s", code, stderr)
	}
	for _, bad := range [][]string{
		{"book-to-openings", "-bin", src, "-format", "txt"},
		{"book-to-openings", "-bin", src, "-ply", "2", "-min-line-share", "5"},
		{"book-to-openings", "-bin", src, "-ply", "200"},
	} {
		if code, _, _ := runCmd(t, bad...); code == 0 {
			t.Errorf("%v: exit 0", bad)
		}
	}
}

// TestBookToOpeningsEngineWindow scores positions with the real
// Stockfish: a window as wide as the board keeps every position, one no
// opening reaches keeps none.
func TestBookToOpeningsEngineWindow(t *testing.T) {
	sf := testenv.Stockfish(t)
	src := randomBook(t)
	_, all, _ := runCmd(t, "book-to-openings", "-bin", src, "-ply", "1")
	n := strings.Count(all, "\n")
	code, kept, stderr := runCmd(t, "book-to-openings", "-bin", src, "-ply", "1", "-engine", sf, "-movetime", "20", "-min-cp", "-3000", "-max-cp", "3000")
	if code != 0 || kept != all || !strings.Contains(stderr, "0 outside") {
		t.Errorf("wide window: exit %d, kept %d of %d\n%s", code, strings.Count(kept, "\n"), n, stderr)
	}
	code, _, stderr = runCmd(t, "book-to-openings", "-bin", src, "-ply", "1", "-engine", sf, "-movetime", "20", "-min-cp", "2000", "-max-cp", "3000")
	if code == 0 || !strings.Contains(stderr, "no position") {
		t.Errorf("window no opening reaches: exit %d\n%s", code, stderr)
	}
	if code, _, _ := runCmd(t, "book-to-openings", "-bin", src, "-ply", "1", "-engine", filepath.Join(t.TempDir(), "none")); code == 0 {
		t.Error("a missing engine: exit 0")
	}
}

// TestBookToOpeningsPlyZero: -ply 0 ran in leaves mode as if -ply were
// not given; an empty result without -engine spoke of the engine's
// window.
func TestBookToOpeningsPlyZero(t *testing.T) {
	src := randomBook(t)
	code, out, stderr := runCmd(t, "book-to-openings", "-bin", src, "-ply", "0")
	if code != 2 || out != "" || !strings.Contains(stderr, "-ply") {
		t.Errorf("-ply 0: exit %d, %d bytes out, want a usage error naming -ply\n%s", code, len(out), firstLine(stderr))
	}
	code, _, stderr = runCmd(t, "book-to-openings", "-bin", src, "-ply", "200")
	if code != 1 || !strings.Contains(stderr, "no position") || strings.Contains(stderr, "engine") {
		t.Errorf("-ply 200 without -engine: exit %d, want \"no position\" and no word of an engine\n%s", code, stderr)
	}
}
