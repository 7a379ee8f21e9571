package pgn

import "io"

// MoveText writes PGN move text for the tools that write games: tokens
// separated by spaces, a new line started where a token would pass column
// 79, as PGN's export format keeps lines under 80 characters.
type MoveText struct {
	W   io.StringWriter
	col int
}

// Add writes tok after a space, or at the start of a new line when it
// would not fit; glued, it follows the previous token without a space (a
// variation's closing ")").
func (t *MoveText) Add(tok string, glued bool) {
	switch {
	case t.col > 0 && t.col+1+len(tok) > 79:
		t.W.WriteString("\n")
		t.col = 0
	case t.col > 0 && !glued:
		t.W.WriteString(" ")
		t.col++
	}
	t.W.WriteString(tok)
	t.col += len(tok)
}

// Empty reports that nothing has been written on the current line.
func (t *MoveText) Empty() bool { return t.col == 0 }
