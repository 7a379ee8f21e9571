package pgn

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/lichessgames"
)

// readAllPGN reads every game, keeping syntax errors in order.
func readAllPGN(t testing.TB, text string) (games []*Game, syntax []*SyntaxError) {
	t.Helper()
	r := NewReader(strings.NewReader(text))
	for {
		g, err := r.Next()
		if err == io.EOF {
			return
		}
		var pe *SyntaxError
		if errors.As(err, &pe) {
			syntax = append(syntax, pe)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g.Clone())
	}
}

func TestPGNReaderForms(t *testing.T) {
	text := "\xef\xbb\xbf[Event \"BOM and CRLF\"]\r\n[White \"A \\\"quoted\\\" name\"]\r\n[White-Elo \"2000\"]\r\n[Result \"1-0\"]\r\n\r\n" +
		"1. e4 e5 2. Nf3 {a comment\r\nover two lines} Nc6 3.Bb5 a6 ; rest of line\r\n" +
		"% an escape line 4. Qh5\r\n" +
		"4. Ba4 $1 Nf6 5. O-O!? (5. d3 (5. Nc3 Bb4) d6) 5... Be7 6. Re1 b5!! 7. Bb3 d6 8. c3 0-0 1-0\r\n" +
		"\r\n" +
		"[Event \"no result token\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4\n" +
		"[Event \"glued numbers and tokens\"]\n[Result \"1/2-1/2\"]\n\n1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.e3 O-O 5.Bd3 d5 6.Nf3 c5 7.O-O dxc4 8.Bxc4 1/2-1/2\n" +
		"\n[Event \"empty game\"]\n[Result \"*\"]\n\n*\n" +
		"\n[Event \"null and long\"]\n\n1. e4 -- 2. e2e4 Z0 3. 0000 e5 0-1\n" +
		"\n[Event \"last\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4 Bxb4 5. c3 Ba5 6. d4 exd4 7. O-O d3 8. Qb3 Qf6 9. e5 Qg6 10. Re1 Nge7 11. Ba3 b5 12. Qxb5 Rb8 13. Qa4 Bb6 14. Nbd2 Bb7 15. Ne4 Qf5 16. Bxd3 Qh5 17. Nf6+ gxf6 18. exf6 Rg8 19. Rad1 Qxf3 20. Rxe7+ Nxe7 21. Qxd7+ Kxd7 22. Bf5+ Ke8 23. Bd7+ Kf8 24. Bxe7#"
	games, syntax := readAllPGN(t, text)
	if len(syntax) != 0 {
		t.Fatalf("syntax errors: %v", syntax)
	}
	want := []struct {
		line   int
		event  string
		result string
		moves  string
	}{
		{1, "BOM and CRLF", "1-0", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 0-0"},
		{11, "no result token", "", "d4 d5 c4"},
		{15, "glued numbers and tokens", "1/2-1/2", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5 O-O dxc4 Bxc4"},
		{20, "empty game", "*", ""},
		{25, "null and long", "0-1", "e4 -- e2e4 Z0 0000 e5"},
		{29, "last", "", "e4 e5 Nf3 Nc6 Bc4 Bc5 b4 Bxb4 c3 Ba5 d4 exd4 O-O d3 Qb3 Qf6 e5 Qg6 Re1 Nge7 Ba3 b5 Qxb5 Rb8 Qa4 Bb6 Nbd2 Bb7 Ne4 Qf5 Bxd3 Qh5 Nf6+ gxf6 exf6 Rg8 Rad1 Qxf3 Rxe7+ Nxe7 Qxd7+ Kxd7 Bf5+ Ke8 Bd7+ Kf8 Bxe7#"},
	}
	if len(games) != len(want) {
		t.Fatalf("read %d games, want %d", len(games), len(want))
	}
	for i, w := range want {
		g := games[i]
		if g.Line != w.line || g.Tag("Event") != w.event || g.Result != w.result || moves(g) != w.moves {
			t.Errorf("game %d: line %d event %q result %q moves %q; want %d %q %q %q",
				i, g.Line, g.Tag("Event"), g.Result, moves(g), w.line, w.event, w.result, w.moves)
		}
	}
	if got := games[0].Tag("White"); got != `A "quoted" name` {
		t.Errorf("escaped tag value %q", got)
	}
	if got := games[0].Tag("White-Elo"); got != "2000" {
		t.Errorf("White-Elo tag %q", got)
	}
	if got := games[0].Tag("Missing"); got != "" {
		t.Errorf("missing tag = %q", got)
	}
}

func TestPGNReaderSyntaxErrors(t *testing.T) {
	text := `[Event "ok 1"]

1. e4 e5 1-0

[Event "bad tag]
[Site "x"]

1. d4 d5 0-1

[Event "ok 2"]

1. c4 c5 (1... e5 2. Nc3)) 1/2-1/2

[Event "ok 3"]
[Result "0-1"]

1. Nf3 {unclosed comment 0-1

[Event "after an unclosed comment"]
1. e4 *
`
	games, syntax := readAllPGN(t, text)
	var events []string
	for _, g := range games {
		events = append(events, g.Tag("Event"))
	}
	if !reflect.DeepEqual(events, []string{"ok 1", "after an unclosed comment"}) {
		t.Errorf("games %q, want \"ok 1\" and the game after the unclosed comment", events)
	}
	var lines []int
	for _, e := range syntax {
		lines = append(lines, e.Line)
	}
	// The bad tag (line 5), the stray ')' (line 12), the comment opened on
	// line 17 and never closed.
	if !reflect.DeepEqual(lines, []int{5, 12, 17}) {
		t.Errorf("syntax errors at lines %v (%v), want 5 12 17", lines, syntax)
	}
}

// TestPGNReaderUnclosedComment: a '{' without '}' ends at the next game's
// tags (after an empty line) instead of swallowing the rest of the file;
// tag-like lines inside a comment that do not follow an empty line stay
// in the comment.
func TestPGNReaderUnclosedComment(t *testing.T) {
	text := "[Event \"a\"]\n\n1. e4 {oops 1-0\n\n[Event \"b\"]\n\n1. d4 {a comment\n[Event \"in the comment\"]\nstill} d5 *\n"
	games, syntax := readAllPGN(t, text)
	if len(syntax) != 1 || syntax[0].Line != 3 || syntax[0].GameLine != 1 {
		t.Errorf("syntax errors %v, want one for the comment opened on line 3", syntax)
	}
	if len(games) != 1 || games[0].Tag("Event") != "b" || moves(games[0]) != "d4 d5" || games[0].Result != "*" {
		t.Errorf("games %+v, want game b with d4 d5", games)
	}
}

func TestPGNReaderUnclosedVariation(t *testing.T) {
	text := "[Event \"a\"]\n\n1. e4 (1. d4 d5 1-0\n\n[Event \"b\"]\n\n1. c4 *\n"
	games, syntax := readAllPGN(t, text)
	if len(syntax) != 1 || syntax[0].GameLine != 1 {
		t.Errorf("syntax errors %v, want one for game a", syntax)
	}
	if len(games) != 1 || games[0].Tag("Event") != "b" || moves(games[0]) != "c4" {
		t.Errorf("games %+v, want game b", games)
	}
}

func TestPGNReaderResyncAfterBadTagWithoutBlankLines(t *testing.T) {
	text := "[Event \"a\"]\n[Bad tag]\n[Site \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n"
	games, syntax := readAllPGN(t, text)
	if len(syntax) != 1 || syntax[0].Line != 2 || syntax[0].GameLine != 1 {
		t.Fatalf("syntax errors %v, want one at line 2 of the game at line 1", syntax)
	}
	if len(games) != 1 || games[0].Tag("Event") != "b" || games[0].Line != 5 {
		t.Fatalf("games %+v, want game b at line 5", games)
	}
}

// TestPGNReaderSyntaxErrorInLastGame: skipping the broken last game must
// not read its moves as another game.
func TestPGNReaderSyntaxErrorInLastGame(t *testing.T) {
	for _, text := range []string{
		"[Result \"1-0\"]\n[Event \"x\"\n\n1. e4 e5 1-0\n",
		"[Result \"1-0\"]\n[Event \"x\"\n\n1. e4 e5 1-0",
		"1. e4 ) e5 1-0\n2. d4 *\n",
	} {
		games, syntax := readAllPGN(t, text)
		if len(games) != 0 || len(syntax) != 1 {
			t.Errorf("%q: %d games, syntax errors %v; want 0 games and 1 error", text, len(games), syntax)
		}
	}
}

func TestPGNReaderEmptyAndCommentOnly(t *testing.T) {
	for _, text := range []string{"", "\n\n", "\xef\xbb\xbf", "{just a comment}\n", "% only an escape\n; and a comment\n"} {
		games, syntax := readAllPGN(t, text)
		if len(games) != 0 || len(syntax) != 0 {
			t.Errorf("%q: %d games, %v", text, len(games), syntax)
		}
	}
}

// TestPGNReaderLongLine reads a game whose movetext is one line longer
// than the reader's buffer.
func TestPGNReaderLongLine(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("[Event \"long\"]\n\n")
	for i := 0; i < 20000; i++ {
		sb.WriteString("Nf3 Nf6 Ng1 Ng8 ")
	}
	sb.WriteString("*\n")
	games, syntax := readAllPGN(t, sb.String())
	if len(syntax) != 0 || len(games) != 1 || games[0].NumMoves() != 80000 {
		t.Fatalf("games %d, syntax %v", len(games), syntax)
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n > 0 {
		f.n--
		return copy(p, "[Event \"x\"]\n1. e4 "), nil
	}
	return 0, errors.New("disk on fire")
}

func TestPGNReaderReadError(t *testing.T) {
	r := NewReader(&failingReader{n: 1})
	_, err := r.Next()
	var pe *SyntaxError
	if err == nil || err == io.EOF || errors.As(err, &pe) {
		t.Fatalf("got %v, want the read error", err)
	}
}

// FuzzPGNReader: arbitrary bytes never panic or loop, and every game read
// ends at a line the input has.
func FuzzPGNReader(f *testing.F) {
	f.Add([]byte("[Event \"x\"]\n\n1. e4 e5 {c} (1... c5) 2. Nf3 $1 Nc6 1-0\n"))
	f.Add([]byte("\xef\xbb\xbf[A \"b\"]\r\n1.e4 *"))
	f.Add([]byte("[A \"b\n1. e4 ) ( { ; \n%x\n[B \"c\"]\n"))
	if b, err := os.ReadFile("../../testdata/pgn/forms.pgn"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := strings.Count(string(data), "\n") + 1
		r := NewReader(strings.NewReader(string(data)))
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatal("more games than bytes: the reader does not advance")
			}
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			var pe *SyntaxError
			if err != nil && !errors.As(err, &pe) {
				t.Fatal(err)
			}
			if g != nil && (g.Line < 1 || g.Line > lines) {
				t.Fatalf("game at line %d of %d", g.Line, lines)
			}
		}
	})
}

