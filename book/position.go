package book

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/notnil/chess"
)

// Key is a Polyglot position key.
type Key uint64

// String is the key as 16 lowercase hex digits, as PolyGlot prints it.
func (k Key) String() string { return fmt.Sprintf("%016x", uint64(k)) }

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
	sqA1 Square = 0
	sqC1 Square = 2
	sqE1 Square = 4
	sqG1 Square = 6
	sqH1 Square = 7
	sqA8 Square = 56
	sqC8 Square = 58
	sqE8 Square = 60
	sqG8 Square = 62
	sqH8 Square = 63
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

func pieceZobrist(p Piece, s Square) uint64 { return random64[64*int(p-1)+int(s)] }

const (
	castleOffset    = 768
	enPassantOffset = 772
	turnOffset      = 780
)

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
	key            Key
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

// ParseFEN reads a FEN; the move counters may be omitted (4 fields).
func ParseFEN(fen string) (*Position, error) {
	_, p, err := parseFEN(fen)
	return p, err
}

// parseFEN reads a FEN into a rules-engine position (which, made this way,
// knows whether it is in check) and ours. It rejects positions that cannot
// arise in a game and that engines are known to crash on: not exactly one
// king a side, a pawn on the first or last rank, the side not to move in
// check.
func parseFEN(fen string) (cp *chess.Position, p *Position, err error) {
	fields := strings.Fields(fen)
	if len(fields) == 4 {
		fields = append(fields, "0", "1")
	}
	if len(fields) != 6 {
		return nil, nil, fmt.Errorf("bad FEN %q: want 4 or 6 fields, have %d", fen, len(fields))
	}
	board := fields[0]
	if strings.Count(board, "K") != 1 || strings.Count(board, "k") != 1 {
		return nil, nil, fmt.Errorf("bad FEN %q: each side needs exactly one king", fen)
	}
	rank8, _, _ := strings.Cut(board, "/")
	rank1 := board[strings.LastIndexByte(board, '/')+1:]
	if strings.ContainsAny(rank8, "Pp") || strings.ContainsAny(rank1, "Pp") {
		return nil, nil, fmt.Errorf("bad FEN %q: a pawn on the first or last rank", fen)
	}
	// UnmarshalText decodes the FEN once and works out check; a new Game
	// would also decode the start position and scan for repetitions, three
	// times the cost of a "position fen" line.
	cp = new(chess.Position)
	if err := cp.UnmarshalText([]byte(strings.Join(fields, " "))); err != nil {
		return nil, nil, fmt.Errorf("bad FEN %q: %v", fen, err)
	}
	// The counters are validated by the rules engine, which keeps them to
	// itself.
	halfmoveClock, _ := strconv.Atoi(fields[4])
	fullmove, _ := strconv.Atoi(fields[5])
	p = fromChess(cp, halfmoveClock, fullmove)
	if attacked(&p.board, kingSquare(&p.board, !p.whiteToMove), p.whiteToMove) {
		return nil, nil, fmt.Errorf("bad FEN %q: the side not to move is in check", fen)
	}
	return cp, p, nil
}

// pieceTypeFromChess maps the rules library's piece types, which it
// numbers in another order, to ours.
func pieceTypeFromChess(t chess.PieceType) PieceType {
	switch t {
	case chess.Knight:
		return Knight
	case chess.Bishop:
		return Bishop
	case chess.Rook:
		return Rook
	case chess.Queen:
		return Queen
	case chess.King:
		return King
	}
	return Pawn
}

// FromChess converts a rules-engine position. Move counters are read from
// its FEN.
func FromChess(cp *chess.Position) *Position {
	half, full := 0, 1
	if f := strings.Fields(cp.String()); len(f) == 6 {
		half, _ = strconv.Atoi(f[4])
		full, _ = strconv.Atoi(f[5])
	}
	return fromChess(cp, half, full)
}

func fromChess(cp *chess.Position, halfmoveClock, fullmove int) *Position {
	p := &Position{doublePushFile: -1, halfmoveClock: halfmoveClock, fullmove: max(fullmove, 1)}
	b := cp.Board()
	for s := 0; s < 64; s++ {
		cpc := b.Piece(chess.Square(s))
		if cpc == chess.NoPiece {
			continue
		}
		p.board[s] = MakePiece(pieceTypeFromChess(cpc.Type()), cpc.Color() == chess.White)
	}
	p.whiteToMove = cp.Turn() == chess.White
	cr := cp.CastleRights()
	for _, c := range []struct {
		color chess.Color
		side  chess.Side
		bit   uint8
	}{
		{chess.White, chess.KingSide, CastleWhiteShort},
		{chess.White, chess.QueenSide, CastleWhiteLong},
		{chess.Black, chess.KingSide, CastleBlackShort},
		{chess.Black, chess.QueenSide, CastleBlackLong},
	} {
		if cr.CanCastle(c.color, c.side) {
			p.castle |= c.bit
		}
	}
	p.castle &= p.castleRightsOnBoard()
	if ep := cp.EnPassantSquare(); ep != chess.NoSquare {
		p.doublePushFile = int8(Square(ep).File())
	}
	p.key = p.computeKey()
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
func (p *Position) Key() Key { return p.key }

// WhiteToMove reports whose turn it is.
func (p *Position) WhiteToMove() bool { return p.whiteToMove }

// Piece is what stands on s.
func (p *Position) Piece(s Square) Piece { return p.board[s] }

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
	if !p.board[NewSquare(f, row)].is(Pawn, !p.whiteToMove) {
		return -1
	}
	if f > 0 && p.board[NewSquare(f-1, row)] == capturer {
		return f
	}
	if f < 7 && p.board[NewSquare(f+1, row)] == capturer {
		return f
	}
	return -1
}

