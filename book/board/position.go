package board

import "github.com/polyproxy/polyproxy/internal/lazy"

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

// standardRookFiles are the rook files of the four rights in standard
// chess: h, a, h, a.
var standardRookFiles = [4]int8{7, 0, 7, 0}

// rightRow is the back rank of castling right i (0 for White's, 7 for
// Black's) and rightLong reports a long (a-side) right.
func rightRow(i int) int {
	if i >= 2 {
		return 7
	}
	return 0
}

func rightLong(i int) bool { return i&1 == 1 }

// rightIndex is the index of the castling right of the given colour and side.
func rightIndex(white, long bool) int {
	i := 0
	if long {
		i = 1
	}
	if !white {
		i += 2
	}
	return i
}

// pieceKey is the Random64 number of p on s: Piece-1 is Polyglot's kind
// of piece.
func pieceKey(p Piece, s Square) Key { return PieceKey(int(p-1), s) }

// Position is the minimal state a Polyglot key depends on, with the key kept
// up to date move by move. It does not check legality: callers apply only
// moves a rules engine has accepted.
type Position struct {
	board       [64]Piece
	whiteToMove bool
	// kingAt is each side's king square plus one ([1] White's), 0 for
	// none: the legality test of every move needs it.
	kingAt [2]uint8
	// check: the side to move is in check. Play keeps it from the move
	// (direct and discovered checks), which is right after a legal move;
	// after an illegal one nothing is promised, as for legality itself.
	check bool
	// chess960 makes castling Chess960's: any king and rook files, moves
	// only as king takes own rook (e1h1, b1a1), the FEN's castling field
	// in X-FEN. In standard chess castling is the king's two-square move
	// (e1g1), king-to-rook (e1h1) being accepted as the book's spelling.
	chess960 bool
	castle   uint8
	// castleRook[i] is the file of the rook castling right i belongs to;
	// in standard chess always h, a, h, a.
	castleRook [4]int8
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

// StartPosition returns the standard starting position, a copy of one
// read on first use: make-book starts every game from it, and reading the
// FEN would cost more than a short game's moves.
func StartPosition() *Position {
	p := startPosition.Get()
	return &p
}

var startPosition = lazy.Value[Position]{New: func() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err) // the start position is valid
	}
	return *p
}}

// castleRightsOnBoard drops rights whose king or rook is not at home (in
// Chess960: king on its back rank, the right's rook there on the right's
// side of it), so a sloppy FEN cannot give a key no game can reach.
func (p *Position) castleRightsOnBoard() uint8 {
	r := uint8(0)
	for i := 0; i < 4; i++ {
		white := i < 2
		row := rightRow(i)
		kingFile := 4
		if p.chess960 {
			ks := p.kingSquare(white)
			if ks == 64 || ks.Row() != row {
				continue
			}
			kingFile = ks.File()
		} else if !p.board[NewSquare(4, row)].is(King, white) {
			continue
		}
		rf := int(p.castleRook[i])
		if rf < 0 || rf > 7 || (rightLong(i) != (rf < kingFile)) || rf == kingFile {
			continue
		}
		if p.board[NewSquare(rf, row)].is(Rook, white) {
			r |= 1 << i
		}
	}
	return r
}

// Chess960 reports whether castling follows Chess960's rules here.
func (p *Position) Chess960() bool { return p.chess960 }

// CastlingRook is the square of the rook castling right i (a Castle* bit's
// index: 0 White short, 1 White long, 2 Black short, 3 Black long) belongs
// to, and whether the right is held.
func (p *Position) CastlingRook(i int) (Square, bool) {
	if i < 0 || i > 3 || p.castle&(1<<i) == 0 {
		return 0, false
	}
	return NewSquare(int(p.castleRook[i]), rightRow(i)), true
}

