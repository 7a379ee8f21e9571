package board

import (
	"errors"
	"fmt"
)

// Legality on the 64-square board: attacks, the king's safety after a
// move, castling, and the SAN resolver built on them (see the package
// comment for why these are ours).

// Errors ParseSAN wraps, so callers can count skipped games by reason.
var (
	ErrSANSyntax     = errors.New("unreadable move")
	ErrIllegalMove   = errors.New("illegal move")
	ErrAmbiguousMove = errors.New("ambiguous move")
	ErrNullMove      = errors.New("null move")
)

// The step tables (knightJumps, kingSteps, rays, lineDir) are generated
// data in steps.go, checked against the rules by TestStepTablesAreTheRules.
//go:generate go test -run TestStepTablesAreTheRules -update

// rayDirections is the range of rays a slider of type t moves along: rook
// 0-3, bishop 4-7, queen all eight.
func rayDirections(t PieceType) (first, end int) {
	switch t {
	case Rook:
		return 0, 4
	case Bishop:
		return 4, 8
	}
	return 0, 8
}

// sliderOn reports whether pc is a slider of colour white that moves
// along direction d: a rook or queen on 0-3, a bishop or queen on 4-7.
func sliderOn(pc Piece, d int8, white bool) bool {
	if pc == MakePiece(Queen, white) {
		return true
	}
	if d < 4 {
		return pc == MakePiece(Rook, white)
	}
	return pc == MakePiece(Bishop, white)
}

// firstOn is the first occupied square from s outward in direction d, or
// 64 when there is none.
func firstOn(b *[64]Piece, s Square, d int8) Square {
	for _, t := range rays[s][d] {
		if b[t] != NoPiece {
			return t
		}
	}
	return 64
}

// attacked reports whether a piece of colour byWhite attacks s on board b.
func attacked(b *[64]Piece, s Square, byWhite bool) bool {
	f, r := s.File(), s.Row()
	// A white pawn attacks s from the row below, a black one from above.
	pr := r - 1
	if !byWhite {
		pr = r + 1
	}
	if pr >= 0 && pr < 8 {
		pawn := MakePiece(Pawn, byWhite)
		if f > 0 && b[NewSquare(f-1, pr)] == pawn {
			return true
		}
		if f < 7 && b[NewSquare(f+1, pr)] == pawn {
			return true
		}
	}
	knight := MakePiece(Knight, byWhite)
	for _, t := range knightJumps[s] {
		if b[t] == knight {
			return true
		}
	}
	king := MakePiece(King, byWhite)
	for _, t := range kingSteps[s] {
		if b[t] == king {
			return true
		}
	}
	queen := MakePiece(Queen, byWhite)
	for d := 0; d < 8; d++ {
		slider := MakePiece(Rook, byWhite)
		if d >= 4 {
			slider = MakePiece(Bishop, byWhite)
		}
		for _, t := range rays[s][d] {
			if pc := b[t]; pc != NoPiece {
				if pc == slider || pc == queen {
					return true
				}
				break
			}
		}
	}
	return false
}

// leavesKingSafe reports whether the side to move, playing the ordinary
// (non-castling) move from-to, does not leave its own king attacked.
// enPassant marks a pawn capture whose victim stands beside the from-square.
func (p *Position) leavesKingSafe(from, to Square, enPassant bool) bool {
	pc := p.board[from]
	if !enPassant && !p.check && pc.Type() != King {
		// Not in check, so only a pin can make the move illegal: the
		// piece on the line from the king to an enemy slider, nothing
		// between, and leaving the line. Most moves need no attack test.
		ks := p.kingSquare(p.whiteToMove)
		if ks == 64 {
			return true
		}
		d := lineDir[ks][from]
		if d < 0 || lineDir[ks][to] == d || firstOn(&p.board, ks, d) != from {
			return true
		}
		behind := firstOn(&p.board, from, d)
		return behind == 64 || !sliderOn(p.board[behind], d, !p.whiteToMove)
	}
	b := p.board
	b[to], b[from] = pc, NoPiece
	if enPassant {
		b[NewSquare(to.File(), from.Row())] = NoPiece
	}
	ks := to // a king move
	if pc != MakePiece(King, p.whiteToMove) {
		ks = p.kingSquare(p.whiteToMove)
	}
	if ks == 64 {
		return true // no king (a composed position): nothing to expose
	}
	return !attacked(&b, ks, !p.whiteToMove)
}

