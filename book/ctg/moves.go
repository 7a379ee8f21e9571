package ctg

import (
	"fmt"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/lazy"
)

// A book move is one byte naming a piece of the side to move (the book's
// White, after the colour mirroring) by its kind and its index among the
// pieces of that kind in scan order (a1, a2, ..., a8, b1, ..., h8), and a
// displacement: files to the right and ranks up, taken modulo 8, so that
// the move wraps around the board's edge (a queen on g1 moving "+3 files"
// goes to b1). A pawn reaching the last rank promotes to a queen: the byte
// has no room for the promoted piece. Castling is the king moving two
// files. Only the first two queens, rooks, bishops and knights and the
// first king can be named.
//
// The table is the one DroidFish's reader holds, which goes back to the
// format's reverse engineering; 0x1a and 0xf9 both name the second queen
// moving six ranks up, so the second queen's move six files to the right
// has no byte (every reader known shares that gap).
var moveCodes = [...]struct {
	kind   board.PieceType
	index  int8
	dx, dy int8
	code   byte
}{
	// The king: a step each way, and castling as two files sideways.
	{board.King, 0, -2, 0, 0xf6},
	{board.King, 0, -1, -1, 0x8c},
	{board.King, 0, -1, 0, 0x97},
	{board.King, 0, -1, 1, 0xdf},
	{board.King, 0, 0, -1, 0x0a},
	{board.King, 0, 1, -1, 0x44},
	{board.King, 0, 0, 1, 0x13},
	{board.King, 0, 1, 1, 0x67},
	{board.King, 0, 2, 0, 0x6b},
	{board.King, 0, 1, 0, 0xbe},
	// The first queen in scan order, then the second.
	{board.Queen, 0, -7, 7, 0x42},
	{board.Queen, 0, -6, 6, 0x80},
	{board.Queen, 0, -5, 5, 0x4b},
	{board.Queen, 0, -3, 3, 0x7e},
	{board.Queen, 0, -2, 2, 0xd9},
	{board.Queen, 0, -1, 1, 0xd7},
	{board.Queen, 0, 0, 1, 0x05},
	{board.Queen, 0, 5, 5, 0x28},
	{board.Queen, 0, 6, 0, 0x29},
	{board.Queen, 0, 1, 0, 0x2f},
	{board.Queen, 0, 3, 0, 0x31},
	{board.Queen, 0, 0, 4, 0x37},
	{board.Queen, 0, 5, 0, 0x39},
	{board.Queen, 0, 3, 3, 0x45},
	{board.Queen, 0, 6, 6, 0x61},
	{board.Queen, 0, 2, 0, 0x74},
	{board.Queen, 0, 7, 0, 0x8f},
	{board.Queen, 0, 0, 3, 0x94},
	{board.Queen, 0, 0, 6, 0x9a},
	{board.Queen, 0, 0, 2, 0x9d},
	{board.Queen, 0, 2, 2, 0xa2},
	{board.Queen, 0, 0, 5, 0xb7},
	{board.Queen, 0, 4, 0, 0xe5},
	{board.Queen, 0, 4, 4, 0xe7},
	{board.Queen, 0, 7, 7, 0xed},
	{board.Queen, 0, 1, 1, 0xf1},
	{board.Queen, 0, 0, 7, 0xfd},
	{board.Queen, 1, -7, 7, 0x63},
	{board.Queen, 1, -6, 6, 0xab},
	{board.Queen, 1, -5, 5, 0x3b},
	{board.Queen, 1, -4, 4, 0x38},
	{board.Queen, 1, -3, 3, 0xfe},
	{board.Queen, 1, -2, 2, 0x8e},
	{board.Queen, 1, -1, 1, 0xee},
	{board.Queen, 1, 2, 0, 0x03},
	{board.Queen, 1, 4, 0, 0x08},
	{board.Queen, 1, 0, 6, 0x1a},
	{board.Queen, 1, 6, 6, 0x23},
	{board.Queen, 1, 5, 5, 0x41},
	{board.Queen, 1, 0, 1, 0x4d},
	{board.Queen, 1, 7, 7, 0x6f},
	{board.Queen, 1, 1, 1, 0x92},
	{board.Queen, 1, 0, 3, 0xa0},
	{board.Queen, 1, 3, 3, 0xae},
	{board.Queen, 1, 0, 4, 0xb0},
	{board.Queen, 1, 5, 0, 0xbc},
	{board.Queen, 1, 0, 2, 0xbd},
	{board.Queen, 1, 0, 5, 0xc6},
	{board.Queen, 1, 0, 7, 0xc9},
	{board.Queen, 1, 7, 0, 0xf0},
	{board.Queen, 1, 1, 0, 0xf8},
	{board.Queen, 1, 0, 6, 0xf9},
	{board.Queen, 1, 3, 0, 0xfa},
	{board.Queen, 1, 2, 2, 0xfb},
	// The rooks.
	{board.Rook, 0, 0, 6, 0x50},
	{board.Rook, 0, 6, 0, 0x52},
	{board.Rook, 0, 5, 0, 0x6e},
	{board.Rook, 0, 0, 3, 0x7a},
	{board.Rook, 0, 1, 0, 0x7f},
	{board.Rook, 0, 0, 1, 0x81},
	{board.Rook, 0, 7, 0, 0x86},
	{board.Rook, 0, 0, 5, 0x87},
	{board.Rook, 0, 3, 0, 0x98},
	{board.Rook, 0, 0, 4, 0x99},
	{board.Rook, 0, 2, 0, 0xcd},
	{board.Rook, 0, 0, 7, 0xe1},
	{board.Rook, 0, 0, 2, 0xe8},
	{board.Rook, 0, 4, 0, 0xef},
	{board.Rook, 1, 3, 0, 0x0e},
	{board.Rook, 1, 7, 0, 0x21},
	{board.Rook, 1, 0, 7, 0x69},
	{board.Rook, 1, 0, 6, 0x7b},
	{board.Rook, 1, 0, 1, 0x7d},
	{board.Rook, 1, 0, 5, 0xa5},
	{board.Rook, 1, 2, 0, 0xa9},
	{board.Rook, 1, 4, 0, 0xad},
	{board.Rook, 1, 5, 0, 0xb5},
	{board.Rook, 1, 1, 0, 0xc4},
	{board.Rook, 1, 0, 4, 0xc5},
	{board.Rook, 1, 6, 0, 0xd8},
	{board.Rook, 1, 0, 3, 0xe3},
	{board.Rook, 1, 0, 2, 0xf4},
	// The bishops (+4,+4 and -4,+4 are one displacement modulo 8).
	{board.Bishop, 0, -7, 7, 0x26},
	{board.Bishop, 0, -6, 6, 0xb2},
	{board.Bishop, 0, -5, 5, 0x3c},
	{board.Bishop, 0, -3, 3, 0x66},
	{board.Bishop, 0, -2, 2, 0xc3},
	{board.Bishop, 0, -1, 1, 0x1b},
	{board.Bishop, 0, 3, 3, 0x0d},
	{board.Bishop, 0, 7, 7, 0x12},
	{board.Bishop, 0, 5, 5, 0x15},
	{board.Bishop, 0, 1, 1, 0x2e},
	{board.Bishop, 0, 6, 6, 0x3a},
	{board.Bishop, 0, 4, 4, 0x6a},
	{board.Bishop, 0, 2, 2, 0xc1},
	{board.Bishop, 1, -7, 7, 0x72},
	{board.Bishop, 1, -6, 6, 0x79},
	{board.Bishop, 1, -5, 5, 0xcc},
	{board.Bishop, 1, -4, 4, 0x9f},
	{board.Bishop, 1, -3, 3, 0xca},
	{board.Bishop, 1, -2, 2, 0x22},
	{board.Bishop, 1, -1, 1, 0x54},
	{board.Bishop, 1, 6, 6, 0x09},
	{board.Bishop, 1, 7, 7, 0x1d},
	{board.Bishop, 1, 5, 5, 0x32},
	{board.Bishop, 1, 3, 3, 0xb9},
	{board.Bishop, 1, 2, 2, 0xc2},
	{board.Bishop, 1, 1, 1, 0xf5},
	// The knights.
	{board.Knight, 0, -2, -1, 0x0f},
	{board.Knight, 0, -2, 1, 0xf7},
	{board.Knight, 0, -1, -2, 0xda},
	{board.Knight, 0, -1, 2, 0x85},
	{board.Knight, 0, 1, -2, 0x8a},
	{board.Knight, 0, 2, -1, 0xe9},
	{board.Knight, 0, 1, 2, 0x34},
	{board.Knight, 0, 2, 1, 0x36},
	{board.Knight, 1, -2, -1, 0x01},
	{board.Knight, 1, -2, 1, 0xd3},
	{board.Knight, 1, -1, -2, 0x30},
	{board.Knight, 1, -1, 2, 0xf3},
	{board.Knight, 1, 1, -2, 0x2a},
	{board.Knight, 1, 2, -1, 0xe0},
	{board.Knight, 1, 1, 2, 0x4c},
	{board.Knight, 1, 2, 1, 0xd2},
	// Pawns, by index: up one, up two, and the two captures.
	{board.Pawn, 0, -1, 1, 0x0c},
	{board.Pawn, 0, 1, 1, 0x8b},
	{board.Pawn, 0, 0, 2, 0xdb},
	{board.Pawn, 0, 0, 1, 0xec},
	{board.Pawn, 1, -1, 1, 0xd1},
	{board.Pawn, 1, 0, 1, 0x04},
	{board.Pawn, 1, 0, 2, 0x62},
	{board.Pawn, 1, 1, 1, 0x96},
	{board.Pawn, 2, -1, 1, 0x27},
	{board.Pawn, 2, 0, 1, 0x55},
	{board.Pawn, 2, 1, 1, 0x7c},
	{board.Pawn, 2, 0, 2, 0x9b},
	{board.Pawn, 3, -1, 1, 0x06},
	{board.Pawn, 3, 0, 1, 0xcf},
	{board.Pawn, 3, 0, 2, 0xe6},
	{board.Pawn, 3, 1, 1, 0xeb},
	{board.Pawn, 4, -1, 1, 0xde},
	{board.Pawn, 4, 1, 1, 0x00},
	{board.Pawn, 4, 0, 2, 0x5f},
	{board.Pawn, 4, 0, 1, 0xbb},
	{board.Pawn, 5, -1, 1, 0x82},
	{board.Pawn, 5, 1, 1, 0x2d},
	{board.Pawn, 5, 0, 2, 0xb1},
	{board.Pawn, 5, 0, 1, 0xcb},
	{board.Pawn, 6, -1, 1, 0xc7},
	{board.Pawn, 6, 0, 1, 0x18},
	{board.Pawn, 6, 1, 1, 0x5c},
	{board.Pawn, 6, 0, 2, 0xc8},
	{board.Pawn, 7, -1, 1, 0x24},
	{board.Pawn, 7, 1, 1, 0x14},
	{board.Pawn, 7, 0, 2, 0x4a},
	{board.Pawn, 7, 0, 1, 0xa3},
}

