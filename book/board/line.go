package board

import (
	"fmt"
	"slices"
)

// Line is a game from a start position: the current Position and the key
// of every position reached, for repetition checks. A copy made with After
// never writes into the keys of the line it came from.
type Line struct {
	Pos  Position
	Keys []Key // Keys[0] is the start position's key
}

// NewLine starts a line at fen; "" or "startpos" is the start position. A
// FEN may omit the two move counters.
func NewLine(fen string) (*Line, error) { return NewLineVariant(fen, false) }

// NewLineVariant is NewLine for standard chess or, with chess960, for
// Chess960 (see ParseFENVariant); "startpos" is then the standard start
// with Chess960's castling.
func NewLineVariant(fen string, chess960 bool) (*Line, error) {
	if fen == "" || fen == "startpos" {
		fen = StartFEN
	}
	p, err := ParseFENVariant(fen, chess960)
	if err != nil {
		return nil, err
	}
	return &Line{Pos: *p, Keys: []Key{p.Key()}}, nil
}

// Play applies m if it is legal here, given as played (e1g1) or in book
// form (e1h1); it returns the move in played form.
func (l *Line) Play(m Move) (Move, error) {
	m = l.Pos.ToPlayed(m)
	if _, err := l.Pos.LegalMove(m); err != nil {
		return 0, fmt.Errorf("illegal move %s", m)
	}
	l.Pos.Play(m)
	l.Keys = append(l.Keys, l.Pos.Key())
	return m, nil
}

// PlayMoves applies moves in UCI or SAN form (ReadMove); an error names
// the bad move and its 1-based number, counting first moves played before
// these.
func (l *Line) PlayMoves(moves []string, first int) error {
	for i, s := range moves {
		m, err := l.Pos.ReadMove(s)
		if err == nil {
			_, err = l.Play(m)
		}
		if err != nil {
			return fmt.Errorf("move %d (%s): %v", first+i+1, s, err)
		}
	}
	return nil
}

// After is the line after one more move, leaving l as it is.
func (l *Line) After(m Move) (*Line, error) {
	next := *l
	next.Keys = slices.Clip(next.Keys) // appending must copy, never write into l's keys
	if _, err := next.Play(m); err != nil {
		return nil, err
	}
	return &next, nil
}

// Seen reports whether k is the key of a position reached so far.
func (l *Line) Seen(k Key) bool { return slices.Contains(l.Keys, k) }

// Repetitions is how often the current position occurred in the line,
// this time included. Only the positions since the last capture or pawn
// move can be the same (the fifty-move clock counts them), so the cost
// does not grow with the game's length.
func (l *Line) Repetitions() int {
	keys := l.Keys[max(len(l.Keys)-1-l.Pos.HalfmoveClock(), 0):]
	k, n := l.Pos.Key(), 0
	for _, seen := range keys {
		if seen == k {
			n++
		}
	}
	return n
}