// isEnPassant reports whether a pawn of the side to move going to the empty
// square to is an en passant capture the position allows.
func (p *Position) isEnPassant(to Square) bool {
	if p.doublePushFile < 0 || to.File() != int(p.doublePushFile) || p.board[to] != NoPiece {
		return false
	}
	row, victimRow := 5, 4
	if !p.whiteToMove {
		row, victimRow = 2, 3
	}
	return to.Row() == row && p.board[NewSquare(to.File(), victimRow)] == MakePiece(Pawn, !p.whiteToMove)
}

// castleMove returns castling short or long, in played form, if it is
// legal: the right is held; every square between king and rook and their
// targets (g and f, or c and d), the targets included, is empty but for the
// two; the king is not in check, crosses no attacked square and does not
// land in check (looked at with the king and rook gone from their squares,
// so no piece of theirs shields one). In standard chess the played form is
// the king's two-square move, in Chess960 king takes own rook.
func (p *Position) castleMove(long bool) (Move, error) {
	white := p.whiteToMove
	i := rightIndex(white, long)
	name := "O-O"
	if long {
		name = "O-O-O"
	}
	if p.castle&(1<<i) == 0 {
		return 0, fmt.Errorf("%w: %s without the castling right", ErrIllegalMove, name)
	}
	row := rightRow(i)
	kingFrom := p.kingSquare(white)
	rookFrom := NewSquare(int(p.castleRook[i]), row)
	if kingFrom == 64 || kingFrom.Row() != row || !p.board[rookFrom].is(Rook, white) {
		return 0, fmt.Errorf("%w: %s without the king or rook at home", ErrIllegalMove, name)
	}
	kingTo, rookTo := NewSquare(6, row), NewSquare(5, row)
	if long {
		kingTo, rookTo = NewSquare(2, row), NewSquare(3, row)
	}
	clear := func(a, b Square) bool { // a to b, both included
		lo, hi := min(a.File(), b.File()), max(a.File(), b.File())
		for f := lo; f <= hi; f++ {
			if s := NewSquare(f, row); s != kingFrom && s != rookFrom && p.board[s] != NoPiece {
				return false
			}
		}
		return true
	}
	if !clear(kingFrom, kingTo) || !clear(rookFrom, rookTo) {
		return 0, fmt.Errorf("%w: %s through a piece", ErrIllegalMove, name)
	}
	b := p.board
	b[kingFrom] = NoPiece
	lo, hi := min(kingFrom.File(), kingTo.File()), max(kingFrom.File(), kingTo.File())
	for f := lo; f <= hi; f++ {
		if s := NewSquare(f, row); (s == kingFrom || s != kingTo) && attacked(&b, s, !white) {
			return 0, fmt.Errorf("%w: %s in or through check", ErrIllegalMove, name)
		}
	}
	b[rookFrom] = NoPiece
	b[rookTo] = MakePiece(Rook, white)
	if attacked(&b, kingTo, !white) {
		return 0, fmt.Errorf("%w: %s into check", ErrIllegalMove, name)
	}
	if p.chess960 {
		return NewMove(kingFrom, rookFrom, NoPromo), nil
	}
	return NewMove(kingFrom, kingTo, NoPromo), nil
}