// moveCode is a decoded move byte: which piece moves and by how much
// (displacements modulo 8, 0-7). ok is false for a byte no move has.
type moveCode struct {
	kind   board.PieceType
	index  int8
	dx, dy int8
	ok     bool
}

// codeTables are the move bytes both ways, built on first use: only a
// CTG book reads them, and every run of the proxy would pay.
var codeTables = lazy.Value[*moveCodeTables]{New: newMoveCodeTables}

// moveCodeTables map each byte to its move (decode) and back (encode,
// indexed by kind, index, dx and dy modulo 8, 0 for none: 0x00 is a pawn
// move, so a hit is told by the decode table).
type moveCodeTables struct {
	decode [256]moveCode
	encode map[moveCode]byte
}

func newMoveCodeTables() *moveCodeTables {
	t := &moveCodeTables{encode: make(map[moveCode]byte, len(moveCodes))}
	for _, c := range moveCodes {
		m := moveCode{c.kind, c.index, c.dx & 7, c.dy & 7, true}
		t.decode[c.code] = m
		if _, dup := t.encode[m]; !dup { // 0xf9 repeats 0x1a: the first byte is the one written
			t.encode[m] = c.code
		}
	}
	return t
}

// pieceNames are the kinds as a move byte's description names them.
var pieceNames = [...]string{board.Pawn: "pawn", board.Knight: "knight", board.Bishop: "bishop",
	board.Rook: "rook", board.Queen: "queen", board.King: "king"}

