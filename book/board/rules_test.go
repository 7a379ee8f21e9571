package board

import (
	"errors"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/notnil/chess"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

var sanPieceLetters = map[chess.PieceType]string{
	chess.Pawn: "", chess.Knight: "N", chess.Bishop: "B", chess.Rook: "R", chess.Queen: "Q", chess.King: "K",
}

// sanFENs are positions where the rare rules matter: en passant (also with
// a pinned capturer), castling through check, promotions with and without
// capture, several pieces reaching one square (one of them pinned).
var sanFENs = []string{
	StartFEN,
	"r3k2r/pppq1ppp/2n1bn2/2bpp3/2BPP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 4 8",
	"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
	"r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1", // f3 bishop: O-O through check? no, attacks e2/d1/h1...
	"r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", // c4 bishop attacks f1: no O-O
	"4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",      // exe6 e.p. would expose the king on the fifth rank
	"4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1",
	"8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1", // exd3 e.p. exposes the black king
	"1r2k3/2P5/8/8/8/8/5p2/4K1N1 w - - 0 1",
	"1r2k3/2P5/8/8/8/8/5p2/3K2N1 b - - 0 1",
	"4k3/8/8/8/1N3N2/8/1N3N2/4K3 w - - 0 1", // four knights reach d3
	"4k3/8/8/3r4/8/3N1N2/8/3K4 w - - 0 1",   // d3 knight pinned: Ne5 is not ambiguous... only Nf3 can go
	"Q3Q3/8/8/8/Q7/7k/8/2K5 w - - 0 1",      // three queens reach e4/a8/...
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
}

// TestParseSANMatchesNotnil replays random games with notnil and checks
// that every legal move's SAN, as notnil writes it, resolves to the same
// move, and that the from-to form is accepted by LegalMove.
func TestParseSANMatchesNotnil(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	games := 30
	if testing.Short() || testenv.RaceEnabled {
		games = 8
	}
	plies := 0
	seen := map[chess.MoveTag]int{}
	check := func(cp *chess.Position, p *Position) {
		for _, m := range cp.ValidMoves() {
			for _, tag := range []chess.MoveTag{chess.KingSideCastle, chess.QueenSideCastle, chess.EnPassant} {
				if m.HasTag(tag) {
					seen[tag]++
				}
			}
			if m.Promo() != chess.NoPieceType {
				seen[0]++
			}
			want := fromChessMove(m)
			san := chess.AlgebraicNotation{}.Encode(cp, m)
			got, err := ParseSAN(p, san)
			if err != nil || got != want {
				t.Fatalf("%s: ParseSAN(%q) = %v, %v; want %v", cp, san, got, err, want)
			}
			if got, err := p.LegalMove(want); err != nil || got != want {
				t.Fatalf("%s: LegalMove(%v) = %v, %v", cp, want, got, err)
			}
			if k, _, _, ok := p.isCastle(want); ok {
				stored := p.ToBook(want)
				if got, err := p.LegalMove(stored); err != nil || got != want || k != want.To() {
					t.Fatalf("%s: LegalMove(%v) = %v, %v; want %v", cp, stored, got, err, want)
				}
			}
		}
		plies++
	}
	for _, fen := range sanFENs {
		opt, err := chess.FEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		cp := chess.NewGame(opt).Position()
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		check(cp, p)
	}
	for g := 0; g < games; g++ {
		cp := chess.StartingPosition()
		p := StartPosition()
		for ply := 0; ply < 300; ply++ {
			moves := cp.ValidMoves()
			if len(moves) == 0 {
				break
			}
			check(cp, p)
			m := moves[rng.Intn(len(moves))]
			played, err := ParseSAN(p, chess.AlgebraicNotation{}.Encode(cp, m))
			if err != nil {
				t.Fatal(err)
			}
			p.Play(played)
			cp = cp.Update(m)
			if p.Key() != fromChess(t, cp).Key() {
				t.Fatalf("after %v: key %v, want %v (%s)", m, p.Key(), fromChess(t, cp).Key(), cp)
			}
		}
	}
	t.Logf("%d positions checked; castling short %d, long %d, en passant %d, promotions %d",
		plies, seen[chess.KingSideCastle], seen[chess.QueenSideCastle], seen[chess.EnPassant], seen[0])
	for _, tag := range []chess.MoveTag{chess.KingSideCastle, chess.QueenSideCastle, chess.EnPassant, 0} {
		if seen[tag] == 0 {
			t.Errorf("no move with tag %d was checked", tag)
		}
	}
}

// TestParseSANRejectsIllegal tries every piece letter on every target
// square (and pawn pushes, captures, promotions, castling) in positions of
// random games, and compares with notnil's legal moves: a SAN that matches
// no legal move must be rejected as illegal (as notnil rejects it), one
// that matches several must be rejected as ambiguous, one that matches one
// must give that move.
func TestParseSANRejectsIllegal(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	positions := 0
	notnilChecked := 0
	try := func(cp *chess.Position, p *Position) {
		positions++
		valid := cp.ValidMoves()
		type want struct {
			pt    chess.PieceType
			to    chess.Square
			promo chess.PieceType
			file  int
		}
		var byTarget [64][]*chess.Move
		for _, m := range valid {
			byTarget[m.S2()] = append(byTarget[m.S2()], m)
		}
		board := cp.Board()
		matching := func(w want) []Move {
			var out []Move
			for _, m := range byTarget[w.to] {
				if m.HasTag(chess.KingSideCastle) || m.HasTag(chess.QueenSideCastle) {
					continue
				}
				pc := board.Piece(m.S1())
				if pc.Type() == w.pt && m.S2() == w.to && m.Promo() == w.promo &&
					(w.file < 0 || int(m.S1().File()) == w.file) {
					out = append(out, fromChessMove(m))
				}
			}
			return out
		}
		for to := chess.Square(0); to < 64; to++ {
			var cases []struct {
				san string
				w   want
			}
			for pt, letter := range sanPieceLetters {
				if pt == chess.Pawn {
					continue
				}
				cases = append(cases, struct {
					san string
					w   want
				}{letter + to.String(), want{pt, to, chess.NoPieceType, -1}})
			}
			for _, df := range []int{-1, 1} {
				f := int(to.File()) + df
				if f < 0 || f > 7 {
					continue
				}
				promos := []chess.PieceType{chess.NoPieceType}
				if to.Rank() == chess.Rank1 || to.Rank() == chess.Rank8 {
					promos = []chess.PieceType{chess.Queen, chess.Knight}
				}
				for _, pr := range promos {
					suffix := ""
					if pr != chess.NoPieceType {
						suffix = "=" + sanPieceLetters[pr]
					}
					cases = append(cases, struct {
						san string
						w   want
					}{string(rune('a'+f)) + "x" + to.String() + suffix, want{chess.Pawn, to, pr, f}})
					if df == 1 {
						cases = append(cases, struct {
							san string
							w   want
						}{to.String() + suffix, want{chess.Pawn, to, pr, int(to.File())}})
					}
				}
			}
			for _, c := range cases {
				exp := matching(c.w)
				got, err := ParseSAN(p, c.san)
				switch len(exp) {
				case 0:
					if !errors.Is(err, ErrIllegalMove) {
						t.Fatalf("%s: ParseSAN(%q) = %v, %v; want illegal", cp, c.san, got, err)
					}
					// notnil agrees (checked on a sample: its Decode is slow).
					if rng.Intn(600) == 0 {
						notnilChecked++
						if _, nerr := (chess.AlgebraicNotation{}).Decode(cp, c.san); nerr == nil {
							t.Fatalf("%s: notnil accepts %q, ParseSAN says %v", cp, c.san, err)
						}
					}
				case 1:
					if err != nil || got != exp[0] {
						t.Fatalf("%s: ParseSAN(%q) = %v, %v; want %v", cp, c.san, got, err, exp[0])
					}
				default:
					if !errors.Is(err, ErrAmbiguousMove) {
						t.Fatalf("%s: ParseSAN(%q) = %v, %v; want ambiguous %v", cp, c.san, got, err, exp)
					}
				}
			}
		}
		for _, c := range []struct {
			san string
			tag chess.MoveTag
		}{{"O-O", chess.KingSideCastle}, {"O-O-O", chess.QueenSideCastle}, {"0-0", chess.KingSideCastle}, {"0-0-0", chess.QueenSideCastle}} {
			var exp *chess.Move
			for _, m := range valid {
				if m.HasTag(c.tag) {
					exp = m
				}
			}
			got, err := ParseSAN(p, c.san)
			if exp == nil {
				if !errors.Is(err, ErrIllegalMove) {
					t.Fatalf("%s: ParseSAN(%q) = %v, %v; want illegal", cp, c.san, got, err)
				}
			} else if err != nil || got != fromChessMove(exp) {
				t.Fatalf("%s: ParseSAN(%q) = %v, %v; want %v", cp, c.san, got, err, fromChessMove(exp))
			}
		}
	}
	for _, fen := range sanFENs {
		opt, _ := chess.FEN(fen)
		p, _ := ParseFEN(fen)
		try(chess.NewGame(opt).Position(), p)
	}
	games := 12
	if testing.Short() || testenv.RaceEnabled {
		games = 4
	}
	for g := 0; g < games; g++ {
		cp := chess.StartingPosition()
		p := StartPosition()
		for ply := 0; ply < 200; ply++ {
			moves := cp.ValidMoves()
			if len(moves) == 0 {
				break
			}
			if ply%4 == 0 {
				try(cp, p)
			}
			m := moves[rng.Intn(len(moves))]
			p.Play(fromChessMove(m))
			cp = cp.Update(m)
		}
	}
	if notnilChecked == 0 {
		t.Fatal("no illegal SAN was cross-checked with notnil")
	}
	t.Logf("%d positions, %d illegal SANs cross-checked with notnil", positions, notnilChecked)
}

func TestParseSANForms(t *testing.T) {
	tests := []struct {
		fen, san, want string
		err            error
	}{
		{StartFEN, "Nf3", "g1f3", nil},
		{StartFEN, "Ng1f3", "g1f3", nil},
		{StartFEN, "Ng1-f3", "g1f3", nil},
		{StartFEN, "Nf3!?", "g1f3", nil},
		{StartFEN, "e4", "e2e4", nil},
		{StartFEN, "Pe4", "e2e4", nil},
		{StartFEN, "e2e4", "e2e4", nil},
		{StartFEN, "e2-e4", "e2e4", nil},
		{StartFEN, "e5", "", ErrIllegalMove},
		{StartFEN, "Nd2", "", ErrIllegalMove},
		{StartFEN, "Ke2", "", ErrIllegalMove},
		{StartFEN, "O-O", "", ErrIllegalMove},
		{StartFEN, "Nf", "", ErrSANSyntax},
		{StartFEN, "", "", ErrSANSyntax},
		{StartFEN, "+", "", ErrSANSyntax},
		{StartFEN, "Xe4", "", ErrSANSyntax},
		{StartFEN, "Nf3=Q", "", ErrSANSyntax},
		// PolyGlot reads a lower-case piece letter as a pawn move (nf3 as
		// f2f3); we refuse to guess.
		{StartFEN, "nf3", "", ErrSANSyntax},
		{StartFEN, "--", "", ErrNullMove},
		{StartFEN, "Z0", "", ErrNullMove},
		{StartFEN, "0000", "", ErrNullMove},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1g1", nil},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0+", "e1c1", nil},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", "e8c8", nil},
		{"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", "", ErrIllegalMove},
		{"r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "O-O-O", "", ErrIllegalMove},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Rd1", "a1d1", nil},
		{"1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8=Q", "c7c8q", nil},
		{"1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8N+", "c7c8n", nil},
		{"1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1", "cxb8=r", "c7b8r", nil},
		{"1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8", "", ErrIllegalMove},
		{"4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "dxe6", "d5e6", nil},
		{"4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "dxe6e.p.", "d5e6", nil},
		{"4k3/8/8/3Pp3/8/8/8/4K3 w - - 0 1", "dxe6", "", ErrIllegalMove},
		{"4k3/8/8/8/1N3N2/8/1N3N2/4K3 w - - 0 1", "Nd3", "", ErrAmbiguousMove},
		{"4k3/8/8/8/1N3N2/8/1N3N2/4K3 w - - 0 1", "Nbd3", "", ErrAmbiguousMove},
		{"4k3/8/8/8/1N3N2/8/1N3N2/4K3 w - - 0 1", "Nb2d3", "b2d3", nil},
		{"4k3/8/8/8/1N3N2/8/1N3N2/4K3 w - - 0 1", "N4d3", "", ErrAmbiguousMove},
		{"4k3/8/8/8/1N3N2/8/1N3N2/4K3 w - - 0 1", "Nf2d3", "f2d3", nil},
		// The e-file knight is pinned, so Nd3 means the other one.
		{"4k3/4r3/8/8/1N6/8/4N3/4K3 w - - 0 1", "Nd3", "b4d3", nil},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseSAN(p, tc.san)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: ParseSAN(%q) = %v, %v; want error %v", tc.fen, tc.san, got, err, tc.err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%s: ParseSAN(%q) = %v, %v; want %s", tc.fen, tc.san, got, err, tc.want)
		}
	}
}

