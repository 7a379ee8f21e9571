package board

import (
	"github.com/polyproxy/polyproxy/book"
)

// PieceType is the kind of a piece regardless of colour.
type PieceType uint8

const (
	Pawn PieceType = iota
	Knight
	Bishop
	Rook
	Queen
	King
)

// Piece is a coloured piece, 0 for an empty square. Piece-1 is Polyglot's
// "kind of piece" (black pawn 0, white pawn 1, ..., white king 11).
type Piece uint8

const NoPiece Piece = 0

// MakePiece returns the piece of type t and colour white.
func MakePiece(t PieceType, white bool) Piece {
	p := Piece(2*t + 1)
	if white {
		p++
	}
	return p
}

// Type is the piece's kind; meaningless for NoPiece.
func (p Piece) Type() PieceType { return PieceType((p - 1) / 2) }

// White reports a white piece.
func (p Piece) White() bool { return p != NoPiece && (p-1)&1 == 1 }

func (p Piece) is(t PieceType, white bool) bool { return p == MakePiece(t, white) }

// Castling rights as Polyglot orders them in the castle part of the table.
const (
	CastleWhiteShort uint8 = 1 << iota
	CastleWhiteLong
	CastleBlackShort
	CastleBlackLong
)

const (
	sqA1 book.Square = 0
	sqC1 book.Square = 2
	sqE1 book.Square = 4
	sqG1 book.Square = 6
	sqH1 book.Square = 7
	sqA8 book.Square = 56
	sqC8 book.Square = 58
	sqE8 book.Square = 60
	sqG8 book.Square = 62
	sqH8 book.Square = 63
)

// castleMask[s] is the set of rights that survive a move from or to s.
var castleMask = func() (m [64]uint8) {
	for i := range m {
		m[i] = 15
	}
	m[sqA1] &^= CastleWhiteLong
	m[sqH1] &^= CastleWhiteShort
	m[sqE1] &^= CastleWhiteShort | CastleWhiteLong
	m[sqA8] &^= CastleBlackLong
	m[sqH8] &^= CastleBlackShort
	m[sqE8] &^= CastleBlackShort | CastleBlackLong
	return
}()

// pieceKey is the Random64 number of p on s: Piece-1 is Polyglot's kind
// of piece.
func pieceKey(p Piece, s book.Square) book.Key { return book.PieceKey(int(p-1), s) }

// Position is the minimal state a Polyglot key depends on, with the key kept
// up to date move by move. It does not check legality: callers apply only
// moves a rules engine has accepted.
type Position struct {
	board       [64]Piece
	whiteToMove bool
	castle      uint8
	// doublePushFile is the file of a pawn that just advanced two squares,
	// or -1; it enters the key only when a pawn of the side to move stands
	// beside that pawn.
	doublePushFile int8
	halfmoveClock  int
	fullmove       int
	key            book.Key
}

// StartFEN is the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// StartPosition returns the standard starting position.
func StartPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err)
	}
	return p
}

// castleRightsOnBoard drops rights whose king or rook is not at home, so a
// sloppy FEN cannot give a key no game can reach.
func (p *Position) castleRightsOnBoard() uint8 {
	r := uint8(0)
	if p.board[sqE1].is(King, true) {
		if p.board[sqH1].is(Rook, true) {
			r |= CastleWhiteShort
		}
		if p.board[sqA1].is(Rook, true) {
			r |= CastleWhiteLong
		}
	}
	if p.board[sqE8].is(King, false) {
		if p.board[sqH8].is(Rook, false) {
			r |= CastleBlackShort
		}
		if p.board[sqA8].is(Rook, false) {
			r |= CastleBlackLong
		}
	}
	return r
}

// Key is the position's Polyglot key.
func (p *Position) Key() book.Key { return p.key }

// WhiteToMove reports whose turn it is.
func (p *Position) WhiteToMove() bool { return p.whiteToMove }

// Piece is what stands on s.
func (p *Position) Piece(s book.Square) Piece { return p.board[s] }

// Castling is the set of castling rights (Castle* bits).
func (p *Position) Castling() uint8 { return p.castle }

// FullMove is the FEN move counter: 1 at the start, +1 after each Black move.
func (p *Position) FullMove() int { return p.fullmove }

// HalfmoveClock counts plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.halfmoveClock }

// EnPassantFile is the file whose number enters the key, or -1: set only
// when a pawn of the side to move stands beside a pawn that just made a
// double push (whether or not the capture would be legal).
func (p *Position) EnPassantFile() int {
	f := int(p.doublePushFile)
	if f < 0 {
		return -1
	}
	// The double-pushed pawn belongs to the side not to move: on rank 4 if
	// White pushed it (Black to move), on rank 5 if Black did.
	row, capturer := 4, MakePiece(Pawn, true)
	if !p.whiteToMove {
		row, capturer = 3, MakePiece(Pawn, false)
	}
	// A FEN may name an en-passant square with no pawn that could have
	// just made the push; no game reaches that, so it does not count.
	if !p.board[book.NewSquare(f, row)].is(Pawn, !p.whiteToMove) {
		return -1
	}
	if f > 0 && p.board[book.NewSquare(f-1, row)] == capturer {
		return f
	}
	if f < 7 && p.board[book.NewSquare(f+1, row)] == capturer {
		return f
	}
	return -1
}

