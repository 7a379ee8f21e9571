package link

import "testing"

func TestWithMove(t *testing.T) {
	for _, tc := range [][2]string{
		{"position startpos", "position startpos moves e2e4"},
		{"position startpos moves", "position startpos moves e2e4"},
		{"position startpos  moves d2d4 d7d5", "position startpos  moves d2d4 d7d5 e2e4"},
		{"position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4"},
	} {
		if got := WithMove(tc[0], "e2e4"); got != tc[1] {
			t.Errorf("WithMove(%q) = %q", tc[0], got)
		}
	}
}
