package link

import (
	"strings"
	"testing"
)

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
		m, p := ParseBestMove([]byte(tc.line))
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
	if n := testing.AllocsPerRun(100, func() { ParseBestMove(line) }); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
}

// Whatever the engine writes, the reader finds no move or a move that
// reads back as written, and a ponder move only after "ponder".
func FuzzParseBestMove(f *testing.F) {
	for _, s := range []string{"bestmove e2e4 ponder e7e5", "bestmove (none)", "bestmove", "bestmove e7e8q ponder", "bestmove  a1h8\tponder  h8a1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, p := ParseBestMove([]byte(line))
		words := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
		if !m.IsNull() && (len(words) < 2 || !strings.HasPrefix(words[1], m.String()[:4])) {
			t.Fatalf("%q: move %s is not its second word", line, m)
		}
		if !p.IsNull() && !strings.Contains(line, "ponder") {
			t.Fatalf("%q: ponder move %s without ponder", line, p)
		}
	})
}
