package board

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitMoves(t *testing.T) {
	for text, want := range map[string][]string{
		"e4 e5 Nf3":                        {"e4", "e5", "Nf3"},
		"1.e4 e5 2.Nf3":                    {"e4", "e5", "Nf3"},
		"1. e4 e5 2. Nf3 Nc6 *":            {"e4", "e5", "Nf3", "Nc6"},
		"1... e5 2.Nf3":                    {"e5", "Nf3"},
		"12...Nc6 13.O-O 1-0":              {"Nc6", "O-O"},
		"e2e4,e7e5, g1f3":                  {"e2e4", "e7e5", "g1f3"},
		"1.e4 {best by test} e5 $1 2.Nf3!": {"e4", "e5", "Nf3!"},
		"1.e4 {a comment\nover lines} e5":  {"e4", "e5"},
		"1.e4{x}e5 1/2-1/2":                {"e4", "e5"},
		"exd6e.p.":                         {"exd6e.p."},
		"":                                 nil,
		" \t\n":                            nil,
	} {
		if got := SplitMoves(text); !slices.Equal(got, want) {
			t.Errorf("SplitMoves(%q) = %q, want %q", text, got, want)
		}
	}
}

// The same line in every way a user writes it plays to the same
// position; a bad move is named with its number and why, and the moves
// before it are played.
func TestPlayText(t *testing.T) {
	want := mustLine(t, "", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1").Pos.FEN()
	for _, text := range []string{
		"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1",
		"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1",
		"e4 e5 Nf3 Nc6 Bc4 Nf6 O-O",
		"1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.O-O",
		"1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. 0-0",
		"e4,e5,g1f3,Nc6,Bc4,g8f6,O-O",
		"e2-e4 e7-e5 Ng1-f3 Nb8-c6 Bf1-c4 Ng8-f6 O-O",
	} {
		l := mustLine(t, "", "")
		moves, err := l.PlayText(text)
		if err != nil || len(moves) != 7 || l.Pos.FEN() != want {
			t.Errorf("%q: %d moves, %v, %s", text, len(moves), err, l.Pos.FEN())
		}
	}
	for _, tc := range []struct{ text, err string }{
		{"e4 e5 Ke3", "move 3 (Ke3): not a legal move here"},
		{"e2e4 e7e5 e4e5", "move 3 (e4e5): not a legal move here"},
		{"e4 zz", "move 2 (zz): not a move (UCI such as e2e4, or SAN such as e4, Nf3, O-O)"},
		{"e4 e5 --", "move 3 (--): a null move"},
		{"1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.O-O Bc5 5.O-O", "move 9 (O-O): not a legal move here"},
	} {
		l := mustLine(t, "", "")
		moves, err := l.PlayText(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.err)
		}
		if len(moves) != len(l.Keys)-1 || len(moves) == 0 {
			t.Errorf("%q: %d moves returned, %d played", tc.text, len(moves), len(l.Keys)-1)
		}
	}
	// Two knights reach d2: Nd2 names neither.
	l := mustLine(t, "", "e2e4 e7e5 g1f3 b8c6 d2d3 g8f6")
	if _, err := l.PlayText("Nd2"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("Nd2 with two knights: %v", err)
	}
	if _, err := l.PlayText("Nbd2"); err != nil {
		t.Errorf("Nbd2: %v", err)
	}
}

// SAN and UCI give the same move, as played, in Chess960 too, where
// castling in UCI is king takes rook.
func TestReadMoveChess960(t *testing.T) {
	p, err := ParseFENVariant("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", true)
	if err != nil {
		t.Fatal(err)
	}
	// The king on f1 castles with the rook beside it on g1: f1g1 in UCI.
	l := &Line{Pos: *p, Keys: []Key{p.Key()}}
	if _, err := l.PlayText("g2g4 g7g5"); err != nil {
		t.Fatal(err)
	}
	m1, err1 := l.Pos.ReadMove("O-O")
	m2, err2 := l.Pos.ReadMove("f1g1")
	if err1 != nil || err2 != nil || m1 != m2 {
		t.Errorf("O-O = %v %v, f1g1 = %v %v", m1, err1, m2, err2)
	}
}

// FuzzPlayText: whatever is typed, the moves returned are the ones the
// line played, legal, and replay to the same position.
func FuzzPlayText(f *testing.F) {
	for _, s := range []string{"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.O-O", "e2e4,e7e5", "1...e5 {x} $2 *", "e4 e5 Ke3", "exd6e.p.", "{", "1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l := mustLine(t, "", "")
		moves, _ := l.PlayText(text)
		if len(moves) != len(l.Keys)-1 {
			t.Fatalf("%d moves returned, %d played", len(moves), len(l.Keys)-1)
		}
		r := mustLine(t, "", "")
		for _, m := range moves {
			if _, err := r.Play(m); err != nil {
				t.Fatalf("%s does not replay: %v", m, err)
			}
		}
		if r.Pos.FEN() != l.Pos.FEN() {
			t.Fatalf("replayed to %s, played to %s", r.Pos.FEN(), l.Pos.FEN())
		}
	})
}