// reaches reports whether the piece on from could move to to by its move
// pattern (pawns excluded), the path being clear for sliders.
func (p *Position) reaches(t PieceType, from, to Square) bool {
	switch t {
	case Knight:
		for _, s := range knightJumps[from] {
			if s == to {
				return true
			}
		}
		return false
	case King:
		for _, s := range kingSteps[from] {
			if s == to {
				return true
			}
		}
		return false
	}
	d0, d1 := rayDirections(t)
	for d := d0; d < d1; d++ {
		for _, s := range rays[from][d] {
			if s == to {
				return true
			}
			if p.board[s] != NoPiece {
				break
			}
		}
	}
	return false
}

// SANText is what ParseSAN accepts: a string, or bytes from a PGN buffer
// (so the make-book loop resolves moves without allocating).
type SANText interface{ ~string | ~[]byte }

// ParseSAN resolves a move in Standard Algebraic Notation ("Nf3", "exd6",
// "e8=Q+", "O-O", "0-0-0", "Raxd1", "Qh4xe1") against the position and
// returns it as played (castling as the king's move, e1g1). It accepts what
// PGN writers produce besides strict SAN: check and annotation suffixes
// (+ # ! ?) are ignored, "x" may be missing, a separator '-' may stand
// between a fully given from-square and the target, a piece may be
// over-disambiguated, promotions may omit '=' and use lower case, "e.p."
// may follow. The move must be legal; a SAN that fits more than one legal
// move is an error (ErrAmbiguousMove). Errors wrap ErrSANSyntax,
// ErrIllegalMove, ErrAmbiguousMove or ErrNullMove.
func ParseSAN[T SANText](p *Position, san T) (Move, error) {
	s := trimSANSuffixes(san)
	switch string(s) {
	case "":
		return 0, fmt.Errorf("%w: %q", ErrSANSyntax, string(san))
	case "--", "Z0", "0000", "@@@@":
		return 0, fmt.Errorf("%w: %q", ErrNullMove, string(san))
	case "O-O", "0-0", "o-o":
		return p.castleMove(false)
	case "O-O-O", "0-0-0", "o-o-o":
		return p.castleMove(true)
	}
	// Make-book's replay runs this for every ply: its parts are written
	// through a pointer and the pieces' search stays here because
	// BenchmarkReplaySAN (book/build, 16 runs each way) gives 117.8 ns a
	// ply so against 116.8 with ParseSAN in one piece (no significant
	// difference), where the search as a function of its own made it
	// 118.7 ns (+2.6%), and 134 ns with the parts passed by value too.
	var m sanParts
	if !parseSANParts(s, &m) {
		return 0, fmt.Errorf("%w: %q", ErrSANSyntax, string(san))
	}
	if m.piece != Pawn && m.promo != NoPromo {
		return 0, fmt.Errorf("%w: %q: only a pawn promotes", ErrSANSyntax, string(san))
	}
	if target := p.board[m.to]; target != NoPiece && target.White() == p.whiteToMove {
		return 0, fmt.Errorf("%w: %q: %s holds an own piece", ErrIllegalMove, string(san), m.to)
	}
	if m.piece == Pawn {
		return pawnSAN(p, san, &m)
	}
	// Collect pieces of the type that reach the target; at most two legal
	// ones matter (one is the answer, a second makes it ambiguous).
	var found Move
	count := 0
	to := m.to
	me := MakePiece(m.piece, p.whiteToMove)
	consider := func(from Square) {
		if p.board[from] != me ||
			(m.fromFile >= 0 && from.File() != m.fromFile) || (m.fromRow >= 0 && from.Row() != m.fromRow) ||
			!p.leavesKingSafe(from, to, false) {
			return
		}
		found = NewMove(from, to, NoPromo)
		count++
	}
	switch m.piece {
	case Knight:
		for _, from := range knightJumps[to] {
			consider(from)
		}
	case King:
		for _, from := range kingSteps[to] {
			consider(from)
		}
	default:
		d0, d1 := rayDirections(m.piece)
		for d := d0; d < d1; d++ {
			for _, from := range rays[to][d] {
				if p.board[from] != NoPiece {
					consider(from)
					break
				}
			}
		}
	}
	switch count {
	case 0:
		return 0, fmt.Errorf("%w: %q", ErrIllegalMove, string(san))
	case 1:
		return found, nil
	}
	return 0, fmt.Errorf("%w: %q", ErrAmbiguousMove, string(san))
}

