package board_test

import (
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

func TestMoveCodes(t *testing.T) {
	for _, tc := range []struct {
		s    string
		code board.Move
	}{
		{"e2e4", 0x031c}, // the format document's example
		{"a1a1", 0},
		{"h8h8", 0x0fff},
		{"g1f3", board.NewMove(6, 21, board.NoPromo)},
		{"f2g1n", 1<<12 | 13<<6 | 6},
		{"b7b8b", 2<<12 | 49<<6 | 57},
		{"a2a1r", 3<<12 | 8<<6 | 0},
		{"h7h8q", 4<<12 | 55<<6 | 63},
	} {
		m, err := board.ParseMove(tc.s)
		if err != nil || m != tc.code {
			t.Errorf("ParseMove(%s) = %#x, %v; want %#x", tc.s, uint16(m), err, uint16(tc.code))
		}
		if m.String() != tc.s {
			t.Errorf("%#x prints %s, want %s", uint16(tc.code), m, tc.s)
		}
	}
	// Every valid code decodes to fields that encode back to it.
	for code := 0; code < 5<<12; code++ {
		m := board.Move(code)
		if board.NewMove(m.From(), m.To(), m.Promo()) != m {
			t.Fatalf("code %#x does not round-trip", code)
		}
		if p, err := board.ParseMove(m.String()); err != nil || p != m {
			t.Fatalf("code %#x prints %s which parses to %#x, %v", code, m, uint16(p), err)
		}
	}
	if !board.Move(0).IsNull() || board.Move(0x031c).IsNull() {
		t.Error("IsNull")
	}
	for _, bad := range []string{"", "e2", "e2e9", "i2e4", "e2e4k", "e7e8qq"} {
		if _, err := board.ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) accepted", bad)
		}
	}
}

func TestInvalidPromotionCodes(t *testing.T) {
	for promo := board.Promo(5); promo <= 7; promo++ {
		m := board.NewMove(49, 57, promo)
		if m.Promo() != promo || m.String() != "b7b8?" {
			t.Errorf("code %d: %s", promo, m)
		}
	}
}

func TestCastlingSpellings(t *testing.T) {
	p, _ := board.ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
	q, _ := board.ParseFEN("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")
	for _, tc := range []struct {
		pos            *board.Position
		stored, played string
	}{
		{p, "e1h1", "e1g1"}, {p, "e1a1", "e1c1"}, {p, "e1g1", "e1g1"}, {p, "e1c1", "e1c1"},
		{q, "e8h8", "e8g8"}, {q, "e8a8", "e8c8"}, {q, "e8g8", "e8g8"}, {q, "e8c8", "e8c8"},
		{p, "e1f1", "e1f1"}, {p, "a1a8", "a1a8"},
	} {
		m, _ := board.ParseMove(tc.stored)
		if got := tc.pos.ToPlayed(m).String(); got != tc.played {
			t.Errorf("ToPlayed(%s) = %s, want %s", tc.stored, got, tc.played)
		}
	}
	// Both spellings played give the same position.
	for _, pair := range [][2]string{{"e1h1", "e1g1"}, {"e1a1", "e1c1"}} {
		a, b := *p, *p
		m1, _ := board.ParseMove(pair[0])
		m2, _ := board.ParseMove(pair[1])
		a.Play(m1)
		b.Play(m2)
		if a != b {
			t.Errorf("%s and %s differ", pair[0], pair[1])
		}
	}
	g1, _ := board.ParseMove("e1g1")
	if got := p.ToBook(g1).String(); got != "e1h1" {
		t.Errorf("ToBook(e1g1) = %s", got)
	}
	// A rook on e1 moving to h1 is a rook move, stored and played alike.
	r, _ := board.ParseFEN("k7/8/8/8/8/8/8/3KR3 w - - 0 1")
	h1, _ := board.ParseMove("e1h1")
	if r.ToPlayed(h1) != h1 || r.ToBook(h1) != h1 {
		t.Error("rook e1h1 converted")
	}
	// A king on e1 without its rook does not castle either way.
	k, _ := board.ParseFEN("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	if k.ToPlayed(g1) != g1 || k.ToBook(g1) != g1 {
		t.Error("e1g1 without a rook converted")
	}
}
