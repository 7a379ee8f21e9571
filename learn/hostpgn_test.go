package learn

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// describeGames writes down what the reader of a host's PGN took in: each
// game's place, name and text as read.
func describeGames(games []*hostGame) string {
	var b strings.Builder
	for _, g := range games {
		fmt.Fprintf(&b, "gen %d at %d hash %016x", g.gen, g.offset, g.hash)
		if g.game == nil {
			fmt.Fprintf(&b, " error %v\n", g.err)
			continue
		}
		fmt.Fprintf(&b, " result %q white %q black %q fen %q:", g.game.Result, g.game.Tag("White"), g.game.Tag("Black"), g.game.Tag("FEN"))
		for i := range g.game.NumMoves() {
			fmt.Fprintf(&b, " %s", g.game.Move(i))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// readHostPGN reads text written to a new file in pieces cut at cuts (a
// look after each), or at once when cuts is empty, and returns the games
// taken in.
func readHostPGN(t testing.TB, path string, text []byte, cuts []int) []*hostGame {
	h := newHostPGN(path, time.Now)
	if err := h.refresh(); err != nil { // no file yet
		t.Fatal(err)
	}
	done := 0
	for _, c := range append(cuts, len(text)) {
		if c < done || c > len(text) {
			continue
		}
		appendFile(t, path, string(text[done:c]))
		done = c
		if err := h.refresh(); err != nil {
			t.Fatal(err)
		}
	}
	return h.games
}

// The host's PGN read while it is written, a piece at a time, gives the
// games read from the whole file at once: the same places, the same texts
// (a game is taken only whole), CRLF or not, whatever the cuts.
func FuzzHostPGNPieces(f *testing.F) {
	g := func(result, moves string) string {
		return fmt.Sprintf("[Event \"?\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"%s\"]\n\n%s {comment} %s\n\n", result, moves, result)
	}
	two := g("1-0", "1. e4 e5 2. Nf3") + g("1/2-1/2", "1. d4 {+0.1/3 0.2s} d5 2. c4 (2. Nf3 Nf6) e6")
	f.Add([]byte(two), []byte{3, 40, 41, 77, 200})
	f.Add([]byte(strings.ReplaceAll(two, "\n", "\r\n")), []byte{1, 2, 3, 4, 5, 6, 100})
	f.Add([]byte("\xef\xbb\xbf"+two+"[Event \"x\"]\n1. e4 {open"), []byte{2, 90})
	f.Add([]byte(g("0-1", "1. f3 e5 2. g4 Qh4#")+"{a comment between games}\n"+g("*", "1. e4")), []byte{60, 61, 62, 120})
	f.Add([]byte("[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Kb1 1-0xyz 1-0\n\n"), []byte{52, 53, 54})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, text, cutBytes []byte) {
		if len(text) > 4096 || len(cutBytes) > 64 {
			return
		}
		sub, err := os.MkdirTemp(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(sub)
		var cuts []int
		pos := 0
		for _, c := range cutBytes {
			pos += int(c)
			cuts = append(cuts, pos)
		}
		whole := describeGames(readHostPGN(t, filepath.Join(sub, "whole.pgn"), text, nil))
		pieces := describeGames(readHostPGN(t, filepath.Join(sub, "pieces.pgn"), text, cuts))
		if whole != pieces {
			t.Fatalf("read whole:\n%s\nread in pieces at %v:\n%s", whole, cuts, pieces)
		}
	})
}

// appendFile adds text to the file at path, creating it if need be.
func appendFile(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
