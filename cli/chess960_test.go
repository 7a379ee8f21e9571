package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/book/pgn"
	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/randgames"
	"github.com/polyproxy/polyproxy/probe"
)

// replayAll reads PGN text and replays every game, which must be Chess960.
func replayAll(t *testing.T, text string) (games, plies int) {
	t.Helper()
	r := pgn.NewReader(strings.NewReader(text))
	for {
		g, err := r.Next()
		if err != nil {
			return games, plies
		}
		games++
		if !g.Chess960() {
			t.Fatalf("game %d: Variant %q", games, g.Tag("Variant"))
		}
		if err := g.Replay(func(*board.Position, board.Move) { plies++ }); err != nil {
			t.Fatalf("game %d: %v", games, err)
		}
	}
}

// TestChess960BookTools runs every book tool on a book made from Chess960
// games: make-book, info-book, probe (each castling field style, the
// inner-rook case), dump-book, book-to-pgn, book-to-openings, merge-book
// and learn -pgn.
func TestChess960BookTools(t *testing.T) {
	lichess, cutechess := randgames.WriteChess960PGN(t, 200)
	bin := filepath.Join(t.TempDir(), "960.bin")
	code, _, stderr := runCmd(t, "make-book", "-pgn", lichess, "-pgn", cutechess, "-bin", bin, "-min-game", "1")
	if code != 0 || !strings.Contains(stderr, "300 Chess960 games") {
		t.Fatalf("make-book: exit %d\n%s", code, stderr)
	}
	if code, stdout, _ := runCmd(t, "info-book", "-bin", bin); code != 0 || !strings.Contains(stdout, "variants fischerandom") {
		t.Fatalf("info-book: exit %d\n%s", code, stdout)
	}

	// probe: the start with king b1 and rooks a1/c1 (start 0 is BBQNNRKR,
	// 959 RKRNNQBB), read from X-FEN and Shredder-FEN alike.
	start := board.Chess960StartFEN(959)
	shredder := strings.Replace(start, "KQkq", "CAca", 1)
	var keys []string
	for _, fen := range []string{start, shredder} {
		code, stdout, stderr := runCmd(t, "probe", "-book", bin, "-fen", fen, "-json")
		var res probe.Result
		if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil || !res.Chess960 || len(res.Entries) == 0 {
			t.Fatalf("probe %s: exit %d\n%s%s", fen, code, stdout, stderr)
		}
		for _, e := range res.Entries {
			if !e.Legal || e.Move != e.Raw {
				t.Fatalf("probe %s: entry %+v", fen, e)
			}
		}
		keys = append(keys, res.Key)
	}
	if keys[0] != keys[1] {
		t.Fatalf("X-FEN and Shredder-FEN give keys %v", keys)
	}
	inner := "rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR4R w Cc - 0 1" // h1's rook beyond c1's
	if code, stdout, _ := runCmd(t, "probe", "-book", bin, "-fen", inner); code != 0 || !strings.Contains(stdout, "not in book: no book key") {
		t.Fatalf("probe of an inner rook's right: exit %d\n%s", code, stdout)
	}

	if code, stdout, _ := runCmd(t, "dump-book", "-bin", bin); code != 0 || strings.Count(stdout, "Chess960 start") != len(randgames.TestStarts) {
		t.Fatalf("dump-book: exit %d\n%.2000s", code, stdout)
	}
	code, stdout, _ := runCmd(t, "book-to-pgn", "-bin", bin, "-depth", "6")
	if games, plies := replayAll(t, stdout); code != 0 || games != len(randgames.TestStarts) || plies < 12 {
		t.Fatalf("book-to-pgn: exit %d, %d games, %d plies", code, games, plies)
	}
	code, stdout, _ = runCmd(t, "book-to-pgn", "-bin", bin, "-depth", "4", "-lines")
	if games, _ := replayAll(t, stdout); code != 0 || games < 20 {
		t.Fatalf("book-to-pgn -lines: exit %d, %d games", code, games)
	}
	// From the standard start, which a Chess960 book also has: Chess960's
	// tags and castling all the same.
	code, stdout, _ = runCmd(t, "book-to-pgn", "-bin", bin, "-depth", "6", "-fen", board.StartFEN)
	if games, plies := replayAll(t, stdout); code != 0 || games != 1 || plies < 3 {
		t.Fatalf("book-to-pgn -fen: exit %d, %d games, %d plies", code, games, plies)
	}
	code, stdout, _ = runCmd(t, "book-to-openings", "-bin", bin, "-ply", "4", "-format", "pgn")
	if games, plies := replayAll(t, stdout); code != 0 || games < 20 || plies != 4*games {
		t.Fatalf("book-to-openings: exit %d, %d games, %d plies", code, games, plies)
	}
	code, stdout, _ = runCmd(t, "book-to-openings", "-bin", bin, "-ply", "2")
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if _, err := board.ParseFENVariant(l, true); code != 0 || err != nil {
			t.Fatalf("book-to-openings epd: exit %d, %q: %v", code, l, err)
		}
	}

	merged := filepath.Join(t.TempDir(), "merged.bin")
	if code, _, stderr := runCmd(t, "merge-book", "-in1", bin, "-in2", bin, "-out", merged); code != 0 {
		t.Fatalf("merge-book: exit %d\n%s", code, stderr)
	}
	if code, stdout, _ := runCmd(t, "info-book", "-bin", merged); code != 0 || !strings.Contains(stdout, "variants fischerandom") {
		t.Fatalf("info-book of the merged book: exit %d\n%s", code, stdout)
	}

	code, stdout, stderr = runCmd(t, "learn", "-book", bin, "-pgn", lichess, "-player", "Alpha")
	if code != 0 || !strings.Contains(stdout, "games skipped: 0") || strings.Contains(stdout, "of Alpha: 0 ") {
		t.Fatalf("learn: exit %d\n%s%s", code, stdout, stderr)
	}
	b, err := formats.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	learned := 0
	for i := 0; i < b.Len(); i++ {
		if e := b.Entry(i); e.Key != 0 && e.Learn != 0 {
			learned++
		}
	}
	if learned == 0 {
		t.Fatal("learn wrote no learn field")
	}
}

// TestChess960BookEmptyWarned: a Chess960 book whose moves the move rules
// all left out holds only its header, and is said to be empty, made from
// the games or from their counts; -from-counts counts the Chess960 games
// as one run does.
func TestChess960BookEmptyWarned(t *testing.T) {
	lichess, _ := randgames.WriteChess960PGN(t, 20)
	dir := t.TempDir()
	counts := filepath.Join(dir, "960.counts")
	for _, args := range [][]string{
		{"make-book", "-pgn", lichess, "-bin", filepath.Join(dir, "a.bin"), "-counts", counts, "-min-game", "1000"},
		{"make-book", "-from-counts", counts, "-bin", filepath.Join(dir, "b.bin"), "-min-game", "1000"},
	} {
		code, _, stderr := runCmd(t, args...)
		if code != 0 || !strings.Contains(stderr, "the book is empty") || !strings.Contains(stderr, "20 Chess960 games") {
			t.Errorf("%v: exit %d, want a book said to be empty, of 20 Chess960 games\n%s", args, code, stderr)
		}
	}
	if !bytes.Equal(fixture.ReadFile(t, filepath.Join(dir, "a.bin")), fixture.ReadFile(t, filepath.Join(dir, "b.bin"))) {
		t.Error("the two books differ")
	}
}
