package build

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/internal/fixture"
)

func compileText(t *testing.T, text string) ([]book.Entry, TextStats, []TextError) {
	t.Helper()
	es, st, problems, err := CompileText(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return es, st, problems
}

// TestCompileTextBookByHand: testdata/txt/small.txt, book worked out by
// hand (weight = lines playing the move there; '?' = weight 0; castling
// written e1g1 stored e1h1; the transposition d4 g6 e4 = e4 g6 d4 shares
// its continuation).
func TestCompileTextBookByHand(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixture.Testdata, "txt/small.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got, st, problems := compileText(t, string(data))
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	want := sortedHand(t, []handEntry{
		{"", "e2e4", 4}, {"", "d2d4", 1},
		{"e2e4", "e7e5", 3}, {"e2e4", "g7g6", 1},
		{"e2e4 e7e5", "g1f3", 2}, {"e2e4 e7e5", "f2f4", 0},
		{"e2e4 e7e5 g1f3", "b8c6", 2},
		{"e2e4 e7e5 g1f3 b8c6", "f1b5", 1}, {"e2e4 e7e5 g1f3 b8c6", "f1c4", 1},
		{"e2e4 e7e5 g1f3 b8c6 f1c4", "f8c5", 1},
		{"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", "e1h1", 1},
		{"e2e4 e7e5 f2f4", "e5f4", 1},
		{"d2d4", "g7g6", 1},
		{"d2d4 g7g6", "e2e4", 1},
		{"d2d4 g7g6 e2e4", "f8g7", 1},
		{"e2e4 g7g6", "d2d4", 1},
	})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("book\n%v\nwant\n%v", got, want)
	}
	if st != (TextStats{Lines: 5, Moves: 23, Entries: 16, NeverPlay: 1}) {
		t.Errorf("stats %+v", st)
	}
}

func TestCompileTextBookForms(t *testing.T) {
	// CRLF, tabs, '#' after blanks, comment glued to a move, promotions
	// (queen by default, explicit knight), 'x' mark, castling in both
	// spellings, the same move in two lines, a move repeated within a line.
	text := "\xef\xbb\xbf e2e4 e7e5\r\n\t# a comment line\r\n" +
		"a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 b8c6 b7a8(queen by default)\r\n" +
		"a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 b8c6 b7a8n\r\n" +
		"e2e4 e7e5 g1f3x b8c6 f1c4 g8f6 e1h1 f8c5\r\n" +
		"g1f3 g8f6 f3g1 f6g8 g1f3 (the same pair twice in one line counts once)\r\n"
	got, _, problems := compileText(t, text)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	find := func(after, move string) (uint16, bool) {
		e := handEntry{after, move, 0}.entry(t)
		for _, g := range got {
			if g.Key == e.Key && g.Move == e.Move {
				return g.Weight, true
			}
		}
		return 0, false
	}
	line := "a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 b8c6"
	for _, c := range []struct {
		after, move string
		weight      uint16
	}{
		{"", "e2e4", 2},
		{line, "b7a8q", 1},
		{line, "b7a8n", 1},
		{"e2e4 e7e5", "g1f3", 0},
		{"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", "e1h1", 1},
		{"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1", "f8c5", 1},
		{"", "g1f3", 1},
	} {
		if w, ok := find(c.after, c.move); !ok || w != c.weight {
			t.Errorf("after %q: %s weight %d (found %v), want %d", c.after, c.move, w, ok, c.weight)
		}
	}
	// Within a key, weight 0 comes last.
	for i := 1; i < len(got); i++ {
		if got[i].Key == got[i-1].Key && got[i].Weight > got[i-1].Weight {
			t.Errorf("entries %d, %d out of weight order", i-1, i)
		}
	}
}

// TestCompileTextBookErrors: every bad line is reported at its line and
// column, and nothing is compiled.
func TestCompileTextBookErrors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixture.Testdata, "txt/errors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	es, _, problems := compileText(t, string(data))
	if es != nil {
		t.Errorf("entries despite errors: %v", es)
	}
	var where []string
	for _, p := range problems {
		where = append(where, p.Error()[:strings.Index(p.Error(), ": ")])
	}
	want := []string{"3:11", "4:6", "5:13", "6:11", "7:41"}
	if !reflect.DeepEqual(where, want) {
		t.Errorf("errors at %v, want %v:\n%v", where, want, problems)
	}
	for i, frag := range []string{"O-O", "bad token \"Nf6\"", "illegal move", "bad token", "bad token \"b7a8r7\""} {
		if i < len(problems) && !strings.Contains(problems[i].Msg, frag) {
			t.Errorf("error %d %q lacks %q", i, problems[i].Msg, frag)
		}
	}
}

func TestCompileTextBookEmpty(t *testing.T) {
	for _, text := range []string{"", "\xef\xbb\xbf", "# only comments\n   \n(and this)\n"} {
		es, st, problems := compileText(t, text)
		if len(es) != 0 || len(problems) != 0 || st.Lines != 0 {
			t.Errorf("%q: %v %+v %v", text, es, st, problems)
		}
	}
}

func TestCompileTextBookLongLine(t *testing.T) {
	_, _, _, err := CompileText(strings.NewReader(strings.Repeat("e2e4 ", maxTextLine/4)))
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("got %v, want a line-too-long error", err)
	}
}

// FuzzCompileTextBook: arbitrary text never panics; a book compiled
// without problems is sorted and every entry is a legal move somewhere
// (checked on the first line by replaying it).
func FuzzCompileTextBook(f *testing.F) {
	f.Add("e2e4 e7e5 g1f3 b8c6 f1b5 (Spanish)\n")
	f.Add("\xef\xbb\xbf# c\n  d2d4\tg8f6 c2c4? e7e6x\r\n")
	f.Add("a2a4 b7b5 a4b5 a7a6 b5a6 c8b7 a6b7 b8c6 b7a8n\n")
	f.Add("e2e4 e7e6 e1g1\nNf3\n")
	if b, err := os.ReadFile(filepath.Join(fixture.Testdata, "txt/small.txt")); err == nil {
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, text string) {
		es, _, problems, err := CompileText(strings.NewReader(text))
		if err != nil {
			return
		}
		if len(problems) > 0 {
			if es != nil {
				t.Fatal("entries despite problems")
			}
			for _, p := range problems {
				if p.Line < 1 || p.Column < 1 {
					t.Fatalf("bad position %+v", p)
				}
			}
			return
		}
		for i := 1; i < len(es); i++ {
			if es[i].Key < es[i-1].Key {
				t.Fatal("not sorted")
			}
		}
	})
}
