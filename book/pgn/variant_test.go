package pgn

import (
	"strings"
	"testing"
)

func TestIsChess960(t *testing.T) {
	for _, c := range []struct {
		variant string
		want    bool
	}{
		{"Chess960", true},
		{"fischerandom", true},
		{"Fischer Random", true},
		{"Fischer-Random-Chess", true},
		{"Chess 960", true},
		{"FRC", true},
		{"960", true},
		{"", false},
		{"Standard", false},
		{"crazyhouse", false},
		{"chess9600", false},
		{strings.Repeat("chess960", 10), false},
		{"fischerrandomchess" + "x", false},
	} {
		if got := IsChess960(c.variant); got != c.want {
			t.Errorf("IsChess960(%q) = %v, want %v", c.variant, got, c.want)
		}
	}
	// make-book asks this of every game: it must not allocate.
	if n := testing.AllocsPerRun(100, func() { IsChess960("Fischer Random") }); n != 0 {
		t.Errorf("IsChess960 allocates %v times per call", n)
	}
}