// FuzzParseSAN feeds arbitrary text (and a position from a list) to the
// resolver: it must never panic, any move it accepts must be legal
// according to notnil, and what notnil's SAN decoder reads it must read as
// the same move.
func FuzzParseSAN(f *testing.F) {
	for i, s := range []string{"e4", "Nf3", "O-O", "exd6", "c8=Q", "Nbd7", "Qh4xe1+", "0-0-0", "--", "e2e4", "bxa8=N#"} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, san string) {
		fen := sanFENs[int(which)%len(sanFENs)]
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseSAN(p, san)
		opt, _ := chess.FEN(fen)
		cp := chess.NewGame(opt).Position()
		// notnil deletes '!' and '?' anywhere ("!a3" is a3); we take them
		// only where PGN puts them, after the move.
		inner := strings.ContainsAny(strings.TrimRight(san, "!?+#"), "!?")
		if err != nil {
			// What notnil reads, we read too (we are more lenient).
			if nm, nerr := (chess.AlgebraicNotation{}).Decode(cp, san); nerr == nil && !inner {
				t.Fatalf("%s: notnil reads %q as %v, ParseSAN fails: %v", fen, san, nm, err)
			}
			return
		}
		if nm, nerr := (chess.AlgebraicNotation{}).Decode(cp, san); nerr == nil && fromChessMove(nm) != m {
			t.Fatalf("%s: notnil reads %q as %v, ParseSAN as %v", fen, san, nm, m)
		}
		for _, v := range cp.ValidMoves() {
			if fromChessMove(v) == m {
				return
			}
		}
		t.Fatalf("%s: ParseSAN(%q) = %v, which notnil does not list as legal", fen, san, m)
	})
}

