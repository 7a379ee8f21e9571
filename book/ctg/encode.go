package ctg

import "github.com/polyproxy/polyproxy/book/board"

// A position is stored from the side to move's point of view: with Black
// to move the board is turned over (ranks reversed, colours swapped), so
// the book holds White-to-move positions only. When neither side may
// castle and the king of the side to move stands on files a-d, the board
// is also mirrored left to right, so the king ends on e-h. Its key is a
// bit string, filled from the most significant bit:
//
//   - a header byte, filled in last: the key's length in bytes (header
//     included) in bits 0-4, 0x20 if an en-passant file follows, 0x40 if
//     castling rights follow;
//   - the 64 squares file by file (a1, a2, ..., a8, b1, ...): 0 for an
//     empty square, else the piece's code (below) with its last bit 1 for
//     the other side's pieces;
//   - with neither en passant nor castling, one zero bit; then zero bits
//     until the bits left in the current byte are those the en-passant
//     file (3) and castling rights (4) need;
//   - the en-passant file (0-7), only when the side to move has a legal
//     en-passant capture;
//   - castling rights, one bit each: h8, a8, h1, a1 (the other side's
//     short and long, then the side to move's).
//
// Piece codes of the side to move (code, bits): king 100000, queen 100010,
// rook 10110, bishop 10100, knight 10010, pawn 110.
var pieceBits = [...]struct{ code, bits uint8 }{
	board.King: {0x20, 6}, board.Queen: {0x22, 6}, board.Rook: {0x16, 5},
	board.Bishop: {0x14, 5}, board.Knight: {0x12, 5}, board.Pawn: {0x06, 3},
}

// Header byte flags.
const (
	keyEnPassant = 0x20
	keyCastling  = 0x40
	keyLenMask   = 0x1f
)

// maxKeyLen is the longest key: 32 pieces of 6 bits and 32 empty squares
// need 224 bits, with the header and the 7 bits of en passant and
// castling 30 bytes.
const maxKeyLen = 32

// view is a position as the book stores it: the side to move as White,
// mirrored left to right when the rule says so.
type view struct {
	squares [64]board.Piece
	// turned: the board is turned over (Black to move); mirrored: files
	// are reversed.
	turned, mirrored bool
	castle           uint8 // board.Castle* of the view
	epFile           int   // of the view, or -1
}

// newView is how the book stores p.
func newView(p *board.Position) view {
	v := view{turned: !p.WhiteToMove(), epFile: enPassantFile(p)}
	c := p.Castling()
	if v.turned {
		// Black's rights become the view's White's, and the reverse.
		c = c>>2 | (c&3)<<2
	}
	v.castle = c
	king := -1
	for s := range board.Square(64) {
		pc := p.Piece(s)
		if pc == board.NoPiece {
			continue
		}
		own := pc.White() == p.WhiteToMove()
		if own && pc.Type() == board.King {
			king = s.File()
		}
		if v.turned {
			s = board.NewSquare(s.File(), 7-s.Row())
		}
		v.squares[s] = board.MakePiece(pc.Type(), own)
	}
	if v.castle == 0 && king >= 0 && king < 4 {
		v.mirrored = true
		var m [64]board.Piece
		for s, pc := range v.squares {
			m[board.Square(s)^7] = pc // file f to 7-f
		}
		v.squares = m
		if v.epFile >= 0 {
			v.epFile = 7 - v.epFile
		}
	}
	return v
}

// toReal is the real square of a square of the view (the two mirrorings
// are their own inverses).
func (v *view) toReal(s board.Square) board.Square {
	if v.mirrored {
		s ^= 7
	}
	if v.turned {
		s = board.NewSquare(s.File(), 7-s.Row())
	}
	return s
}

// toView is the view's square of a real square.
func (v *view) toView(s board.Square) board.Square {
	if v.turned {
		s = board.NewSquare(s.File(), 7-s.Row())
	}
	if v.mirrored {
		s ^= 7
	}
	return s
}

// enPassantFile is the file of the pawn the side to move can take en
// passant by a legal move, or -1: a capture that would leave the king in
// check does not count, as in the book's keys.
func enPassantFile(p *board.Position) int {
	f := p.EnPassantFile()
	if f < 0 {
		return -1
	}
	row, to := 4, board.NewSquare(f, 5)
	if !p.WhiteToMove() {
		row, to = 3, board.NewSquare(f, 2)
	}
	for _, ff := range [2]int{f - 1, f + 1} {
		if ff < 0 || ff > 7 {
			continue
		}
		if _, err := p.LegalMove(board.NewMove(board.NewSquare(ff, row), to, board.NoPromo)); err == nil {
			return f
		}
	}
	return -1
}

