package board

// LegalMoves lists the position's legal moves in played form (castling as
// the king's two-square move; in Chess960 king takes own rook), piece by piece from a1 to h8. gen_test.go
// cross-checks it against notnil/chess.
func (p *Position) LegalMoves() []Move {
	var out []Move
	white := p.whiteToMove
	add := func(from, to Square) {
		if t := p.board[to]; (t == NoPiece || t.White() != white) && p.leavesKingSafe(from, to, false) {
			out = append(out, NewMove(from, to, NoPromo))
		}
	}
	for from := Square(0); from < 64; from++ {
		pc := p.board[from]
		if pc == NoPiece || pc.White() != white {
			continue
		}
		switch t := pc.Type(); t {
		case Pawn:
			out = p.pawnMoves(from, out)
		case Knight:
			for _, to := range knightJumps[from] {
				add(from, to)
			}
		case King:
			for _, to := range kingSteps[from] {
				add(from, to)
			}
			for _, long := range [2]bool{false, true} {
				if m, err := p.castleMove(long); err == nil && m.From() == from {
					out = append(out, m)
				}
			}
		default:
			d0, d1 := rayDirections(t)
			for d := d0; d < d1; d++ {
				for _, to := range rays[from][d] {
					add(from, to)
					if p.board[to] != NoPiece {
						break
					}
				}
			}
		}
	}
	return out
}

// pawnMoves appends the legal moves of the pawn on from: pushes, the
// double push, captures and en passant, each promotion spelled out.
func (p *Position) pawnMoves(from Square, out []Move) []Move {
	white := p.whiteToMove
	dir, startRow, lastRow := 1, 1, 7
	if !white {
		dir, startRow, lastRow = -1, 6, 0
	}
	row := from.Row() + dir
	if row < 0 || row > 7 {
		return out
	}
	add := func(to Square, enPassant bool) {
		if !p.leavesKingSafe(from, to, enPassant) {
			return
		}
		if to.Row() != lastRow {
			out = append(out, NewMove(from, to, NoPromo))
			return
		}
		for _, promo := range [4]Promo{PromoQueen, PromoRook, PromoBishop, PromoKnight} {
			out = append(out, NewMove(from, to, promo))
		}
	}
	if to := NewSquare(from.File(), row); p.board[to] == NoPiece {
		add(to, false)
		if from.Row() == startRow {
			if to2 := NewSquare(from.File(), row+dir); p.board[to2] == NoPiece {
				add(to2, false)
			}
		}
	}
	for _, df := range [2]int{-1, 1} {
		f := from.File() + df
		if f < 0 || f > 7 {
			continue
		}
		to := NewSquare(f, row)
		switch t := p.board[to]; {
		case t != NoPiece && t.White() != white:
			add(to, false)
		case t == NoPiece && p.isEnPassant(to):
			add(to, true)
		}
	}
	return out
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	ks := p.kingSquare(p.whiteToMove)
	return ks != 64 && attacked(&p.board, ks, !p.whiteToMove)
}

// SAN writes a legal move (played form) in Standard Algebraic Notation,
// with "+" for check and "#" for mate, as PGN writers do.
func (p *Position) SAN(m Move) string {
	from, to := m.From(), m.To()
	pc := p.board[from]
	var b []byte
	_, rookFrom, _, castles := p.isCastle(m)
	switch {
	case castles && rookFrom.File() > from.File():
		b = append(b, "O-O"...)
	case castles:
		b = append(b, "O-O-O"...)
	default:
		capture := p.board[to] != NoPiece
		if pc.Type() == Pawn {
			if from.File() != to.File() {
				b = append(b, byte('a'+from.File()), 'x')
			}
		} else {
			b = append(b, " PNBRQK"[pc.Type()+1])
			b = p.disambiguate(b, m)
			if capture {
				b = append(b, 'x')
			}
		}
		b = append(b, to.String()...)
		if promo := m.Promo(); promo != NoPromo {
			b = append(b, '=', " NBRQ"[promo])
		}
	}
	next := *p
	next.Play(m)
	if next.InCheck() {
		if len(next.LegalMoves()) == 0 {
			return string(append(b, '#'))
		}
		b = append(b, '+')
	}
	return string(b)
}

// disambiguate appends what tells m's piece from others of its kind that
// could also go to m's square: the file if that is enough, else the rank,
// else both.
func (p *Position) disambiguate(b []byte, m Move) []byte {
	from, to := m.From(), m.To()
	var others, sameFile, sameRow bool
	for _, o := range p.LegalMoves() {
		if o.To() != to || o.From() == from || p.board[o.From()] != p.board[from] {
			continue
		}
		others = true
		sameFile = sameFile || o.From().File() == from.File()
		sameRow = sameRow || o.From().Row() == from.Row()
	}
	if !others {
		return b
	}
	if !sameFile {
		return append(b, byte('a'+from.File()))
	}
	if !sameRow {
		return append(b, byte('1'+from.Row()))
	}
	return append(b, byte('a'+from.File()), byte('1'+from.Row()))
}

// Status is how a game stands in a position by the rules alone.
type Status int

const (
	Playing Status = iota
	Checkmate
	Stalemate
	// InsufficientMaterial: neither side can mate (kings alone, a single
	// minor piece, or bishops all on squares of one colour).
	InsufficientMaterial
)

// Status says whether the side to move is mated or stalemated, or the
// material cannot mate. (notnil/chess decides the same, cross-checked in
// notnil_test.go; ours keeps notnil out of the proxy's start-up.)
func (p *Position) Status() Status {
	if len(p.LegalMoves()) == 0 {
		if p.InCheck() {
			return Checkmate
		}
		return Stalemate
	}
	if p.insufficientMaterial() {
		return InsufficientMaterial
	}
	return Playing
}

func (p *Position) insufficientMaterial() bool {
	minors, knights := 0, 0
	var bishopSquares [2]int // by square colour
	for s, pc := range p.board {
		if pc == NoPiece {
			continue
		}
		switch pc.Type() {
		case Pawn, Rook, Queen:
			return false
		case Knight:
			knights++
			minors++
		case Bishop:
			minors++
			sq := Square(s)
			bishopSquares[(sq.File()+sq.Row())&1]++
		}
	}
	if minors <= 1 {
		return true
	}
	return knights == 0 && (bishopSquares[0] == 0 || bishopSquares[1] == 0)
}
