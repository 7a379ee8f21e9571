package board

import (
	"strings"
	"testing"
)

// The nine test keys of the Polyglot book format document.
var formatDocKeys = []struct {
	moves string
	fen   string
	key   Key
}{
	{"", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c},
	{"e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196},
	{"e2e4 d7d5", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0},
	{"e2e4 d7d5 e4e5", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4},
	{"e2e4 d7d5 e4e5 f7f5", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78},
	{"e2e4 d7d5 e4e5 f7f5 e1e2", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1},
	{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9},
	{"a2a4 b7b5 h2h4 b5b4 c2c4", "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637},
	{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560},
}

func TestFormatDocKeys(t *testing.T) {
	for _, tc := range formatDocKeys {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Key(); got != tc.key {
			t.Errorf("FEN %s: key %s, want %s", tc.fen, got, tc.key)
		}
		if got := p.ComputeKey(); got != tc.key {
			t.Errorf("FEN %s: computed key %s, want %s", tc.fen, got, tc.key)
		}
		q := StartPosition()
		for _, s := range strings.Fields(tc.moves) {
			m, err := ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			q.Play(m)
		}
		if got := q.Key(); got != tc.key {
			t.Errorf("moves %q: incremental key %s, want %s", tc.moves, got, tc.key)
		}
		if got := q.ComputeKey(); got != tc.key {
			t.Errorf("moves %q: key from scratch %s, want %s", tc.moves, got, tc.key)
		}
	}
}

// Positions that cannot arise in a game, which engines are known to crash
// on, are refused with the reason; near misses that are legal are not.
func TestParseFENRefusesImpossiblePositions(t *testing.T) {
	for _, tc := range []struct{ fen, why string }{
		{"8/8/8/8/8/8/8/8 w - - 0 1", "exactly one king"},
		{"4k3/8/8/8/8/8/8/4KK2 w - - 0 1", "exactly one king"},
		{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"},
		{"4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "first or last rank"},
		{"4k3/8/8/8/8/8/8/4KR2 w - - 0 1", ""}, // nothing attacks e8
		{"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "not to move is in check"},
		{"4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", ""}, // the side to move may be in check
		{"4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "not to move is in check"},
		{"xx", "not a piece"},
		{"   ", "empty"},
		{"4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"},
	} {
		_, err := ParseFEN(tc.fen)
		switch {
		case tc.why == "" && err != nil:
			t.Errorf("%s: %v", tc.fen, err)
		case tc.why != "" && (err == nil || !strings.Contains(err.Error(), tc.why)):
			t.Errorf("%s: error %v, want one saying %q", tc.fen, err, tc.why)
		}
		if _, lerr := NewLine(tc.fen); (lerr == nil) != (err == nil) {
			t.Errorf("%s: NewLine says %v, ParseFEN %v", tc.fen, lerr, err)
		}
	}
}

// FENs as engines and python-chess accept them: what a GUI or a script may
// send is read, and written back in the one standard form.
func TestParseFENLenient(t *testing.T) {
	for _, tc := range []struct{ fen, want string }{
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{"4k3/8/8/8/8/8/8/4K3 b - -", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"},                    // 4 fields
		{"4k3/8/8/8/8/8/8/4K3 w - - 7", "4k3/8/8/8/8/8/8/4K3 w - - 7 1"},                  // 5 fields
		{"4k3/8/8/8/8/8/8/4K3 w - - 3 0", "4k3/8/8/8/8/8/8/4K3 w - - 3 1"},                // move number 0
		{"4k3/8/8/8/8/8/8/4K3 w - - - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},                // '-' counters
		{"4k3/8/8/8/8/8/8/4K3 w - - -5 -2", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},              // negative counters
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},          // 7 fields
		{"4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},                          // placement only
		{"4k3/8/8/8/8/8/8/4K3 B", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"},                        // side in upper case
		{"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},  // Shredder letters
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"}, // a right twice
		{"r3k2r/8/8/8/8/8/8/R3K2R w GBgb - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"},     // inner rooks: Chess960
		{"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"},        // rights without rooks dropped
		{"4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},               // unreadable en passant
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"},        // a real one kept
		{"4k3/8/8/3pP3/8/8/8/4K3 w - c6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1"},         // no pawn passed c6
	} {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Errorf("%q: %v", tc.fen, err)
			continue
		}
		if got := p.FEN(); got != tc.want {
			t.Errorf("%q read as %q, want %q", tc.fen, got, tc.want)
		}
	}
}