// computeKey is the key from scratch.
func (p *Position) computeKey() book.Key {
	var k book.Key
	for s, pc := range p.board {
		if pc != NoPiece {
			k ^= pieceKey(pc, book.Square(s))
		}
	}
	k ^= p.castleKey()
	if f := p.EnPassantFile(); f >= 0 {
		k ^= book.EnPassantKey(f)
	}
	if p.whiteToMove {
		k ^= book.TurnKey()
	}
	return k
}

func (p *Position) castleKey() book.Key {
	var k book.Key
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) != 0 {
			k ^= book.CastleKey(i)
		}
	}
	return k
}

// ComputeKey recomputes the key from the board; Key returns the same value
// kept up to date incrementally.
func (p *Position) ComputeKey() book.Key { return p.computeKey() }

// isCastle reports whether m, made by a king from its home square, is
// castling, in either of the two spellings books use: king to rook (e1h1)
// or king to destination (e1g1). It returns the king's and rook's squares.
func (p *Position) isCastle(m book.Move) (kingTo, rookFrom, rookTo book.Square, ok bool) {
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc.Type() != King || (from != sqE1 && from != sqE8) || to.Row() != from.Row() {
		return 0, 0, 0, false
	}
	row := from.Row()
	switch to.File() {
	case 7, 6: // h: king to rook; g: king to destination
		kingTo, rookFrom, rookTo = book.NewSquare(6, row), book.NewSquare(7, row), book.NewSquare(5, row)
	case 0, 2:
		kingTo, rookFrom, rookTo = book.NewSquare(2, row), book.NewSquare(0, row), book.NewSquare(3, row)
	default:
		return 0, 0, 0, false
	}
	// Without the own rook in its corner neither spelling can be castling
	// (and e1h1 would not even be a move).
	if !p.board[rookFrom].is(Rook, pc.White()) {
		return 0, 0, 0, false
	}
	return kingTo, rookFrom, rookTo, true
}

// ToPlayed turns a move as stored in a book into the move as played in UCI:
// king-to-rook castling (e1h1) becomes e1g1, but only when a king stands on
// the from-square; every other move is returned as it is.
func (p *Position) ToPlayed(m book.Move) book.Move {
	if kingTo, _, _, ok := p.isCastle(m); ok {
		return book.NewMove(m.From(), kingTo, book.NoPromo)
	}
	return m
}

// ToBook turns a played move into Polyglot's stored form: castling as king
// takes own rook (e1g1 becomes e1h1).
func (p *Position) ToBook(m book.Move) book.Move {
	if _, rookFrom, _, ok := p.isCastle(m); ok {
		return book.NewMove(m.From(), rookFrom, book.NoPromo)
	}
	return m
}

// Play applies a legal move, given as played (e1g1) or as stored (e1h1),
// and updates the key incrementally. It does not check legality (callers
// apply moves a rules engine accepted), but no move code makes it panic.
//
// Position is a plain value without pointers: copying it (q := *p) is a
// cheap clone, which is how callers get "the key after this move" without
// touching p (see KeyAfter).
func (p *Position) Play(m book.Move) {
	k := p.key
	if f := p.EnPassantFile(); f >= 0 {
		k ^= book.EnPassantKey(f)
	}
	k ^= p.castleKey()

	from, to := m.From(), m.To()
	pc := p.board[from]
	white := p.whiteToMove
	newDoublePush := int8(-1)
	p.halfmoveClock++

	if kingTo, rookFrom, rookTo, ok := p.isCastle(m); ok {
		rook := p.board[rookFrom]
		k ^= pieceKey(pc, from) ^ pieceKey(rook, rookFrom)
		p.board[from], p.board[rookFrom] = NoPiece, NoPiece
		for _, s := range [2]book.Square{kingTo, rookTo} {
			if q := p.board[s]; q != NoPiece { // only in an illegal "castling"
				k ^= pieceKey(q, s)
			}
		}
		k ^= pieceKey(pc, kingTo) ^ pieceKey(rook, rookTo)
		p.board[kingTo], p.board[rookTo] = pc, rook
	} else if pc != NoPiece && from != to {
		if captured := p.board[to]; captured != NoPiece {
			k ^= pieceKey(captured, to)
			p.halfmoveClock = 0
		}
		placed := pc
		if pc.Type() == Pawn {
			p.halfmoveClock = 0
			victim := book.NewSquare(to.File(), from.Row())
			switch {
			case from.File() != to.File() && p.board[to] == NoPiece && p.board[victim].is(Pawn, !white):
				// En passant: the captured pawn stands beside the from-square.
				k ^= pieceKey(p.board[victim], victim)
				p.board[victim] = NoPiece
			case to.Row()-from.Row() == 2 || from.Row()-to.Row() == 2:
				newDoublePush = int8(from.File())
			}
			if promo := m.Promo(); promo != book.NoPromo && promo <= book.PromoQueen {
				placed = MakePiece(PieceType(promo), white)
			}
		}
		k ^= pieceKey(pc, from) ^ pieceKey(placed, to)
		p.board[from], p.board[to] = NoPiece, placed
	}

	p.castle &= castleMask[from] & castleMask[to]
	k ^= p.castleKey()
	p.doublePushFile = newDoublePush
	p.whiteToMove = !white
	k ^= book.TurnKey()
	if !white {
		p.fullmove++
	}
	if f := p.EnPassantFile(); f >= 0 {
		k ^= book.EnPassantKey(f)
	}
	p.key = k
}

// KeyAfter is the key of the position after m, leaving p unchanged.
func (p *Position) KeyAfter(m book.Move) book.Key {
	q := *p
	q.Play(m)
	return q.key
}