// computeKey is the key from scratch.
func (p *Position) computeKey() Key {
	var k uint64
	for s, pc := range p.board {
		if pc != NoPiece {
			k ^= pieceZobrist(pc, Square(s))
		}
	}
	k ^= p.castleKey()
	if f := p.EnPassantFile(); f >= 0 {
		k ^= random64[enPassantOffset+f]
	}
	if p.whiteToMove {
		k ^= random64[turnOffset]
	}
	return Key(k)
}

func (p *Position) castleKey() uint64 {
	var k uint64
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) != 0 {
			k ^= random64[castleOffset+i]
		}
	}
	return k
}

// ComputeKey recomputes the key from the board; Key returns the same value
// kept up to date incrementally.
func (p *Position) ComputeKey() Key { return p.computeKey() }

// isCastle reports whether m, made by a king from its home square, is
// castling, in either of the two spellings books use: king to rook (e1h1)
// or king to destination (e1g1). It returns the king's and rook's squares.
func (p *Position) isCastle(m Move) (kingTo, rookFrom, rookTo Square, ok bool) {
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc.Type() != King || (from != sqE1 && from != sqE8) || to.Row() != from.Row() {
		return 0, 0, 0, false
	}
	row := from.Row()
	switch to.File() {
	case 7, 6: // h: king to rook; g: king to destination
		kingTo, rookFrom, rookTo = NewSquare(6, row), NewSquare(7, row), NewSquare(5, row)
	case 0, 2:
		kingTo, rookFrom, rookTo = NewSquare(2, row), NewSquare(0, row), NewSquare(3, row)
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
func (p *Position) ToPlayed(m Move) Move {
	if kingTo, _, _, ok := p.isCastle(m); ok {
		return NewMove(m.From(), kingTo, NoPromo)
	}
	return m
}

// ToBook turns a played move into Polyglot's stored form: castling as king
// takes own rook (e1g1 becomes e1h1).
func (p *Position) ToBook(m Move) Move {
	if _, rookFrom, _, ok := p.isCastle(m); ok {
		return NewMove(m.From(), rookFrom, NoPromo)
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
func (p *Position) Play(m Move) {
	k := uint64(p.key)
	if f := p.EnPassantFile(); f >= 0 {
		k ^= random64[enPassantOffset+f]
	}
	k ^= p.castleKey()

	from, to := m.From(), m.To()
	pc := p.board[from]
	white := p.whiteToMove
	newDoublePush := int8(-1)
	p.halfmoveClock++

	if kingTo, rookFrom, rookTo, ok := p.isCastle(m); ok {
		rook := p.board[rookFrom]
		k ^= pieceZobrist(pc, from) ^ pieceZobrist(rook, rookFrom)
		p.board[from], p.board[rookFrom] = NoPiece, NoPiece
		for _, s := range [2]Square{kingTo, rookTo} {
			if q := p.board[s]; q != NoPiece { // only in an illegal "castling"
				k ^= pieceZobrist(q, s)
			}
		}
		k ^= pieceZobrist(pc, kingTo) ^ pieceZobrist(rook, rookTo)
		p.board[kingTo], p.board[rookTo] = pc, rook
	} else if pc != NoPiece && from != to {
		if captured := p.board[to]; captured != NoPiece {
			k ^= pieceZobrist(captured, to)
			p.halfmoveClock = 0
		}
		placed := pc
		if pc.Type() == Pawn {
			p.halfmoveClock = 0
			victim := NewSquare(to.File(), from.Row())
			switch {
			case from.File() != to.File() && p.board[to] == NoPiece && p.board[victim].is(Pawn, !white):
				// En passant: the captured pawn stands beside the from-square.
				k ^= pieceZobrist(p.board[victim], victim)
				p.board[victim] = NoPiece
			case to.Row()-from.Row() == 2 || from.Row()-to.Row() == 2:
				newDoublePush = int8(from.File())
			}
			if promo := m.Promo(); promo != NoPromo && promo <= PromoQueen {
				placed = MakePiece(PieceType(promo), white)
			}
		}
		k ^= pieceZobrist(pc, from) ^ pieceZobrist(placed, to)
		p.board[from], p.board[to] = NoPiece, placed
	}

	p.castle &= castleMask[from] & castleMask[to]
	k ^= p.castleKey()
	p.doublePushFile = newDoublePush
	p.whiteToMove = !white
	k ^= random64[turnOffset]
	if !white {
		p.fullmove++
	}
	if f := p.EnPassantFile(); f >= 0 {
		k ^= random64[enPassantOffset+f]
	}
	p.key = Key(k)
}

// KeyAfter is the key of the position after m, leaving p unchanged.
func (p *Position) KeyAfter(m Move) Key {
	q := *p
	q.Play(m)
	return q.key
}