// trimSANSuffixes cuts what may follow a SAN move: annotation glyphs,
// check marks, "e.p.".
func trimSANSuffixes[T SANText](s T) T {
	for len(s) > 0 {
		switch c := s[len(s)-1]; c {
		case '+', '#', '!', '?':
			s = s[:len(s)-1]
			continue
		}
		if len(s) > 4 && string(s[len(s)-4:]) == "e.p." {
			s = s[:len(s)-4]
			continue
		}
		break
	}
	return s
}

// sanParts are what a SAN move (not castling) says: the piece that
// moves, its target, the file and row it comes from when given (-1 when
// not), whether it captures, the promotion piece.
type sanParts struct {
	piece             PieceType
	to                Square
	fromFile, fromRow int
	capture           bool
	promo             Promo
}

// parseSANParts reads [piece][from file][from rank][x|-|:]<target>[[=|/]promotion]
// from s, its suffixes cut; false when s is not of that form.
func parseSANParts[T SANText](s T, m *sanParts) bool {
	*m = sanParts{piece: Pawn, fromFile: -1, fromRow: -1, promo: NoPromo}
	switch s[0] {
	case 'K':
		m.piece = King
	case 'Q':
		m.piece = Queen
	case 'R':
		m.piece = Rook
	case 'B':
		m.piece = Bishop
	case 'N':
		m.piece = Knight
	}
	if m.piece != Pawn || s[0] == 'P' {
		s = s[1:]
	}
	if n := len(s); n >= 3 {
		m.promo = PromoFromLetter(s[n-1])
		if m.promo != NoPromo {
			switch c := s[n-2]; {
			case c == '=' || c == '/':
				s = s[:n-2]
			case c >= '1' && c <= '8':
				s = s[:n-1]
			default:
				m.promo = NoPromo
			}
		}
	}
	// Now s is [from file][from rank][x|-|:]<target>.
	n := len(s)
	if n < 2 || s[n-2] < 'a' || s[n-2] > 'h' || s[n-1] < '1' || s[n-1] > '8' {
		return false
	}
	m.to = NewSquare(int(s[n-2]-'a'), int(s[n-1]-'1'))
	s = s[:n-2]
	if n := len(s); n > 0 && (s[n-1] == 'x' || s[n-1] == '-' || s[n-1] == ':') {
		m.capture = s[n-1] != '-'
		s = s[:n-1]
	}
	if len(s) > 0 && s[0] >= 'a' && s[0] <= 'h' {
		m.fromFile = int(s[0] - 'a')
		s = s[1:]
	}
	if len(s) > 0 && s[0] >= '1' && s[0] <= '8' {
		m.fromRow = int(s[0] - '1')
		s = s[1:]
	}
	return len(s) == 0
}

