package board_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/notnil/chess"
	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
	"github.com/polyproxy/polyproxy/internal/testenv"
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

// walkBook follows the book from the start position, depth first, visiting
// each key once, and checks every entry of every reached position against
// the rules engine's legal moves. From each position it follows the book's
// moves and every legal move leading to a position the book knows (so a
// book of one colour's moves is walked too). It stops after maxPositions.
func walkBook(b *book.Book, maxPositions int) walkResult {
	var r walkResult
	visited := map[board.Key]bool{}
	var walk func(cp *chess.Position, p board.Position)
	walk = func(cp *chess.Position, p board.Position) {
		if visited[p.Key()] || r.positions >= maxPositions {
			return
		}
		visited[p.Key()] = true
		r.positions++
		var next []board.Move
		b.Each(p.Key(), func(_ int, e book.Entry) {
			if e.Move.IsNull() {
				return
			}
			r.entries++
			m := p.ToPlayed(e.Move)
			_, err := p.LegalMove(m)
			if (err == nil) != (board.FindLegal(cp, m) != nil) {
				r.disagreements++
				if r.firstDisagreement == "" {
					r.firstDisagreement = fmt.Sprintf("%s %s: LegalMove error %v", cp, e.Move, err)
				}
			}
			if board.FindLegal(cp, m) == nil {
				r.illegal++
				if r.firstIllegal == "" {
					r.firstIllegal = cp.String() + " " + e.Move.String()
				}
				return
			}
			next = append(next, m)
		})
		for _, m := range board.NotnilMoves(cp) {
			if len(b.Entries(p.KeyAfter(m))) > 0 {
				next = append(next, m)
			}
		}
		for _, m := range next {
			q := p
			q.Play(m)
			walk(cp.Update(board.FindLegal(cp, m)), q)
		}
	}
	walk(chess.StartingPosition(), *board.StartPosition())
	return r
}

func TestWalkRealBooks(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(testing.TB) *book.Book
	}{
		{"gnuchess", func(t testing.TB) *book.Book { return openBook(t, testenv.GnuchessBook(t)) }},
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
			if testenv.RaceEnabled {
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

func openBook(t testing.TB, path string) *book.Book {
	t.Helper()
	b, err := polyglot.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
