package core

import "testing"

// The engine's bestmove line read without allocating: its move and its
// ponder move, null when missing or not a move.
func TestParseBestMove(t *testing.T) {
	for _, tc := range []struct{ line, move, ponder string }{
		{"bestmove e2e4 ponder e7e5", "e2e4", "e7e5"},
		{"bestmove  e7e8q\tponder  d7d5 ", "e7e8q", "d7d5"},
		{"bestmove e2e4", "e2e4", ""},
		{"bestmove e2e4 ponder", "e2e4", ""},
		{"bestmove e2e4 ponder (none)", "e2e4", ""},
		{"bestmove (none)", "", ""},
		{"bestmove 0000", "", ""},
		{"bestmove e2e9", "", ""},
		{"bestmove e7e8k", "", ""},
		{"bestmove", "", ""},
	} {
		m, p := parseBestMove([]byte(tc.line))
		name := func(m interface {
			IsNull() bool
			String() string
		}) string {
			if m.IsNull() {
				return ""
			}
			return m.String()
		}
		if name(m) != tc.move || name(p) != tc.ponder {
			t.Errorf("%q: %q ponder %q, want %q ponder %q", tc.line, name(m), name(p), tc.move, tc.ponder)
		}
	}
	line := []byte("bestmove e2e4 ponder e7e5")
	if n := testing.AllocsPerRun(100, func() { parseBestMove(line) }); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
}
