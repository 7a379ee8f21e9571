package build

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseDateRange(t *testing.T) {
	for _, c := range []struct {
		in     string
		lo, hi int
		ok     bool
	}{
		{"2024.06.15", 20240615, 20240615, true},
		{"2024.06.??", 20240601, 20240631, true},
		{"2024.??.??", 20240101, 20241231, true},
		{"2024", 20240101, 20241231, true},
		{"2024.06", 20240601, 20240631, true},
		{"????.??.??", 0, 0, false},
		{"", 0, 0, false},
		{"24.06.15", 0, 0, false},
		{"2024.13.01", 20240101, 20241231, true},
	} {
		lo, hi, ok := ParseDateRange(c.in)
		if lo != c.lo || hi != c.hi || ok != c.ok {
			t.Errorf("%q: %d %d %v, want %d %d %v", c.in, lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
	if d, err := ParseFlagDate("2024-06", true); err != nil || d != 20240631 {
		t.Errorf("2024-06 as -to-date: %d %v", d, err)
	}
	for _, bad := range []string{"x", "2024.??", "", "2024.1x"} {
		if _, err := ParseFlagDate(bad, false); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestTimeControl(t *testing.T) {
	for _, c := range []struct {
		in        string
		base, inc int
		ok        bool
		class     string
	}{
		{"600+5", 600, 5, true, "rapid"},
		{"60+0", 60, 0, true, "bullet"},
		{"15+0", 15, 0, true, "ultrabullet"},
		{"180+2", 180, 2, true, "blitz"},
		{"300", 300, 0, true, "blitz"},
		{"1800+30", 1800, 30, true, "classical"},
		{"-", -1, 0, true, "correspondence"},
		{"40/5400+30:1800+30", 5400, 30, true, "classical"},
		{"?", 0, 0, false, ""},
		{"", 0, 0, false, ""},
		{"10+x", 0, 0, false, ""},
	} {
		base, inc, ok := ParseTimeControl(c.in)
		if base != c.base || inc != c.inc || ok != c.ok {
			t.Errorf("%q: %d %d %v, want %d %d %v", c.in, base, inc, ok, c.base, c.inc, c.ok)
		}
		if ok && TimeClass(base, inc) != c.class {
			t.Errorf("%q: class %s, want %s", c.in, TimeClass(base, inc), c.class)
		}
	}
}

// filterGames are lichess-like games, drawn (so that every counted move
// has points and stays), each with its own first moves.
const filterGames = `[White "Alice"]
[Black "Bob"]
[Result "1/2-1/2"]
[WhiteElo "2400"]
[BlackElo "2000"]
[UTCDate "2024.03.01"]
[TimeControl "180+2"]
[Termination "Normal"]

1. e4 e5 1/2-1/2

[White "bob"]
[Black "Alice"]
[Result "1/2-1/2"]
[WhiteElo "1900"]
[BlackElo "2410"]
[Date "2023.??.??"]
[TimeControl "600+0"]
[Termination "Time forfeit"]

1. d4 d5 1/2-1/2

[White "Carol"]
[Black "Dave"]
[Result "1/2-1/2"]
[WhiteElo "?"]
[BlackElo "2500"]
[Date "????.??.??"]
[TimeControl "-"]

1. c4 c5 1/2-1/2

[White "Eve"]
[Black "Frank"]
[Result "1/2-1/2"]
[WhiteElo "2600"]
[BlackElo "2600"]
[Date "2025.01.02"]
[TimeControl "1800+30"]
[Termination "Abandoned"]

1. Nf3 Nf6 1/2-1/2
`

// TestFilters: each filter on filterGames, the moves counted and the
// games dropped by reason; sequential and threaded alike.
func TestFilters(t *testing.T) {
	moves := func(f GameFilter, threads int) (string, Stats) {
		b := NewBuilder(Options{MaxPly: 10, MinGame: 1, Filter: f, Threads: threads})
		if err := b.AddPGN(bytes.NewReader([]byte(filterGames)), "f.pgn"); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range b.Entries() {
			out = append(out, e.Move.String())
		}
		slices.Sort(out)
		return strings.Join(out, " "), b.Stats()
	}
	for _, c := range []struct {
		f        GameFilter
		want     string
		filtered string
	}{
		{GameFilter{}, "c2c4 c7c5 d2d4 d7d5 e2e4 e7e5 g1f3 g8f6", ""},
		{GameFilter{MinElo: 2000}, "e2e4 e7e5 g1f3 g8f6", "rating:2"},
		{GameFilter{MinMoverElo: 2400}, "c7c5 d7d5 e2e4 g1f3 g8f6", "rating:0"},
		{GameFilter{FromDate: 20240101}, "e2e4 e7e5 g1f3 g8f6", "date:2"},
		{GameFilter{FromDate: 20230601, ToDate: 20240630}, "d2d4 d7d5 e2e4 e7e5", "date:2"},
		{GameFilter{Players: []string{"ALICE"}}, "d7d5 e2e4", "player:2"},
		{GameFilter{Players: []string{"alice", " Bob "}}, "d2d4 d7d5 e2e4 e7e5", "player:2"},
		{GameFilter{TimeClasses: []string{"blitz", "Correspondence"}}, "c2c4 c7c5 e2e4 e7e5", "time control:2"},
		{GameFilter{MinBaseTime: 600}, "c2c4 c7c5 d2d4 d7d5 g1f3 g8f6", "time control:1"},
		{GameFilter{SkipTerminations: []string{"time forfeit", "Abandoned"}}, "c2c4 c7c5 e2e4 e7e5", "termination:2"},
	} {
		for _, threads := range []int{1, 2} {
			got, st := moves(c.f, threads)
			if got != c.want {
				t.Errorf("%+v: moves %s, want %s", c.f, got, c.want)
			}
			var filtered []string
			for _, r := range FilterReasons {
				if n := st.Filtered[r]; n > 0 {
					filtered = append(filtered, fmt.Sprintf("%s:%d", r, n))
				}
			}
			want := c.filtered
			if strings.HasSuffix(want, ":0") {
				want = ""
			}
			if strings.Join(filtered, ",") != want {
				t.Errorf("%+v: filtered %v, want %s", c.f, filtered, want)
			}
		}
	}
}

// TestMinShare: a move below the share of its position's games goes; the
// others stay with their weights.
func TestMinShare(t *testing.T) {
	var sb strings.Builder
	for i := range 20 {
		move := "e4"
		switch {
		case i < 2:
			move = "b3" // 10%
		case i < 3:
			move = "g4" // 5%
		}
		fmt.Fprintf(&sb, "[Result \"1-0\"]\n\n1. %s 1-0\n\n", move)
	}
	for _, c := range []struct {
		share float64
		want  string
	}{{0, "e2e4 b2b3 g2g4"}, {5, "e2e4 b2b3 g2g4"}, {5.1, "e2e4 b2b3"}, {10, "e2e4 b2b3"}, {50, "e2e4"}, {100, ""}} {
		b := NewBuilder(Options{MaxPly: 1, MinGame: 1, MinShare: c.share})
		if err := b.AddPGN(strings.NewReader(sb.String()), "s.pgn"); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range b.Entries() {
			got = append(got, e.Move.String())
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("-min-share %v: %v, want %s", c.share, got, c.want)
		}
	}
}
