package ctg

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/board"
)

// randomPositions plays seeded random games from the start position, long
// enough for promotions, en passant, castling and bare kings, and returns
// every position met.
func randomPositions(t testing.TB, games, plies int) []*board.Position {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 33))
	var out []*board.Position
	for range games {
		p := board.StartPosition()
		for range plies {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			out = append(out, p)
			m, err := p.LegalMove(moves[r.IntN(len(moves))])
			if err != nil {
				t.Fatal(err)
			}
			p = p.Next(m)
		}
	}
	return out
}

// flipFEN turns a FEN's position over: ranks reversed, colours and the
// side to move swapped, castling rights and the en-passant square with
// them.
func flipFEN(t testing.TB, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	f[0] = swapCase(strings.Join(ranks, "/"))
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	if f[2] != "-" {
		swapped, canonical := swapCase(f[2]), ""
		for _, c := range "KQkq" {
			if strings.ContainsRune(swapped, c) {
				canonical += string(c)
			}
		}
		f[2] = canonical
	}
	if f[3] != "-" {
		f[3] = f[3][:1] + map[byte]string{'3': "6", '6': "3"}[f[3][1]]
	}
	return strings.Join(f, " ")
}

func swapCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = c - 'a' + 'A'
		case c >= 'A' && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
}

// mirrorFEN mirrors a FEN's position left to right (only for positions
// without castling rights).
func mirrorFEN(t testing.TB, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, rank := range ranks {
		b := []byte(rank)
		for x, y := 0, len(b)-1; x < y; x, y = x+1, y-1 {
			b[x], b[y] = b[y], b[x]
		}
		ranks[i] = string(b)
	}
	f[0] = strings.Join(ranks, "/")
	if f[3] != "-" {
		f[3] = string('h'-(f[3][0]-'a')) + f[3][1:]
	}
	return strings.Join(f, " ")
}

func parse(t testing.TB, fen string) *board.Position {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

// TestKeyTwins: a position and its colour mirror have one key, and
// without castling rights so do a position and its left-right mirror;
// no two positions that are not such twins share a key.
func TestKeyTwins(t *testing.T) {
	byKey := map[string]*board.Position{}
	twins := 0
	for _, p := range randomPositions(t, 40, 200) {
		key := string(Key(p))
		flipped := parse(t, flipFEN(t, p.FEN()))
		if got := string(Key(flipped)); got != key {
			t.Fatalf("%s and its colour mirror %s: keys %x and %x", p.FEN(), flipped.FEN(), key, got)
		}
		if p.Castling() == 0 {
			mirrored := parse(t, mirrorFEN(t, p.FEN()))
			if got := string(Key(mirrored)); got != key {
				t.Fatalf("%s and its mirror %s: keys %x and %x", p.FEN(), mirrored.FEN(), key, got)
			}
		}
		if q := byKey[key]; q != nil && !sameOrTwin(t, p, q) {
			t.Fatalf("%s and %s share the key %x", p.FEN(), q.FEN(), key)
		} else if q != nil {
			twins++
		}
		byKey[key] = p
		if n := int(key[0] & keyLenMask); n != len(key) || n > maxKeyLen {
			t.Fatalf("%s: key of %d bytes says %d", p.FEN(), len(key), n)
		}
	}
	t.Logf("%d keys, %d met again", len(byKey), twins)
}

// sameOrTwin reports p and q the same position (move counters aside) or
// mirror images of each other that the book stores as one.
func sameOrTwin(t *testing.T, p, q *board.Position) bool {
	placement := func(fen string) string {
		f := strings.Fields(fen)
		return strings.Join(f[:3], " ") + " " + map[bool]string{true: "ep", false: "-"}[enPassantFile(parse(t, fen)) >= 0]
	}
	want := placement(p.FEN())
	cands := []string{q.FEN(), flipFEN(t, q.FEN())}
	if q.Castling() == 0 {
		cands = append(cands, mirrorFEN(t, q.FEN()), mirrorFEN(t, flipFEN(t, q.FEN())))
	}
	for _, c := range cands {
		if placement(c) == want {
			return true
		}
	}
	return false
}

// TestMoveBytes: every legal move of random positions gets a byte that
// decodes back to it (a promotion to the queen's), except those the
// format cannot name.
func TestMoveBytes(t *testing.T) {
	named, unnamed := 0, 0
	for _, p := range randomPositions(t, 40, 200) {
		v := newView(p)
		for _, m := range p.LegalMoves() {
			m = p.ToPlayed(m)
			code, err := MoveByte(p, m)
			if err != nil {
				if !strings.Contains(err.Error(), "no move byte names") {
					t.Fatalf("%s %s: %v", p.FEN(), m, err)
				}
				unnamed++
				continue
			}
			named++
			got, why := v.decode(code)
			want := m
			if m.Promo() != board.NoPromo {
				want = board.NewMove(m.From(), m.To(), board.PromoQueen)
			}
			if why != "" || got != want {
				t.Fatalf("%s: %s is byte 0x%02x, which decodes to %s (%s)", p.FEN(), m, code, got, why)
			}
		}
	}
	if unnamed*100 > named {
		t.Errorf("%d moves named, %d not: too many unnamed", named, unnamed)
	}
	t.Logf("%d moves named, %d without a byte (a third piece of a kind, the second queen six files right)", named, unnamed)
}

// TestMoveBytesUnnamed: the moves no byte names.
func TestMoveBytesUnnamed(t *testing.T) {
	for _, c := range []struct{ fen, move string }{
		{"4k3/8/8/8/8/8/8/N3K1NN w - - 0 1", "h1g3"},  // a third knight
		{"4k3/8/8/8/8/8/4K3/Q6Q w - - 0 1", "a1g1"},   // the first queen six files right is named...
		{"4k3/8/8/8/8/8/4K3/Q6Q w - - 0 1", "h1f1"},   // ...the second's (two left, +6 modulo 8) is not
		{"4k3/8/8/8/8/8/8/RRR1K3 w - - 0 1", "c1c7"},  // a third rook
		{"4k3/8/8/8/8/8/8/B1B1KB2 w - - 0 1", "f1g2"}, // a third bishop
	} {
		p := parse(t, c.fen)
		m, err := board.ParseMove(c.move)
		if err != nil {
			t.Fatal(err)
		}
		_, err = MoveByte(p, m)
		if named := err == nil; named != (c.move == "a1g1") {
			t.Errorf("%s %s: named %v (%v)", c.fen, c.move, named, err)
		}
	}
}
