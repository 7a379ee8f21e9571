package book

import (
	"fmt"
	"slices"
	"strings"

	"github.com/notnil/chess"
)

func fromChessMove(m *chess.Move) Move {
	promo := NoPromo
	if m.Promo() != chess.NoPieceType {
		// Promo codes 1-4 number knight..queen as PieceType does.
		promo = Promo(pieceTypeFromChess(m.Promo()))
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

// Line is a game from a start position: a book Position (keys, and the
// legality of each move, see Position.LegalMove) with the key of every
// position reached, for repetition checks, and the rules library's view of
// the same position (Chess) for what only it decides: mate, stalemate, FEN.
//
// The rules library's position is built only when asked for: its move
// list costs 10-25 us per ply, which was most of a book answer (issue 3:
// under 50 us for two plies and go), while the board check costs well
// under 1 us. Copies of a Line (l2 := *l, with Keys clipped before
// appending) share the built positions. Not safe for concurrent use.
type Line struct {
	Pos  Position
	Keys []Key // Keys[0] is the start position's key
	node *chessNode
}

// chessNode is one position of a line for the rules library: built (cp
// set) or the move played from its parent.
type chessNode struct {
	cp     *chess.Position
	parent *chessNode
	move   Move // played form
}

// NewLine starts a line at fen; "" or "startpos" is the start position. A
// FEN may omit the two move counters.
func NewLine(fen string) (*Line, error) {
	if fen == "" || fen == "startpos" {
		fen = StartFEN
	}
	cp, p, err := parseFEN(fen)
	if err != nil {
		return nil, err
	}
	return &Line{Pos: *p, Keys: []Key{p.Key()}, node: &chessNode{cp: cp}}, nil
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
	l.node = &chessNode{parent: l.node, move: m}
	return m, nil
}

// Chess is the current position for the rules library, built from the
// last built one by its own moves (ValidMoves + Update, so check and
// castling rights are its own). nil only if the two disagree on a move's
// legality, which the cross-check tests rule out.
func (l *Line) Chess() *chess.Position {
	var todo []*chessNode
	n := l.node
	for n.cp == nil {
		todo = append(todo, n)
		n = n.parent
	}
	cp := n.cp
	for i := len(todo) - 1; i >= 0; i-- {
		cm := findLegal(cp, todo[i].move)
		if cm == nil {
			return nil
		}
		cp = cp.Update(cm)
		// Built: the parent is needed no more (frees the game's history).
		todo[i].cp, todo[i].parent = cp, nil
	}
	return cp
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
