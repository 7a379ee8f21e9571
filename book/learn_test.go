package book_test

import (
	"math"
	"slices"
	"testing"

	"github.com/polyproxy/polyproxy/book"
)

func TestLearnAdd(t *testing.T) {
	f := book.MakeLearn(0, 0)
	f = f.Add(book.Win)
	f = f.Add(book.Draw)
	f = f.Add(book.Loss)
	if f.Games() != 3 || f.Points() != 3 {
		t.Fatalf("after win, draw, loss: %v, want 3 games 3 points", f)
	}
	if uint32(f) != 0x00030003 {
		t.Fatalf("raw field %#08x, want games in the high half", uint32(f))
	}
}

func TestLearnOverflowHalves(t *testing.T) {
	cases := []struct {
		name          string
		before        book.Learn
		r             book.Result
		games, points uint16
	}{
		{"games full", book.MakeLearn(0xffff, 0x8000), book.Draw, 0x7fff + 1, 0x4000 + 1},
		{"points full", book.MakeLearn(0x8000, 0xffff), book.Win, 0x4000 + 1, 0x7fff + 2},
		{"points would overflow by a win", book.MakeLearn(0x9000, 0xfffe), book.Win, 0x4800 + 1, 0x7fff + 2},
		{"points fit a draw exactly", book.MakeLearn(0x9000, 0xfffe), book.Draw, 0x9001, 0xffff},
		{"loss never overflows points", book.MakeLearn(0x9000, 0xffff), book.Loss, 0x9001, 0xffff},
		{"arbitrary real value kept", book.MakeLearn(3, 250), book.Win, 4, 252},
	}
	for _, c := range cases {
		got := c.before.Add(c.r)
		if got.Games() != c.games || got.Points() != c.points {
			t.Errorf("%s: %v + %v = %v, want %d games %d points", c.name, c.before, c.r, got, c.games, c.points)
		}
	}
}

func TestLearnRatioSurvivesManyOverflows(t *testing.T) {
	f := book.Learn(0)
	for i := 0; i < 300000; i++ {
		r := book.Win
		if i%4 == 3 {
			r = book.Loss
		}
		f = f.Add(r)
	}
	ratio := float64(f.Points()) / float64(2*int(f.Games()))
	if ratio < 0.74 || ratio > 0.76 {
		t.Fatalf("after 300000 games scoring 75%%: %v, ratio %.3f", f, ratio)
	}
}

func TestLearnPlus(t *testing.T) {
	tests := []struct {
		a, b, want book.Learn
		halved     bool
	}{
		{0, 0, 0, false},
		{3<<16 | 4, 5<<16 | 6, 8<<16 | 10, false},
		{0xffff<<16 | 0x1000, 1<<16 | 2, 0x8000<<16 | 0x0801, true},           // games overflow: both halved
		{10<<16 | 0xfff0, 10<<16 | 0x20, 10<<16 | 0x8008, true},               // points overflow
		{0xffff<<16 | 0xffff, 0xffff<<16 | 0xffff, 0xffff<<16 | 0xffff, true}, // both at most: halved once
	}
	for _, tc := range tests {
		got, halved := tc.a.Plus(tc.b)
		if got != tc.want || halved != tc.halved {
			t.Errorf("%#x.Plus(%#x) = %#x, %v; want %#x, %v", tc.a, tc.b, got, halved, tc.want, tc.halved)
		}
	}
}

// TestMakeLearnAndScaleWeights: counts (another format's statistics)
// and weights as Polyglot fields: counts halved together until they fit
// 16 bits, the heaviest weight 65535 and the others in proportion, at
// least 1 when above 0.
func TestMakeLearnAndScaleWeights(t *testing.T) {
	for _, c := range []struct {
		games, points int64
		want          book.Learn
	}{
		{0, 0, 0}, {0, 5, 0}, {-3, 2, 0}, {3, -1, 3 << 16}, {10, 15, 10<<16 | 15}, {0xffff, 0xffff, 0xffff<<16 | 0xffff},
		{70000, 140000, 17500<<16 | 35000}, {65535, 131070, 32767<<16 | 65535},
	} {
		if got := book.MakeLearn(c.games, c.points); got != c.want {
			t.Errorf("MakeLearn(%d, %d) = %v, want %v", c.games, c.points, got, c.want)
		}
	}
	got := book.ScaleWeights([]uint16{7}, []float64{2, 1, 0, math.NaN(), 1e-9, 0.5})
	if want := []uint16{7, 65535, 32768, 0, 0, 1, 16384}; !slices.Equal(got, want) {
		t.Errorf("ScaleWeights: %v, want %v", got, want)
	}
}
