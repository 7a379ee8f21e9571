package book

import (
	"fmt"
	"slices"
	"strings"

	"github.com/notnil/chess"
)

func fromChessMove(m *chess.Move) Move {
	promo := NoPromo
	switch m.Promo() {
	case chess.Knight:
		promo = PromoKnight
	case chess.Bishop:
		promo = PromoBishop
	case chess.Rook:
		promo = PromoRook
	case chess.Queen:
		promo = PromoQueen
	}
	return NewMove(Square(m.S1()), Square(m.S2()), promo)
}

// findLegal returns the rules engine's own move for m (played form), so
// that the position it leads to carries the move's check tag.
func findLegal(cp *chess.Position, m Move) *chess.Move {
	for _, cm := range cp.ValidMoves() {
		if fromChessMove(cm) == m {
			return cm
		}
	}
	return nil
}

// Line is a game from a start position, seen both by the rules engine
// (legality) and as a book Position (keys), with the key of every position
// reached, for repetition checks.
type Line struct {
	Chess *chess.Position
	Pos   Position
	Keys  []Key // Keys[0] is the start position's key
}

// NewLine starts a line at fen; "" or "startpos" is the start position. A
// FEN may omit the two move counters.
func NewLine(fen string) (*Line, error) {
	if fen == "" || fen == "startpos" {
		fen = StartFEN
	}
	cp, err := parseChessFEN(fen)
	if err != nil {
		return nil, err
	}
	p := FromChess(cp)
	return &Line{Chess: cp, Pos: *p, Keys: []Key{p.Key()}}, nil
}

// Play applies m if it is legal here, given as played (e1g1) or in book
// form (e1h1); it returns the move in played form.
func (l *Line) Play(m Move) (Move, error) {
	m = l.Pos.ToPlayed(m)
	cm := findLegal(l.Chess, m)
	if cm == nil {
		return 0, fmt.Errorf("illegal move %s", m)
	}
	l.Chess = l.Chess.Update(cm)
	l.Pos.Play(m)
	l.Keys = append(l.Keys, l.Pos.Key())
	return m, nil
}

// PlayMoves applies space-separated UCI moves; an error names the bad move
// and its 1-based index.
func (l *Line) PlayMoves(moves string) error {
	for i, s := range strings.Fields(moves) {
		m, err := ParseMove(s)
		if err == nil {
			_, err = l.Play(m)
		}
		if err != nil {
			return fmt.Errorf("move %d (%s): %v", i+1, s, err)
		}
	}
	return nil
}

// Seen reports whether k is the key of a position reached so far.
func (l *Line) Seen(k Key) bool { return slices.Contains(l.Keys, k) }
