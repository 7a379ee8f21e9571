package board

import "fmt"

// Square is a board square, a1=0, b1=1, ..., h8=63 (8*row + file).
type Square uint8

// NewSquare returns the square on file (0=a) and row (0=rank 1).
func NewSquare(file, row int) Square { return Square(row*8 + file) }

// File is 0 for the a-file through 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Row is 0 for the first rank through 7 for the eighth.
func (s Square) Row() int { return int(s) >> 3 }

func (s Square) String() string {
	if s > 63 {
		return "??"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Row())})
}

// ParseSquare reads a square such as "e4".
func ParseSquare(s string) (Square, error) {
	if len(s) == 2 {
		if sq, ok := squareOf(s[0], s[1]); ok {
			return sq, nil
		}
	}
	return 0, fmt.Errorf("bad square %q", s)
}

// Promo is Polyglot's promotion code: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen.
type Promo uint8

const (
	NoPromo Promo = iota
	PromoKnight
	PromoBishop
	PromoRook
	PromoQueen
)

const promoLetters = " nbrq"

// Move is Polyglot's 16-bit move code: bits 0-2 to file, 3-5 to row,
// 6-8 from file, 9-11 from row, 12-14 promotion. Castling is stored
// king-to-rook (e1h1) in Polyglot books; see Position.ToPlayed.
type Move uint16

// NewMove encodes a move.
func NewMove(from, to Square, promo Promo) Move {
	return Move(uint16(promo&7)<<12 | uint16(from)<<6 | uint16(to))
}

// From is the move's origin square.
func (m Move) From() Square { return Square(m >> 6 & 63) }

// To is the move's destination square.
func (m Move) To() Square { return Square(m & 63) }

// Promo is the promotion piece code (0 when none; 5-7 are invalid).
func (m Move) Promo() Promo { return Promo(m >> 12 & 7) }

// IsNull reports the move code 0 (a1a1), which books use as padding and
// readers must ignore.
func (m Move) IsNull() bool { return m&0x7fff == 0 }

// String is the move in UCI long algebraic form, as stored (e.g. "e1h1",
// "f2g1n"). An out-of-range promotion code prints as '?'.
func (m Move) String() string {
	var b [5]byte
	return string(m.AppendTo(b[:0]))
}

// AppendTo appends String's text to b, so hot paths can write a move
// without allocating.
func (m Move) AppendTo(b []byte) []byte {
	from, to := m.From(), m.To()
	b = append(b, byte('a'+from.File()), byte('1'+from.Row()), byte('a'+to.File()), byte('1'+to.Row()))
	if p := m.Promo(); p != NoPromo {
		if int(p) < len(promoLetters) {
			b = append(b, promoLetters[p])
		} else {
			b = append(b, '?')
		}
	}
	return b
}

// PromoFromLetter reads a promotion piece letter in either case (UCI writes
// lower case, SAN upper case); NoPromo for any other byte.
func PromoFromLetter(c byte) Promo {
	switch c {
	case 'n', 'N':
		return PromoKnight
	case 'b', 'B':
		return PromoBishop
	case 'r', 'R':
		return PromoRook
	case 'q', 'Q':
		return PromoQueen
	}
	return NoPromo
}

// ParseMove reads a move in UCI form ("e2e4", "e7e8q"): a word of a
// line, as a string or as bytes (an engine's line, read without a copy
// or an allocation).
func ParseMove[T ~string | ~[]byte](s T) (Move, error) {
	if len(s) != 4 && len(s) != 5 {
		return 0, fmt.Errorf("bad move %q", s)
	}
	from, ok := squareOf(s[0], s[1])
	if !ok {
		return 0, fmt.Errorf("bad move %q: bad square %q", s, s[0:2])
	}
	to, ok := squareOf(s[2], s[3])
	if !ok {
		return 0, fmt.Errorf("bad move %q: bad square %q", s, s[2:4])
	}
	promo := NoPromo
	if len(s) == 5 {
		if promo = PromoFromLetter(s[4]); promo == NoPromo {
			return 0, fmt.Errorf("bad promotion in move %q", s)
		}
	}
	return NewMove(from, to, promo), nil
}

// squareOf is the square of a file letter and a rank digit ("e", "4").
func squareOf(file, rank byte) (Square, bool) {
	if file < 'a' || file > 'h' || rank < '1' || rank > '8' {
		return 0, false
	}
	return NewSquare(int(file-'a'), int(rank-'1')), true
}