// StandardCastling reports that every castling right held is one standard
// chess has: the king on the e-file, the rook in its corner. A FEN read
// as Chess960 whose rights are not is a Chess960 position only.
func (p *Position) StandardCastling() bool {
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) == 0 {
			continue
		}
		if p.castleRook[i] != standardRookFiles[i] || !p.board[NewSquare(4, rightRow(i))].is(King, i < 2) {
			return false
		}
	}
	return true
}

// InnerRookCastling reports a castling right held by a rook that is not
// the outer one of its side (another rook of its colour stands on the back
// rank between it and the a- or h-file). The Polyglot key hashes castling
// rights by side only, as if the outer rook held them, so such a position
// has no key of its own: books leave it out and nothing answers from them
// there. In standard chess every right's rook is in its corner, so none is.
func (p *Position) InnerRookCastling() bool {
	if !p.chess960 {
		return false
	}
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) != 0 && p.outerRookBeyond(i) {
			return true
		}
	}
	return false
}

// NoKeyReason is why the position has no Polyglot key of its own, "" when
// it has: a Chess960 castling right held by an inner rook
// (InnerRookCastling). Books leave such positions out, and nothing
// answers there from the entries of another position with the same key.
func (p *Position) NoKeyReason() string {
	if p.InnerRookCastling() {
		return "no book key: a castling right is held by an inner rook, which the Polyglot key cannot tell from the outer rook's"
	}
	return ""
}

// outerRookBeyond reports a rook of right i's colour on its back rank
// further toward the edge than the right's rook.
func (p *Position) outerRookBeyond(i int) bool {
	row, rook := rightRow(i), MakePiece(Rook, i < 2)
	step, edge := 1, 8
	if rightLong(i) {
		step, edge = -1, -1
	}
	for f := int(p.castleRook[i]) + step; f != edge; f += step {
		if p.board[NewSquare(f, row)] == rook {
			return true
		}
	}
	return false
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
	var k Key
	for s, pc := range p.board {
		if pc != NoPiece {
			k ^= pieceKey(pc, Square(s))
		}
	}
	k ^= p.castleKey()
	if f := p.EnPassantFile(); f >= 0 {
		k ^= EnPassantKey(f)
	}
	if p.whiteToMove {
		k ^= TurnKey()
	}
	return k
}

func (p *Position) castleKey() Key {
	var k Key
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) != 0 {
			k ^= CastleKey(i)
		}
	}
	return k
}

// ComputeKey recomputes the key from the board; Key returns the same value
// kept up to date incrementally.
func (p *Position) ComputeKey() Key { return p.computeKey() }

// isCastle reports whether m, made by a king, is castling, and returns the
// king's and rook's squares. In standard chess the king stands on its home
// square and m is written either way books and GUIs do: king to rook (e1h1)
// or king to destination (e1g1). In Chess960 castling is only king takes
// own rook (b1a1, f1h1). Whether castling is legal is castleMove's matter.
func (p *Position) isCastle(m Move) (kingTo, rookFrom, rookTo Square, ok bool) {
	from, to := m.From(), m.To()
	pc := p.board[from]
	if pc == NoPiece || pc.Type() != King || to.Row() != from.Row() || (from.Row() != 0 && from.Row() != 7) {
		return 0, 0, 0, false
	}
	row := from.Row()
	if p.chess960 {
		if !p.board[to].is(Rook, pc.White()) {
			return 0, 0, 0, false
		}
		rookFrom = to
	} else {
		if from.File() != 4 {
			return 0, 0, 0, false
		}
		switch to.File() {
		case 7, 6: // h: king to rook; g: king to destination
			rookFrom = NewSquare(7, row)
		case 0, 2:
			rookFrom = NewSquare(0, row)
		default:
			return 0, 0, 0, false
		}
		// Without the own rook in its corner neither spelling can be
		// castling (and e1h1 would not even be a move).
		if !p.board[rookFrom].is(Rook, pc.White()) {
			return 0, 0, 0, false
		}
	}
	if rookFrom.File() > from.File() {
		return NewSquare(6, row), rookFrom, NewSquare(5, row), true
	}
	return NewSquare(2, row), rookFrom, NewSquare(3, row), true
}