// moves is the game's main line, space-separated.
func moves(g *Game) string {
	var out []string
	for i := range g.NumMoves() {
		out = append(out, string(g.Move(i)))
	}
	return strings.Join(out, " ")
}

// TestPGNReaderMoveLimit: with MoveLimit, every game, result, tag and
// syntax error is what the reader without it gives, and the moves are the
// first MoveLimit of its; a syntax error past the limit still breaks the
// game.
func TestPGNReaderMoveLimit(t *testing.T) {
	texts := []string{
		string(lichessgames.PGN(lichessgames.Options{Seed: 5, Games: 40})),
		`[Event "late error"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 ] Nf6 1-0

[Event "late variation and comment"]

1. d4 d5 2. c4 e6 3. Nc3 (3. Nf3 Nf6 {a comment (with) a paren}) 3... Nf6 $1 4. Bg5!? Be7 1/2-1/2

[Event "late unclosed variation"]

1. c4 e5 2. Nc3 Nf6 3. g3 (3. Nf3 Nc6 *
`,
	}
	for _, text := range texts {
		for _, limit := range []int{1, 3, 5, 30} {
			got, want := readListing(text, limit, 1<<30), readListing(text, 0, limit)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("MoveLimit %d:\n got %q\nwant %q", limit, got, want)
			}
		}
	}
	if got := readListing(texts[1], 3, 1<<30); len(got) != 3 || !strings.HasPrefix(got[0], "error: PGN line 3") || !strings.HasPrefix(got[2], "error:") {
		t.Fatalf("the errors past the limit were not reported: %q", got)
	}
}

