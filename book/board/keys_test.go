package board

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// playRandomGames plays seeded random legal games and calls check after
// every ply with the book position (kept incrementally) and the rules
// engine's position. Each game stops at mate/stalemate or maxPlies.
func playRandomGames(t *testing.T, seed uint64, games, maxPlies int, check func(p *Position, cp *chess.Position, m *chess.Move)) (plies int, seen map[string]int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	seen = map[string]int{}
	for g := 0; g < games; g++ {
		cp := chess.StartingPosition()
		p := fromChess(t, cp)
		for ply := 0; ply < maxPlies; ply++ {
			moves := cp.ValidMoves()
			if len(moves) == 0 {
				break
			}
			// Prefer the rare kinds of move so every game exercises them.
			var special []*chess.Move
			for _, m := range moves {
				if m.HasTag(chess.KingSideCastle) || m.HasTag(chess.QueenSideCastle) || m.HasTag(chess.EnPassant) ||
					m.Promo() != chess.NoPieceType || (m.HasTag(chess.Capture) && cp.Board().Piece(m.S2()).Type() == chess.Rook) {
					special = append(special, m)
				}
			}
			m := moves[rng.IntN(len(moves))]
			if len(special) > 0 && rng.IntN(2) == 0 {
				m = special[rng.IntN(len(special))]
			}
			switch {
			case m.HasTag(chess.KingSideCastle), m.HasTag(chess.QueenSideCastle):
				seen["castle"]++
			case m.HasTag(chess.EnPassant):
				seen["en passant"]++
			case m.Promo() == chess.Queen:
				seen["promotion"]++
			case m.Promo() != chess.NoPieceType:
				seen["underpromotion"]++
			}
			if s := m.S2(); cp.Board().Piece(s).Type() == chess.Rook && (s == chess.A1 || s == chess.H1 || s == chess.A8 || s == chess.H8) {
				seen["rook captured at home"]++
			}
			p.Play(fromChessMove(m))
			cp = cp.Update(m)
			plies++
			check(p, cp, m)
		}
	}
	return plies, seen
}

func TestKeysOverRandomGames(t *testing.T) {
	plies, seen := playRandomGames(t, 7, 20, 300, func(p *Position, cp *chess.Position, m *chess.Move) {
		inc, scratch, conv := p.Key(), p.ComputeKey(), fromChess(t, cp).Key()
		if inc != scratch || inc != conv {
			t.Fatalf("after %s (%s): incremental %s, from scratch %s, from notnil %s", m, cp, inc, scratch, conv)
		}
	})
	t.Logf("%d plies, %v", plies, seen)
	if plies < 4000 {
		t.Errorf("only %d plies", plies)
	}
	for _, kind := range []string{"castle", "en passant", "promotion", "underpromotion", "rook captured at home"} {
		if seen[kind] == 0 {
			t.Errorf("random games never played a %s", kind)
		}
	}
}

// A FEN's en-passant field counts only when a pawn of the side to move
// stands beside the pushed pawn; a pinned one still counts.
func TestEnPassantKeyRule(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		file      int
	}{
		{"after 1.e4, nobody beside", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", -1},
		{"black pawn beside", "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 4},
		{"white pawn beside on the left", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 5},
		{"own pawn beside does not count", "rnbqkbnr/pppp1ppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq e3 0 1", -1},
		{"pinned pawn still counts", "4k3/8/8/8/1b1pP3/8/8/5RK1 b - e3 0 1", 4},
		{"pinned against the king on the rank", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", 3},
		{"ep square without the pushed pawn", "4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1", -1},
	} {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := p.EnPassantFile(); got != tc.file {
			t.Errorf("%s: en-passant file %d, want %d", tc.name, got, tc.file)
		}
		if p.Key() != p.ComputeKey() {
			t.Errorf("%s: key mismatch", tc.name)
		}
	}
	// The usual FEN after 1.e4 and the position reached by the move agree.
	p, _ := ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	if p.Key() != 0x823c9b50fd114196 {
		t.Errorf("1.e4 FEN key %s", p.Key())
	}
}

func TestKeyAfterLeavesPositionAlone(t *testing.T) {
	p := StartPosition()
	before := *p
	e4, _ := ParseMove("e2e4")
	if got := p.KeyAfter(e4); got != 0x823c9b50fd114196 {
		t.Errorf("KeyAfter(e2e4) = %s", got)
	}
	if *p != before {
		t.Error("KeyAfter changed the position")
	}
}

// Play must never panic, whatever move code it is given, and keep the
// incremental key equal to the key from scratch, and the kings' squares
// equal to where the board has them (a king captured by an illegal move
// included).
func TestPlayAnyMoveCode(t *testing.T) {
	fens := []string{StartFEN, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1"}
	for _, fen := range fens {
		p0, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		for code := 0; code < 1<<15; code++ {
			p := *p0
			p.Play(Move(code))
			if p.Key() != p.ComputeKey() {
				t.Fatalf("%s: move %s: incremental %s != scratch %s", fen, Move(code), p.Key(), p.ComputeKey())
			}
			checkKings(t, &p)
		}
	}
}

func FuzzFENMovesKey(f *testing.F) {
	for _, tc := range formatDocKeys {
		f.Add(tc.fen, "")
	}
	f.Add(StartFEN, "e2e4 d7d5 e4e5 f7f5 e5f6 g8f6")
	f.Add("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1 e8a8")
	f.Add("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", "b7b8n g2g1r")
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1", "")
	f.Add("K7/8/8/8/8/8/8/k7 w - - 0 1", "a8a7 a1a2 xx")
	f.Fuzz(func(t *testing.T, fen, moves string) {
		l, err := NewLine(fen)
		if err != nil {
			return
		}
		for _, s := range strings.Fields(moves) {
			m, err := ParseMove(s)
			if err != nil {
				continue
			}
			if _, err := l.Play(m); err != nil {
				continue
			}
			if got, want := l.Pos.Key(), l.Pos.ComputeKey(); got != want {
				t.Fatalf("%s after %s: incremental %s, scratch %s", fen, s, got, want)
			}
			if l.Pos.check != l.Pos.InCheck() {
				t.Fatalf("%s after %s: in check %v, kept from the move %v", fen, s, l.Pos.InCheck(), l.Pos.check)
			}
			checkKings(t, &l.Pos)
			opt, err := chess.FEN(l.Pos.FEN())
			if err != nil {
				t.Fatalf("%s after %s: notnil refuses %s: %v", fen, s, l.Pos.FEN(), err)
			}
			if got, want := l.Pos.Key(), fromChess(t, chess.NewGame(opt).Position()).Key(); got != want {
				t.Fatalf("%s after %s: incremental %s, from notnil %s", fen, s, got, want)
			}
		}
	})
}

// checkKings fails unless the kings Position keeps track of stand where
// a search of the board finds them (64: none).
func checkKings(t testing.TB, p *Position) {
	t.Helper()
	for _, white := range []bool{true, false} {
		want := Square(64)
		for s, pc := range p.board {
			if pc == MakePiece(King, white) {
				want = Square(s)
			}
		}
		if got := p.kingSquare(white); got != want {
			t.Fatalf("%s: the white=%v king is kept on %d, the board has it on %d", p.FEN(), white, got, want)
		}
	}
}
