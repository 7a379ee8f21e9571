package learn

import "testing"

func TestFieldAdd(t *testing.T) {
	f := MakeField(0, 0)
	f = f.Add(Win)
	f = f.Add(Draw)
	f = f.Add(Loss)
	if f.Games() != 3 || f.Points() != 3 {
		t.Fatalf("after win, draw, loss: %v, want 3 games 3 points", f)
	}
	if uint32(f) != 0x00030003 {
		t.Fatalf("raw field %#08x, want games in the high half", uint32(f))
	}
}

func TestFieldOverflowHalves(t *testing.T) {
	cases := []struct {
		name          string
		before        Field
		r             Result
		games, points uint16
	}{
		{"games full", MakeField(0xffff, 0x8000), Draw, 0x7fff + 1, 0x4000 + 1},
		{"points full", MakeField(0x8000, 0xffff), Win, 0x4000 + 1, 0x7fff + 2},
		{"points would overflow by a win", MakeField(0x9000, 0xfffe), Win, 0x4800 + 1, 0x7fff + 2},
		{"points fit a draw exactly", MakeField(0x9000, 0xfffe), Draw, 0x9001, 0xffff},
		{"loss never overflows points", MakeField(0x9000, 0xffff), Loss, 0x9001, 0xffff},
		{"arbitrary real value kept", MakeField(3, 250), Win, 4, 252},
	}
	for _, c := range cases {
		got := c.before.Add(c.r)
		if got.Games() != c.games || got.Points() != c.points {
			t.Errorf("%s: %v + %v = %v, want %d games %d points", c.name, c.before, c.r, got, c.games, c.points)
		}
	}
}

func TestFieldRatioSurvivesManyOverflows(t *testing.T) {
	f := Field(0)
	for i := 0; i < 300000; i++ {
		r := Win
		if i%4 == 3 {
			r = Loss
		}
		f = f.Add(r)
	}
	ratio := float64(f.Points()) / float64(2*int(f.Games()))
	if ratio < 0.74 || ratio > 0.76 {
		t.Fatalf("after 300000 games scoring 75%%: %v, ratio %.3f", f, ratio)
	}
}

func TestOutcome(t *testing.T) {
	for _, c := range []struct {
		s           string
		o           Outcome
		white, blck Result
	}{
		{"1-0", WhiteWins, Win, Loss},
		{"0-1", BlackWins, Loss, Win},
		{"1/2-1/2", Drawn, Draw, Draw},
	} {
		o := ParseOutcome(c.s)
		if o != c.o || o.String() != c.s {
			t.Errorf("ParseOutcome(%q) = %v", c.s, o)
		}
		if o.For(true) != c.white || o.For(false) != c.blck {
			t.Errorf("%s: white %v black %v", c.s, o.For(true), o.For(false))
		}
	}
	for _, s := range []string{"*", "", "1-1", "½-½"} {
		if ParseOutcome(s) != Unknown {
			t.Errorf("ParseOutcome(%q) is not Unknown", s)
		}
	}
}
