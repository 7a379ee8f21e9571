package board

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"
)

// chess960Case is a line of testdata/chess960.txt: a Chess960 position as
// python-chess sees it (see testdata/chess960_fixture.py).
type chess960Case struct {
	xfen, shredder, key string
	inner               bool
	moves               []string
}

func readChess960Cases(t *testing.T) []chess960Case {
	t.Helper()
	f, err := os.Open("testdata/chess960.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []chess960Case
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 5 {
			t.Fatalf("testdata/chess960.txt: line %d has %d columns", len(cases)+1, len(cols))
		}
		cases = append(cases, chess960Case{cols[0], cols[1], cols[2], cols[3] == "1", strings.Fields(cols[4])})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestChess960MatchesPythonChess checks every position of the table, read
// from its X-FEN and its Shredder-FEN: the key, the X-FEN written back,
// the inner-rook verdict, the legal moves (castling king takes rook), and
// for each move the incremental key and the SAN read back.
func TestChess960MatchesPythonChess(t *testing.T) {
	cases := readChess960Cases(t)
	if len(cases) < 960 {
		t.Fatalf("only %d positions in the table", len(cases))
	}
	var castlings, inner int
	for _, c := range cases {
		for _, fen := range []string{c.xfen, c.shredder} {
			p, err := ParseFENVariant(fen, true)
			if err != nil {
				t.Fatalf("%s: %v", fen, err)
			}
			if got := p.Key().String(); got != c.key {
				t.Fatalf("%s: key %s, python-chess %s", fen, got, c.key)
			}
			// The en-passant square: python-chess writes it only when the
			// capture is legal, this package when the key counts it.
			if got, want := strings.Fields(p.FEN())[:3], strings.Fields(c.xfen)[:3]; !slices.Equal(got, want) {
				t.Fatalf("%s: FEN %s, python-chess %s", fen, p.FEN(), c.xfen)
			}
			if got, want := strings.Fields(p.ShredderFEN())[:3], strings.Fields(c.shredder)[:3]; !slices.Equal(got, want) {
				t.Fatalf("%s: Shredder-FEN %s, python-chess %s", fen, p.ShredderFEN(), c.shredder)
			}
			if p.InnerRookCastling() != c.inner {
				t.Fatalf("%s: inner rook %v, python-chess %v", fen, p.InnerRookCastling(), c.inner)
			}
			var got []string
			for _, m := range p.LegalMoves() {
				got = append(got, m.String())
			}
			slices.Sort(got)
			if !slices.Equal(got, c.moves) {
				t.Fatalf("%s: moves\n%v\npython-chess\n%v", fen, got, c.moves)
			}
		}
		if c.inner {
			inner++
		}
		p, _ := ParseFENVariant(c.xfen, true)
		for _, s := range c.moves {
			m, _ := ParseMove(s)
			if lm, err := p.LegalMove(m); err != nil || lm != m {
				t.Fatalf("%s: LegalMove(%s) = %s, %v", c.xfen, s, lm, err)
			}
			san := p.SAN(m)
			if strings.HasPrefix(san, "O-O") {
				castlings++
			}
			if back, err := ParseSAN(p, san); err != nil || back != m {
				t.Fatalf("%s: %s is %s, read back as %s (%v)", c.xfen, s, san, back, err)
			}
			q := *p
			q.Play(m)
			if q.Key() != q.ComputeKey() {
				t.Fatalf("%s after %s: incremental key %s, from scratch %s", c.xfen, s, q.Key(), q.ComputeKey())
			}
			if q.ToBook(m) != m || p.ToPlayed(m) != m {
				t.Fatalf("%s: %s changes between book and played form in Chess960", c.xfen, s)
			}
		}
	}
	t.Logf("%d positions agree with python-chess (%d with an inner rook's castling right, %d castling moves)", len(cases), inner, castlings)
	if castlings < 100 || inner < 100 {
		t.Fatalf("the table has too few castling moves (%d) or inner-rook positions (%d)", castlings, inner)
	}
}

// FuzzParseFEN960 reads FENs with any castling field as Chess960: a
// position read must write a FEN that reads back to the same position and
// key, and every legal move must play with the incremental key right.
func FuzzParseFEN960(f *testing.F) {
	f.Add("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1")
	f.Add("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1")
	f.Add("rk2r3/8/8/8/8/8/8/RK2R2R w EAe - 0 1")
	f.Add("r1k1r2r/8/8/8/8/8/8/1RK1R2R w BEkq - 0 1")
	f.Add(StartFEN)
	f.Add("4k3/8/8/8/8/8/8/4K2R w KQkqABCDEFGHabcdefgh - 0 1")
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFENVariant(fen, true)
		if err != nil {
			return
		}
		out := p.FEN()
		q, err := ParseFENVariant(out, true)
		if err != nil {
			t.Fatalf("%q wrote %q, which does not read back: %v", fen, out, err)
		}
		if q.FEN() != out || q.Key() != p.Key() || q.Castling() != p.Castling() || q.InnerRookCastling() != p.InnerRookCastling() {
			t.Fatalf("%q wrote %q, read back as %q", fen, out, q.FEN())
		}
		for i := 0; i < 4; i++ {
			a, okA := p.CastlingRook(i)
			b, okB := q.CastlingRook(i)
			if a != b || okA != okB {
				t.Fatalf("%q: right %d's rook %s, after %q %s", fen, i, a, out, b)
			}
		}
		for _, m := range p.LegalMoves() {
			r := *p
			r.Play(m)
			if r.Key() != r.ComputeKey() {
				t.Fatalf("%q after %s: incremental key %s, from scratch %s", fen, m, r.Key(), r.ComputeKey())
			}
		}
	})
}

// TestChess960StartFEN checks the numbering against python-chess's (the
// table's first 960 lines are its starts 0 to 959).
func TestChess960StartFEN(t *testing.T) {
	cases := readChess960Cases(t)
	for n := 0; n < 960; n++ {
		if got := Chess960StartFEN(n); got != cases[n].xfen {
			t.Fatalf("start %d: %s, python-chess %s", n, got, cases[n].xfen)
		}
	}
	if Chess960StartFEN(518) != StartFEN || Chess960StartFEN(960) != "" || Chess960StartFEN(-1) != "" {
		t.Fatal("518 is not the standard start, or out-of-range numbers give a FEN")
	}
}