// ToPlayed turns a move as stored in a book into the move as played in UCI:
// king-to-rook castling (e1h1) becomes e1g1, but only when a king stands on
// the from-square; every other move is returned as it is. In Chess960 the
// two forms are the same (king takes own rook).
func (p *Position) ToPlayed(m Move) Move {
	if p.chess960 {
		return m
	}
	if kingTo, _, _, ok := p.isCastle(m); ok {
		return NewMove(m.From(), kingTo, NoPromo)
	}
	return m
}

// Stores reports whether stored, a move as a book keeps it, is the move
// played: castling matches in either spelling books use (king takes rook,
// e1h1, or king to its square, e1g1; in Chess960 only the first), every
// other move, promotions included, as it is. Every reader and writer of
// books (the chooser, learning, the editor) matches a played move to a
// book's entry by it.
func (p *Position) Stores(stored, played Move) bool {
	return p.ToPlayed(stored) == p.ToPlayed(played)
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
	k := p.key
	if f := p.EnPassantFile(); f >= 0 {
		k ^= EnPassantKey(f)
	}
	k ^= p.castleKey()

	from, to := m.From(), m.To()
	pc := p.board[from]
	white := p.whiteToMove
	newDoublePush := int8(-1)
	p.halfmoveClock++
	simple := false // one piece moved, perhaps capturing on its target

	if kingTo, rookFrom, rookTo, ok := p.isCastle(m); ok {
		rook := p.board[rookFrom]
		k ^= pieceKey(pc, from) ^ pieceKey(rook, rookFrom)
		p.board[from], p.board[rookFrom] = NoPiece, NoPiece
		for _, s := range [2]Square{kingTo, rookTo} {
			if q := p.board[s]; q != NoPiece { // only in an illegal "castling"
				k ^= pieceKey(q, s)
				p.lost(q)
			}
		}
		k ^= pieceKey(pc, kingTo) ^ pieceKey(rook, rookTo)
		p.board[kingTo], p.board[rookTo] = pc, rook
		p.placed(pc, kingTo)
	} else if pc != NoPiece && from != to {
		simple = true
		if captured := p.board[to]; captured != NoPiece {
			k ^= pieceKey(captured, to)
			p.halfmoveClock = 0
			p.lost(captured)
		}
		placed := pc
		if pc.Type() == Pawn {
			p.halfmoveClock = 0
			victim := NewSquare(to.File(), from.Row())
			switch {
			case from.File() != to.File() && p.board[to] == NoPiece && p.board[victim].is(Pawn, !white):
				// En passant: the captured pawn stands beside the from-square.
				simple = false
				k ^= pieceKey(p.board[victim], victim)
				p.board[victim] = NoPiece
			case to.Row()-from.Row() == 2 || from.Row()-to.Row() == 2:
				newDoublePush = int8(from.File())
			}
			if promo := m.Promo(); promo != NoPromo && promo <= PromoQueen {
				placed = MakePiece(PieceType(promo), white)
			}
		}
		k ^= pieceKey(pc, from) ^ pieceKey(placed, to)
		p.board[from], p.board[to] = NoPiece, placed
		p.placed(placed, to)
	}

	if p.castle != 0 {
		if p.chess960 {
			p.castle &= p.rightsKept(pc, from, to)
		} else {
			p.castle &= standardRightsKept[from] & standardRightsKept[to]
		}
	}
	k ^= p.castleKey()
	p.doublePushFile = newDoublePush
	p.whiteToMove = !white
	k ^= TurnKey()
	if !white {
		p.fullmove++
	}
	if f := p.EnPassantFile(); f >= 0 {
		k ^= EnPassantKey(f)
	}
	p.key = k
	p.check = p.givesCheck(from, to, simple)
}

