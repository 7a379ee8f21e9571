package book

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// walkResult counts what a walk over a book's lines met.
type walkResult struct {
	positions, entries, illegal int
	firstIllegal                string
	// disagreements: entries where the board check (LegalMove, which the
	// chooser uses) and the rules library differ on legality.
	disagreements     int
	firstDisagreement string
}

// notnilMoves lists the rules library's legal moves in played form.
func notnilMoves(cp *chess.Position) []Move {
	var out []Move
	for _, m := range cp.ValidMoves() {
		out = append(out, fromChessMove(m))
	}
	return out
}

// walkBook follows the book from the start position, depth first, visiting
// each key once, and checks every entry of every reached position against
// the rules engine's legal moves. From each position it follows the book's
// moves and every legal move leading to a position the book knows (so a
// book of one colour's moves is walked too). It stops after maxPositions.
func walkBook(b *Book, maxPositions int) walkResult {
	var r walkResult
	visited := map[Key]bool{}
	var walk func(cp *chess.Position, p Position)
	walk = func(cp *chess.Position, p Position) {
		if visited[p.Key()] || r.positions >= maxPositions {
			return
		}
		visited[p.Key()] = true
		r.positions++
		var next []Move
		b.Each(p.Key(), func(_ int, e Entry) {
			if e.Move.IsNull() {
				return
			}
			r.entries++
			m := p.ToPlayed(e.Move)
			_, err := p.LegalMove(m)
			if (err == nil) != (findLegal(cp, m) != nil) {
				r.disagreements++
				if r.firstDisagreement == "" {
					r.firstDisagreement = fmt.Sprintf("%s %s: LegalMove error %v", cp, e.Move, err)
				}
			}
			if findLegal(cp, m) == nil {
				r.illegal++
				if r.firstIllegal == "" {
					r.firstIllegal = cp.String() + " " + e.Move.String()
				}
				return
			}
			next = append(next, m)
		})
		for _, m := range notnilMoves(cp) {
			if _, n := b.Lookup(p.KeyAfter(m)); n > 0 {
				next = append(next, m)
			}
		}
		for _, m := range next {
			q := p
			q.Play(m)
			walk(cp.Update(findLegal(cp, m)), q)
		}
	}
	walk(chess.StartingPosition(), *StartPosition())
	return r
}

func TestWalkRealBooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(testing.TB) *Book
	}{
		{"gnuchess", func(t testing.TB) *Book { return realBook(t, gnuchessBook) }},
		{"performance", func(t testing.TB) *Book { return sharedBook(t, "performance.bin") }},
		{"cutechess", func(t testing.TB) *Book { return sharedBook(t, "cutechess-book_small.bin") }},
		{"lasker-trap", func(t testing.TB) *Book { return sharedBook(t, "lasker-trap.bin") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.open(t)
			if err := b.Verify(); err != nil {
				t.Fatal(err)
			}
			// The whole walk takes seconds per book (gnuchess: ~150,000
			// positions); CI walks a bounded part, by hand:
			// POLYPROXY_FULL_WALK=1 go test ./book -run WalkReal -v
			limit := 1500
			if raceEnabled {
				limit = 300
			}
			if os.Getenv("POLYPROXY_FULL_WALK") != "" {
				limit = 1 << 30
			}
			r := walkBook(b, limit)
			t.Logf("%s: %d positions, %d entries reached, %d illegal", tc.name, r.positions, r.entries, r.illegal)
			if r.illegal != 0 {
				t.Errorf("%d illegal entries, first: %s", r.illegal, r.firstIllegal)
			}
			if r.disagreements != 0 {
				t.Errorf("LegalMove and the rules library disagree on %d entries, first: %s", r.disagreements, r.firstDisagreement)
			}
			if r.positions < 8 {
				t.Errorf("walk reached only %d positions", r.positions)
			}
		})
	}
}

// entriesAt lists "played weight" for the position after moves from fen.
func entriesAt(t *testing.T, b *Book, fen, moves string) ([]string, *Line) {
	t.Helper()
	l := mustLine(t, fen, moves)
	var out []string
	for _, cd := range NewChooser(DefaultOptions(), 1).Candidates(b, &l.Pos, nil) {
		if !cd.Legal {
			t.Errorf("%s %s: entry %s is illegal", fen, moves, cd.Entry.Move)
		}
		out = append(out, fmt.Sprintf("%s %d", cd.Move, cd.Entry.Weight))
	}
	return out, l
}

func sameStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

func sortedByWeight(s []string) []string {
	out := slices.Clone(s)
	slices.SortStableFunc(out, func(a, b string) int {
		var wa, wb int
		fmt.Sscan(strings.Fields(a)[1], &wa)
		fmt.Sscan(strings.Fields(b)[1], &wb)
		return wb - wa
	})
	return out
}

func TestKnownEntriesOfRealBooks(t *testing.T) {
	t.Run("gnuchess", func(t *testing.T) {
		b := realBook(t, gnuchessBook)
		if b.Len() != 180358 {
			t.Errorf("%d entries", b.Len())
		}
		got, _ := entriesAt(t, b, StartFEN, "")
		sameStrings(t, "start", sortedByWeight(got)[:4], []string{"e2e4 12135", "d2d4 11257", "g1f3 3745", "c2c4 3294"})
	})
	t.Run("performance", func(t *testing.T) {
		b := sharedBook(t, "performance.bin")
		got, l := entriesAt(t, b, "r1bqr1k1/pp1nbppp/2p2n2/3p2B1/3P4/2NBP3/PPQ1NPPP/R3K2R w KQ - 5 10", "")
		sameStrings(t, "castling position", got, []string{"e1g1 159", "e1c1 18", "h2h3 16"})
		raw := b.Entries(l.Pos.Key())
		if raw[0].Move.String() != "e1h1" || raw[1].Move.String() != "e1a1" {
			t.Errorf("stored %s %s", raw[0].Move, raw[1].Move)
		}
		s, err := b.Scan()
		if err != nil || s.Entries != 92954 || s.LearnNonZero != 88848 || s.FirstUnsorted != -1 {
			t.Errorf("scan %+v %v", s, err)
		}
	})
	t.Run("lasker-trap", func(t *testing.T) {
		b := sharedBook(t, "lasker-trap.bin")
		got, l := entriesAt(t, b, "rnbqk1nr/ppp2ppp/8/4P3/1BP5/8/PP2KpPP/RN1Q1BNR b kq - 1 7", "")
		if l.Pos.Key() != 0x5028f645a2af84bc {
			t.Errorf("key %s", l.Pos.Key())
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], "f2g1n ") {
			t.Errorf("entries %v", got)
		}
		// The same position reached by moves.
		m := mustLine(t, StartFEN, "d2d4 d7d5 c2c4 e7e5 d4e5 d5d4 e2e3 f8b4 c1d2 d4e3 d2b4 e3f2 e1e2")
		if m.Pos.Key() != 0x5028f645a2af84bc {
			t.Errorf("key by moves %s", m.Pos.Key())
		}
	})
	t.Run("cutechess", func(t *testing.T) {
		b := sharedBook(t, "cutechess-book_small.bin")
		got, _ := entriesAt(t, b, StartFEN, "")
		sameStrings(t, "start", sortedByWeight(got), []string{"d2d4 11712", "e2e4 11476", "g1f3 2824", "c2c4 2071", "g2g3 83", "b2b3 52", "f2f4 20", "b1c3 4", "b2b4 3", "c2c3 3", "d2d3 3"})
		got, _ = entriesAt(t, b, StartFEN, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6")
		sameStrings(t, "Ruy Lopez", sortedByWeight(got), []string{"e1g1 1378", "d2d3 18", "d1e2 17", "d2d4 5", "b1c3 3"})
		// Castling is stored king-to-destination only (README: 1,890 entries).
		var toDest, toRook int
		for i := 0; i < b.Len(); i++ {
			switch b.Entry(i).Move.String() {
			case "e1g1", "e1c1", "e8g8", "e8c8":
				toDest++
			case "e1h1", "e1a1", "e8h8", "e8a8":
				toRook++
			}
		}
		if toDest != 1890 || toRook != 0 {
			t.Errorf("king-to-destination %d, king-to-rook %d", toDest, toRook)
		}
	})
}
