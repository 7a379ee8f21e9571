package pgn

import (
	"strings"
	"testing"
)

// TestMoveTextWraps checks lines stay under 80 columns, tokens are
// separated by one space, and a glued token takes none.
func TestMoveTextWraps(t *testing.T) {
	var sb strings.Builder
	mt := MoveText{W: &sb}
	if !mt.Empty() {
		t.Fatal("a new MoveText is not empty")
	}
	for i := 0; i < 40; i++ {
		mt.Add("12. Nxe4", false)
	}
	mt.Add(")", true)
	lines := strings.Split(sb.String(), "\n")
	if len(lines) < 2 {
		t.Fatalf("no line break in %q", sb.String())
	}
	for _, l := range lines {
		if len(l) > 79 || strings.HasPrefix(l, " ") || strings.Contains(l, "  ") {
			t.Fatalf("bad line %q", l)
		}
	}
	if !strings.HasSuffix(sb.String(), "Nxe4)") || mt.Empty() {
		t.Fatalf("glued token not glued: %q", sb.String())
	}
	if lines[0] != strings.TrimSpace(strings.Repeat("12. Nxe4 ", 8)) {
		t.Fatalf("first line %q: not eight tokens filling it", lines[0])
	}
}
