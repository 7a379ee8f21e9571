package board

import "fmt"

// Key is a Polyglot position key: the XOR of the Random64 numbers of a
// position's pieces, castling rights, en-passant file and side to move.
type Key uint64

// String is the key as 16 lowercase hex digits, as PolyGlot prints it.
func (k Key) String() string { return fmt.Sprintf("%016x", uint64(k)) }

// Offsets of the parts of the Random64 table.
const (
	castleOffset    = 768
	enPassantOffset = 772
	turnOffset      = 780
)

// PieceKey is the Random64 number of a piece on s. kind is Polyglot's
// "kind of piece": black pawn 0, white pawn 1, black knight 2, ...,
// white king 11.
func PieceKey(kind int, s Square) Key { return Key(random64[64*kind+int(s)]) }

// CastleKey is the Random64 number of one castling right: 0 white short,
// 1 white long, 2 black short, 3 black long.
func CastleKey(right int) Key { return Key(random64[castleOffset+right]) }

// EnPassantKey is the Random64 number of an en-passant file (0 = a). It
// enters a key only when a pawn of the side to move could capture there.
func EnPassantKey(file int) Key { return Key(random64[enPassantOffset+file]) }

// TurnKey is the Random64 number that enters the key when White is to move.
func TurnKey() Key { return Key(random64[turnOffset]) }
