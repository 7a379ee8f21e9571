package board

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// notnil/chess is the reference these rules are checked against: the
// helpers here translate between its types and ours.

func fromChess(t testing.TB, cp *chess.Position) *Position {
	t.Helper()
	p, err := ParseFEN(cp.String())
	if err != nil {
		t.Fatalf("notnil's FEN %s: %v", cp, err)
	}
	return p
}

func pieceTypeFromChess(t chess.PieceType) PieceType {
	switch t {
	case chess.Knight:
		return Knight
	case chess.Bishop:
		return Bishop
	case chess.Rook:
		return Rook
	case chess.Queen:
		return Queen
	case chess.King:
		return King
	}
	return Pawn
}

func fromChessMove(m *chess.Move) Move {
	promo := NoPromo
	if m.Promo() != chess.NoPieceType {
		// Promo codes 1-4 number knight..queen as PieceType does.
		promo = Promo(pieceTypeFromChess(m.Promo()))
	}
	return NewMove(Square(m.S1()), Square(m.S2()), promo)
}

// findLegal returns notnil's own move for m (played form), or nil.
func findLegal(cp *chess.Position, m Move) *chess.Move {
	for _, cm := range cp.ValidMoves() {
		if fromChessMove(cm) == m {
			return cm
		}
	}
	return nil
}

func notnilMoves(cp *chess.Position) []Move {
	var out []Move
	for _, m := range cp.ValidMoves() {
		out = append(out, fromChessMove(m))
	}
	return out
}

func mustLine(t testing.TB, fen, moves string) *Line {
	t.Helper()
	l, err := NewLine(fen)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.PlayMoves(strings.Fields(moves), 0); err != nil {
		t.Fatal(err)
	}
	return l
}

// In random games, every position's legal moves, check, FEN and every
// move's SAN agree with notnil.
func TestGenerationMatchesNotnil(t *testing.T) {
	plies, _ := playRandomGames(t, 11, 30, 250, func(p *Position, cp *chess.Position, last *chess.Move) {
		got, want := p.LegalMoves(), notnilMoves(cp)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: legal moves %v, notnil %v", cp, got, want)
		}
		if p.InCheck() != last.HasTag(chess.Check) || p.check != p.InCheck() {
			t.Fatalf("%s: in check %v (kept from the move: %v), notnil %v", cp, p.InCheck(), p.check, last.HasTag(chess.Check))
		}
		if fen := p.FEN(); fen != cp.String() && !sameBut(fen, cp.String(), 3) {
			t.Fatalf("FEN %s, notnil %s", fen, cp)
		}
		for _, cm := range cp.ValidMoves() {
			if got, want := p.SAN(fromChessMove(cm)), (chess.AlgebraicNotation{}).Encode(cp, cm); got != want {
				t.Fatalf("%s: SAN of %s is %q, notnil %q", cp, cm, got, want)
			}
		}
		checkStatus(t, p, cp.String())
		checkKings(t, p)
	})
	if plies < 4000 {
		t.Errorf("only %d plies", plies)
	}
}

// sameBut reports whether two FENs differ at most in field i.
func sameBut(a, b string, i int) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) != len(fb) {
		return false
	}
	for j := range fa {
		if j != i && fa[j] != fb[j] {
			return false
		}
	}
	return true
}

// FEN decoding agrees with notnil wherever notnil accepts a FEN that is a
// real position, and our FEN writes back what it read.
func FuzzParseFEN(f *testing.F) {
	for _, tc := range formatDocKeys {
		f.Add(tc.fen)
	}
	for _, s := range []string{
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 12 40",
		"8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
		"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "k7/8/8/8/8/8/8/7K b - - 0 0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		back, err := ParseFEN(p.FEN())
		if err != nil || back.FEN() != p.FEN() || back.Key() != p.Key() {
			t.Fatalf("%q: written as %q, read back %v", fen, p.FEN(), err)
		}
		opt, err := chess.FEN(p.FEN())
		if err != nil {
			t.Fatalf("%q: notnil refuses our FEN %q: %v", fen, p.FEN(), err)
		}
		cp := chess.NewGame(opt).Position()
		want := notnilMoves(cp)
		got := p.LegalMoves()
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: legal moves %v, notnil %v", p.FEN(), got, want)
		}
	})
}

// Random legal positions: piece placements from random games with kings
// anywhere, read both ways.
func TestParseFENMatchesNotnilOnRandomPlacements(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := "PNBRQpnbrq"
	checked := 0
	for i := 0; i < 3000; i++ {
		var board [64]byte
		board[rng.IntN(64)] = 'K'
		for {
			s := rng.IntN(64)
			if board[s] == 0 {
				board[s] = 'k'
				break
			}
		}
		for n := rng.IntN(12); n > 0; n-- {
			s := rng.IntN(64)
			if board[s] == 0 {
				board[s] = pieces[rng.IntN(len(pieces))]
			}
		}
		var sb strings.Builder
		for row := 7; row >= 0; row-- {
			empty := 0
			for f := 0; f < 8; f++ {
				c := board[8*row+f]
				if c == 0 {
					empty++
					continue
				}
				if empty > 0 {
					sb.WriteByte(byte('0' + empty))
					empty = 0
				}
				sb.WriteByte(c)
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
			}
			if row > 0 {
				sb.WriteByte('/')
			}
		}
		fen := sb.String() + []string{" w - - 0 1", " b - - 3 17"}[i%2]
		p, err := ParseFEN(fen)
		if err != nil {
			continue // a pawn on the edge rank, or the side not to move in check
		}
		opt, err := chess.FEN(fen)
		if err != nil {
			t.Fatalf("notnil refuses %s: %v", fen, err)
		}
		cp := chess.NewGame(opt).Position()
		if p.FEN() != cp.String() {
			t.Fatalf("FEN %s read as %s, notnil %s", fen, p.FEN(), cp)
		}
		got, want := p.LegalMoves(), notnilMoves(cp)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: legal moves %v, notnil %v", fen, got, want)
		}
		checked++
	}
	if checked < 1000 {
		t.Errorf("only %d positions checked", checked)
	}
}

