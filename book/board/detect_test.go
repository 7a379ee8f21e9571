package board

import (
	"math/rand/v2"
	"testing"
)

// A FEN whose variant nobody named is Chess960 exactly when its castling
// rights only Chess960 has, in any castling style; else standard chess.
func TestParseFENDetectVariant(t *testing.T) {
	for _, tc := range []struct {
		fen      string
		chess960 bool
		castling string // the X-FEN castling field read
	}{
		{StartFEN, false, "KQkq"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", false, "KQkq"}, // Shredder letters, corner rooks
		{"r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", false, "-"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w GBgb - 0 1", false, "-"}, // letters naming no rook: no right in either
		{"3k4/8/8/8/8/8/8/3K4 w - - 0 1", false, "-"},        // king off the e-file, no rights
		{"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", true, "KQkq"},
		{"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", true, "KQkq"},
		{"1r2k2r/8/8/8/8/8/8/1R2K2R w KBkb - 0 1", true, "KQkq"}, // a rook off its corner (Shredder)
		{"r3k1r1/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", true, "KQkq"}, // K: the outermost rook, on g1
		{"rr2k2r/8/8/8/8/8/8/RR2K2R w KBk - 0 1", true, "KBk"},   // X-FEN's letter for an inner rook
		{"r2k3r/8/8/8/8/8/8/R2K3R b Kk - 0 1", true, "Kk"},       // the king on d1
		{"r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", false, "Kq"},
	} {
		p, err := ParseFENDetectVariant(tc.fen)
		if err != nil {
			t.Errorf("%s: %v", tc.fen, err)
			continue
		}
		if p.Chess960() != tc.chess960 || Chess960FEN(tc.fen) != tc.chess960 {
			t.Errorf("%s: Chess960 %v (Chess960FEN %v), want %v", tc.fen, p.Chess960(), Chess960FEN(tc.fen), tc.chess960)
		}
		want, err := ParseFENVariant(tc.fen, tc.chess960)
		if err != nil {
			t.Fatal(err)
		}
		if *p != *want {
			t.Errorf("%s: read as %s, not as ParseFENVariant(%v) reads it: %s", tc.fen, p.FEN(), tc.chess960, want.FEN())
		}
		if got := castlingField(p.FEN()); got != tc.castling {
			t.Errorf("%s: castling %q, want %q", tc.fen, got, tc.castling)
		}
	}
	if _, err := ParseFENDetectVariant("not a fen"); err == nil {
		t.Error("a bad FEN read")
	}
}

func castlingField(fen string) string {
	n := 0
	for i := range len(fen) {
		if fen[i] == ' ' {
			n++
			if n == 2 {
				j := i + 1
				for j < len(fen) && fen[j] != ' ' {
					j++
				}
				return fen[i+1 : j]
			}
		}
	}
	return ""
}

// Every position of standard games (random legal ones, castling and en
// passant included) reads, through the detection, exactly as ParseFEN
// reads it: the shortcut from the Chess960 reading loses nothing.
func TestParseFENDetectVariantStandardGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		p := StartPosition()
		for range 120 {
			fen := p.FEN()
			got, err := ParseFENDetectVariant(fen)
			if err != nil {
				t.Fatalf("%s: %v", fen, err)
			}
			want, _ := ParseFEN(fen)
			if *got != *want {
				t.Fatalf("%s: read as %s (Chess960 %v)", fen, got.FEN(), got.Chess960())
			}
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			p.Play(moves[rng.IntN(len(moves))])
		}
	}
}

// FuzzParseFENDetectVariant: any FEN the detection reads is read as
// ParseFENVariant reads it in the variant detected, and the variant is
// Chess960 exactly when the Chess960 reading has rights standard chess
// lacks.
func FuzzParseFENDetectVariant(f *testing.F) {
	f.Add(StartFEN)
	f.Add("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
	f.Add("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1")
	f.Add("r3k1r1/pppppppp/8/8/8/8/PPPPPPPP/R3K1R1 w KQkq - 0 1")
	f.Add("rr2k2r/8/8/8/8/8/8/RR2K2R w KBk - 0 1")
	f.Add("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFENDetectVariant(fen)
		if err != nil {
			return
		}
		want, err := ParseFENVariant(fen, p.Chess960())
		if err != nil {
			t.Fatalf("%q: detected, then refused: %v", fen, err)
		}
		if *p != *want {
			t.Fatalf("%q: read as %s, ParseFENVariant(%v) reads %s", fen, p.FEN(), p.Chess960(), want.FEN())
		}
		as960, _ := ParseFENVariant(fen, true)
		if p.Chess960() == as960.StandardCastling() {
			t.Fatalf("%q: Chess960 %v, but the Chess960 reading's rights standard: %v", fen, p.Chess960(), as960.StandardCastling())
		}
	})
}