// bitWriter appends bits to a key, most significant first.
type bitWriter struct {
	buf [maxKeyLen]byte
	n   int // bits written
}

func (w *bitWriter) write(value uint8, bits int) {
	for i := bits - 1; i >= 0; i-- {
		if value>>i&1 != 0 {
			w.buf[w.n>>3] |= 0x80 >> (w.n & 7)
		}
		w.n++
	}
}

// key is the view's key.
func (v *view) key() []byte {
	var w bitWriter
	w.n = 8 // the header byte, written last
	for file := range 8 {
		for row := range 8 {
			pc := v.squares[board.NewSquare(file, row)]
			if pc == board.NoPiece {
				w.write(0, 1)
				continue
			}
			pb := pieceBits[pc.Type()]
			code := pb.code
			if !pc.White() {
				code |= 1
			}
			w.write(code, int(pb.bits))
		}
	}
	tail, header := 0, byte(0)
	if v.epFile >= 0 {
		tail += 3
		header |= keyEnPassant
	}
	if v.castle != 0 {
		tail += 4
		header |= keyCastling
	}
	if tail == 0 {
		w.write(0, 1)
	}
	for (8-w.n&7)&7 != tail {
		w.write(0, 1)
	}
	if v.epFile >= 0 {
		w.write(uint8(v.epFile), 3)
	}
	if v.castle != 0 {
		bit := func(right uint8) uint8 {
			if v.castle&right != 0 {
				return 1
			}
			return 0
		}
		w.write(bit(board.CastleBlackShort), 1)
		w.write(bit(board.CastleBlackLong), 1)
		w.write(bit(board.CastleWhiteShort), 1)
		w.write(bit(board.CastleWhiteLong), 1)
	}
	n := w.n / 8
	w.buf[0] = byte(n) | header
	return append([]byte(nil), w.buf[:n]...)
}

// Key is p's key in a CTG book: the bytes a page holds for it.
func Key(p *board.Position) []byte {
	v := newView(p)
	return v.key()
}

// hashTable is the format's 64 numbers the key's hash adds up.
var hashTable = [64]uint32{
	0x3100d2bf, 0x3118e3de, 0x34ab1372, 0x2807a847, 0x1633f566, 0x2143b359, 0x26d56488, 0x3b9e6f59,
	0x37755656, 0x3089ca7b, 0x18e92d85, 0x0cd0e9d8, 0x1a9e3b54, 0x3eaa902f, 0x0d9bfaae, 0x2f32b45b,
	0x31ed6102, 0x3d3c8398, 0x146660e3, 0x0f8d4b76, 0x02c77a5f, 0x146c8799, 0x1c47f51f, 0x249f8f36,
	0x24772043, 0x1fbc1e4d, 0x1e86b3fa, 0x37df36a6, 0x16ed30e4, 0x02c3148e, 0x216e5929, 0x0636b34e,
	0x317f9f56, 0x15f09d70, 0x131026fb, 0x38c784b1, 0x29ac3305, 0x2b485dc5, 0x3c049ddc, 0x35a9fbcd,
	0x31d5373b, 0x2b246799, 0x0a2923d3, 0x08a96e9d, 0x30031a9f, 0x08f525b5, 0x33611c06, 0x2409db98,
	0x0ca4feb2, 0x1000b71e, 0x30566e32, 0x39447d31, 0x194e3752, 0x08233a95, 0x0f38fe36, 0x29c7cd57,
	0x0f7b3a39, 0x328e8a16, 0x1e7d1388, 0x0fba78f5, 0x274c7e7c, 0x1e8be65c, 0x2fa0b0bb, 0x1eb6c371,
}

// Hash is a key's 32-bit hash: each nibble of the key moves a running
// index into the table (by more the smaller the nibble), and the numbers
// it lands on are summed.
func Hash(key []byte) uint32 {
	var h uint32
	var at int
	for _, b := range key {
		at += int(0x0f-b&0x0f)<<2 + 1
		h += hashTable[at&63]
		at += int(0xf0-b&0xf0)>>2 + 1
		h += hashTable[at&63]
	}
	return h
}

// Candidates calls yield with the .cto indices where a key of hash h may
// be, in the order they are tried: for masks m = 0, 1, 3, 7, ... the index
// (h & m) + m, skipping those below the lower page bound and ending with
// the first at or above the upper one (or after mask 2^30-1). The bounds
// are signed, as the format's readers take them.
func Candidates(h uint32, lower, upper int32, yield func(index int32) bool) {
	for m := uint32(0); m < 0x7fffffff; m = 2*m + 1 {
		c := int32(h&m + m)
		if c < lower {
			continue
		}
		if !yield(c) || c >= upper {
			return
		}
	}
}