// readListing lists the games and errors a reader with MoveLimit limit
// reads from text, each game with at most show of its moves.
func readListing(text string, limit, show int) (out []string) {
	r := NewReader(strings.NewReader(text))
	r.MoveLimit = limit
	for {
		g, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			out = append(out, "error: "+err.Error())
			continue
		}
		var moves []string
		for i := range min(g.NumMoves(), show) {
			moves = append(moves, string(g.Move(i)))
		}
		out = append(out, fmt.Sprintf("%d %s %s %q", g.Line, g.Tag("Event"), g.Result, moves))
	}
}

// FuzzPGNReaderMoveLimit: on any input a reader with MoveLimit reads
// what one without it reads, moves cut at the limit.
func FuzzPGNReaderMoveLimit(f *testing.F) {
	f.Add([]byte("[Event \"x\"]\n\n1. e4 e5 {c} (1... c5) 2. Nf3 $1 Nc6 ] 1-0\n"), 2)
	f.Add([]byte("1. d4 d5 2. c4 (2. Nf3 *\n\n[A \"b\"]\n1. e4 *"), 1)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		if limit < 1 || limit > 1000 {
			return
		}
		if got, want := readListing(string(data), limit, 1<<30), readListing(string(data), 0, limit); !reflect.DeepEqual(got, want) {
			t.Fatalf("MoveLimit %d:\n got %q\nwant %q", limit, got, want)
		}
	})
}

// The message for a game too long names the limit it has.
func TestGameTooLongNamesTheLimit(t *testing.T) {
	if !strings.Contains(gameTooLong(), " "+strconv.Itoa(maxGameText)+" bytes") {
		t.Fatalf("%q does not name the limit %d", gameTooLong(), maxGameText)
	}
}