// pawnSAN resolves a pawn move: a push when no other from-file is given, a
// capture (normal or en passant) when it is.
func pawnSAN[T SANText](p *Position, san T, m *sanParts) (Move, error) {
	to, fromFile, fromRow, capture, promo := m.to, m.fromFile, m.fromRow, m.capture, m.promo
	white := p.whiteToMove
	pawn := MakePiece(Pawn, white)
	dir, lastRow := 1, 7
	if !white {
		dir, lastRow = -1, 0
	}
	var from Square
	enPassant := false
	if fromFile < 0 || fromFile == to.File() {
		if capture || p.board[to] != NoPiece {
			return 0, fmt.Errorf("%w: %q", ErrIllegalMove, string(san))
		}
		r := to.Row() - dir
		if r < 0 || r > 7 {
			return 0, fmt.Errorf("%w: %q", ErrIllegalMove, string(san))
		}
		from = NewSquare(to.File(), r)
		if p.board[from] == NoPiece && (white && to.Row() == 3 || !white && to.Row() == 4) {
			from = NewSquare(to.File(), r-dir) // double push over an empty square
		}
	} else {
		if fromFile-to.File() != 1 && to.File()-fromFile != 1 {
			return 0, fmt.Errorf("%w: %q", ErrIllegalMove, string(san))
		}
		r := to.Row() - dir
		if r < 0 || r > 7 {
			return 0, fmt.Errorf("%w: %q", ErrIllegalMove, string(san))
		}
		from = NewSquare(fromFile, r)
		if p.board[to] == NoPiece {
			if !p.isEnPassant(to) {
				return 0, fmt.Errorf("%w: %q", ErrIllegalMove, string(san))
			}
			enPassant = true
		}
	}
	if p.board[from] != pawn || (fromRow >= 0 && from.Row() != fromRow) {
		return 0, fmt.Errorf("%w: %q", ErrIllegalMove, string(san))
	}
	if to.Row() == lastRow {
		if promo == NoPromo {
			return 0, fmt.Errorf("%w: %q: promotion piece missing", ErrIllegalMove, string(san))
		}
	} else if promo != NoPromo {
		return 0, fmt.Errorf("%w: %q: promotion before the last rank", ErrIllegalMove, string(san))
	}
	if !p.leavesKingSafe(from, to, enPassant) {
		return 0, fmt.Errorf("%w: %q leaves the king in check", ErrIllegalMove, string(san))
	}
	return NewMove(from, to, promo), nil
}

// LegalMove checks a move given from-to (as played: castling as the king's
// move e1g1; the stored form e1h1 is also accepted) and returns it in played
// form. A pawn reaching the last rank needs its promotion piece.
func (p *Position) LegalMove(m Move) (Move, error) {
	from, to := m.From(), m.To()
	white := p.whiteToMove
	pc := p.board[from]
	if pc == NoPiece || pc.White() != white {
		return 0, fmt.Errorf("%w: %s: no piece of the side to move on %s", ErrIllegalMove, m, from)
	}
	if m.Promo() > PromoQueen {
		return 0, fmt.Errorf("%w: %s: bad promotion code", ErrIllegalMove, m)
	}
	if _, rookFrom, _, ok := p.isCastle(m); ok && m.Promo() == NoPromo {
		c, err := p.castleMove(rookFrom.File() < from.File())
		if err != nil {
			return 0, fmt.Errorf("%w (%s)", err, m)
		}
		if p.chess960 && c != m { // another rook holds the right
			return 0, fmt.Errorf("%w: %s: that rook has no castling right", ErrIllegalMove, m)
		}
		return c, nil
	}
	if target := p.board[to]; target != NoPiece && target.White() == white {
		return 0, fmt.Errorf("%w: %s: %s holds an own piece", ErrIllegalMove, m, to)
	}
	if pc.Type() == Pawn {
		fromFile := from.File()
		// The move's text only goes into errors; written on the stack, a
		// legal pawn move costs no allocation (the book chooser checks every
		// entry of each position it answers).
		var text [5]byte
		return pawnSAN(p, m.AppendTo(text[:0]), &sanParts{piece: Pawn, to: to, fromFile: fromFile, fromRow: from.Row(), capture: fromFile != to.File(), promo: m.Promo()})
	}
	if m.Promo() != NoPromo || !p.reaches(pc.Type(), from, to) {
		return 0, fmt.Errorf("%w: %s", ErrIllegalMove, m)
	}
	if !p.leavesKingSafe(from, to, false) {
		return 0, fmt.Errorf("%w: %s leaves the king in check", ErrIllegalMove, m)
	}
	return NewMove(from, to, NoPromo), nil
}