// describeCode says what a move byte means, for problems.
func describeCode(code byte) string {
	m := codeTables.Get().decode[code]
	if !m.ok {
		return fmt.Sprintf("move byte 0x%02x (no move has it)", code)
	}
	return fmt.Sprintf("move byte 0x%02x (%s %d, %+d files, %+d ranks modulo 8)", code, pieceNames[m.kind], m.index, m.dx, m.dy)
}

// MoveByte is the byte that names the legal move m of p (as played, or
// castling as stored, e1h1) in p's entry: what a CTG writer stores. It
// fails for a move no byte names: a third piece of a kind (the second of
// a pawn's file counts), the second queen's move six files to the right.
// An underpromotion gets the pawn move's byte, which reads back as the
// queen's promotion.
func MoveByte(p *board.Position, m board.Move) (byte, error) {
	m = p.ToPlayed(m)
	v := newView(p)
	from, to := v.toView(m.From()), v.toView(m.To())
	pc := v.squares[from]
	if pc == board.NoPiece || !pc.White() {
		return 0, fmt.Errorf("%s: no piece of the side to move on %s", m, m.From())
	}
	index := int8(0)
	for s := range board.Square(64) {
		// Scan order is file by file: s = file*8 + row.
		sq := board.NewSquare(int(s)>>3, int(s)&7)
		if sq == from {
			break
		}
		if v.squares[sq] == pc {
			index++
		}
	}
	mc := moveCode{pc.Type(), index, int8(to.File()-from.File()) & 7, int8(to.Row()-from.Row()) & 7, true}
	code, ok := codeTables.Get().encode[mc]
	if !ok {
		return 0, fmt.Errorf("%s: no move byte names %s %d moving %+d files, %+d ranks", m, pieceNames[mc.kind], index, mc.dx, mc.dy)
	}
	return code, nil
}