// givesCheck reports whether the move from-to just played attacks the
// king of the side now to move: by the piece on its target square or by a
// slider of the mover that it uncovered. A move that was not an ordinary
// one (simple: a castling or an en passant capture, which move or take a
// second piece, or no move at all) looks at every attack.
func (p *Position) givesCheck(from, to Square, simple bool) bool {
	mover := !p.whiteToMove
	ks := p.kingSquare(p.whiteToMove)
	if ks == 64 {
		return false
	}
	placed := p.board[to]
	if !simple || placed == NoPiece || placed.White() != mover {
		return attacked(&p.board, ks, mover)
	}
	switch placed.Type() {
	case Pawn:
		row := to.Row() + 1
		if !mover {
			row = to.Row() - 1
		}
		if ks.Row() == row && (ks.File()-to.File() == 1 || to.File()-ks.File() == 1) {
			return true
		}
	case Knight:
		for _, t := range knightJumps[ks] {
			if t == to {
				return true
			}
		}
	case King:
		for _, t := range kingSteps[ks] {
			if t == to {
				return true
			}
		}
	default:
		if d := lineDir[ks][to]; d >= 0 && sliderOn(placed, d, mover) && firstOn(&p.board, ks, d) == to {
			return true
		}
	}
	if d := lineDir[ks][from]; d >= 0 {
		if s := firstOn(&p.board, ks, d); s != 64 && sliderOn(p.board[s], d, mover) {
			return true
		}
	}
	return false
}

// placed keeps kingAt when pc, a king, lands on s.
func (p *Position) placed(pc Piece, s Square) {
	if pc.Type() == King {
		p.kingAt[kingIndex(pc.White())] = uint8(s) + 1
	}
}

// lost keeps kingAt when pc leaves the board: only a king captured by an
// illegal move, which Play makes as given.
func (p *Position) lost(pc Piece) {
	if pc.Type() == King {
		p.kingAt[kingIndex(pc.White())] = 0
	}
}

// kingSquare is where the king of colour white stands, or 64 when there
// is none (the zero Position).
func (p *Position) kingSquare(white bool) Square {
	if k := p.kingAt[kingIndex(white)]; k != 0 {
		return Square(k - 1)
	}
	return 64
}

func kingIndex(white bool) int {
	if white {
		return 1
	}
	return 0
}

// standardRightsKept[s] is the set of rights that survive a move from or
// to s in standard chess, where kings and rooks start on known squares: a
// table lookup is all make-book's replay pays a ply. Data, not computed
// at start-up; TestStandardRightsKeptAreTheRules checks it.
var standardRightsKept = [64]uint8{
	13, 15, 15, 15, 12, 15, 15, 14,
	15, 15, 15, 15, 15, 15, 15, 15,
	15, 15, 15, 15, 15, 15, 15, 15,
	15, 15, 15, 15, 15, 15, 15, 15,
	15, 15, 15, 15, 15, 15, 15, 15,
	15, 15, 15, 15, 15, 15, 15, 15,
	15, 15, 15, 15, 15, 15, 15, 15,
	7, 15, 15, 15, 3, 15, 15, 11,
}

// rightsKept is the set of castling rights that survive a move of pc from
// from to to: a king move ends its side's rights, and a move from or onto a
// right's rook square ends that right.
func (p *Position) rightsKept(pc Piece, from, to Square) uint8 {
	kept := uint8(15)
	if pc != NoPiece && pc.Type() == King {
		if pc.White() {
			kept &^= CastleWhiteShort | CastleWhiteLong
		} else {
			kept &^= CastleBlackShort | CastleBlackLong
		}
	}
	for i := 0; i < 4; i++ {
		if s := NewSquare(int(p.castleRook[i]), rightRow(i)); s == from || s == to {
			kept &^= 1 << i
		}
	}
	return kept
}

// KeyAfter is the key of the position after m, leaving p unchanged.
func (p *Position) KeyAfter(m Move) Key {
	q := *p
	q.Play(m)
	return q.key
}