// TestLegalMoveMatchesNotnil pins the legality check the book chooser
// uses (Position.ToPlayed and LegalMove) to the rules library: in positions of random games,
// every move code a book entry could hold from a square of the side to
// move (every target, every promotion code including the invalid ones,
// castling in both spellings) is judged legal exactly when notnil lists it.
func TestLegalMoveMatchesNotnil(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	games := 4
	if testenv.RaceEnabled {
		games = 1
	}
	positions, legalSeen := 0, 0
	for range games {
		cp := chess.StartingPosition()
		p := StartPosition()
		for ply := 0; ply < 200; ply++ {
			valid := cp.ValidMoves()
			if len(valid) == 0 {
				break
			}
			legal := map[Move]bool{}
			for _, m := range valid {
				legal[fromChessMove(m)] = true
			}
			positions++
			for from := Square(0); from < 64; from++ {
				if pc := p.Piece(from); pc == NoPiece || pc.White() != p.WhiteToMove() {
					continue
				}
				pawn := p.Piece(from).Type() == Pawn
				for to := Square(0); to < 64; to++ {
					// Every promotion code where a pawn reaches the last
					// rank; elsewhere none and one drawn at random.
					promos := []Promo{NoPromo, Promo(1 + rng.IntN(7))}
					if pawn && (to.Row() == 0 || to.Row() == 7) {
						promos = []Promo{0, 1, 2, 3, 4, 5, 6, 7}
					}
					for _, promo := range promos {
						m := NewMove(from, to, promo)
						played := p.ToPlayed(m) // as Candidates judges it
						got, err := p.LegalMove(played)
						if want := legal[played]; (err == nil) != want || (err == nil && got != played) {
							t.Fatalf("%s: LegalMove(%s) = %s, %v; notnil says legal=%v", cp, m, got, err, want)
						}
						if err == nil {
							legalSeen++
						}
					}
				}
			}
			m := valid[rng.IntN(len(valid))]
			p.Play(fromChessMove(m))
			cp = cp.Update(m)
		}
	}
	t.Logf("%d positions, %d legal move codes", positions, legalSeen)
	if positions < 100 {
		t.Errorf("only %d positions", positions)
	}
}

// checkStatus compares Status with notnil's verdict on the same FEN.
func checkStatus(t *testing.T, p *Position, fen string) {
	t.Helper()
	opt, err := chess.FEN(fen)
	if err != nil {
		t.Fatalf("notnil refuses %s: %v", fen, err)
	}
	want := Playing
	switch chess.NewGame(opt).Method() {
	case chess.Checkmate:
		want = Checkmate
	case chess.Stalemate:
		want = Stalemate
	case chess.InsufficientMaterial:
		want = InsufficientMaterial
	}
	if got := p.Status(); got != want {
		t.Fatalf("%s: status %v, notnil %v", fen, got, want)
	}
}

// Status on endings of every kind, and on random placements of few pieces
// (where insufficient material is common).
func TestStatusMatchesNotnil(t *testing.T) {
	for _, fen := range []string{
		"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", // mate
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                // stalemate
		"8/8/4k3/8/8/3K4/8/8 w - - 0 1",
		"8/8/4k3/8/8/3KN3/8/8 b - - 0 1",
		"8/8/4k3/8/8/3KB3/8/8 b - - 0 1",
		"8/8/2b1k3/8/8/3KB3/8/8 b - - 0 1", // bishops on the same colour
		"8/8/3bk3/8/8/3KB3/8/8 b - - 0 1",  // on both colours
		"8/8/4k3/8/8/3KNN2/8/8 b - - 0 1",
		"8/8/4k3/8/8/3K4/8/R7 w - - 0 1",
	} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		checkStatus(t, p, p.FEN())
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 2000; i++ {
		var b [64]byte
		b[rng.IntN(64)] = 'K'
		for {
			if s := rng.IntN(64); b[s] == 0 {
				b[s] = 'k'
				break
			}
		}
		for n := rng.IntN(4); n > 0; n-- {
			if s := rng.IntN(64); b[s] == 0 {
				b[s] = "NBnbBbRq"[rng.IntN(8)]
			}
		}
		var sb strings.Builder
		for row := 7; row >= 0; row-- {
			for f := 0; f < 8; f++ {
				if c := b[8*row+f]; c != 0 {
					sb.WriteByte(c)
				} else {
					sb.WriteByte('1')
				}
			}
			if row > 0 {
				sb.WriteByte('/')
			}
		}
		p, err := ParseFEN(sb.String() + " w - - 0 1")
		if err != nil {
			continue
		}
		checkStatus(t, p, p.FEN())
	}
}