// TestCheckKeptFromTheMove: the check Play keeps from each kind of move
// (direct, discovered, double, by a promotion, a castling's rook, an en
// passant capture that opens a rank or a diagonal, a king stepping off a
// line) is the check the board shows, and the legal moves that follow
// from it (a pinned piece, an en passant capture that would expose the
// king) are notnil's.
func TestCheckKeptFromTheMove(t *testing.T) {
	for _, tc := range []struct {
		fen, moves string
		check      bool // after the last move
	}{
		{"4k3/8/8/8/8/8/4B3/4R1K1 w - - 0 1", "e2b5", true},      // double check
		{"4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3", true},      // discovered
		{"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", false},        // the rook lands on f1
		{"5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", true},         // the castled rook checks
		{"3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", true},       // a promotion checks along the rank
		{"3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", false},      // a knight on b8 does not reach d8
		{"8/8/2k5/8/1P6/8/8/4K3 w - - 0 1", "b4b5", true},        // a pawn checks
		{"k7/8/8/KPp4r/8/8/8/8 w - c6 0 1", "", false},           // en passant would expose the king
		{"8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 1", "e5d6", true},     // en passant opens the rank
		{"8/8/3k4/8/1pP5/8/8/5B1K b - c3 0 1", "b4c3", false},    // en passant opens a diagonal, not to the king
		{"7k/8/8/8/1pP5/8/8/5B1K b - c3 0 1", "b4c3", false},     // nor here
		{"4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2d2", true},        // the king steps off the file
		{"4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "", false},         // a pinned knight cannot move
		{"4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", "e2e5 e7e5", true}, // a pinned rook moves along the pin; taken with check
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "f1b5", true},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "f1b5 c7c6 b5c6 b8c6", false},
		{"4k3/8/8/8/8/8/3p4/6K1 b - - 0 1", "d2d1q", true}, // a promotion checks along the rank
		{"4k3/8/8/8/8/8/3p4/6K1 b - - 0 1", "d2d1n", false},
	} {
		l, err := NewLine(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range append([]string{""}, strings.Fields(tc.moves)...) {
			if s != "" {
				m, err := ParseMove(s)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := l.Play(m); err != nil {
					t.Fatalf("%s: %s: %v", tc.fen, s, err)
				}
			}
			if l.Pos.check != l.Pos.InCheck() {
				t.Fatalf("%s after %q: check kept %v, the board shows %v", tc.fen, s, l.Pos.check, l.Pos.InCheck())
			}
			opt, err := chess.FEN(l.Pos.FEN())
			if err != nil {
				t.Fatal(err)
			}
			got, want := l.Pos.LegalMoves(), notnilMoves(chess.NewGame(opt).Position())
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%s after %q: legal moves %v, notnil %v", tc.fen, s, got, want)
			}
		}
		if l.Pos.check != tc.check {
			t.Errorf("%s after %s: check %v, want %v", tc.fen, tc.moves, l.Pos.check, tc.check)
		}
	}
}
