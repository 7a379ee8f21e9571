package board

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book"
)

// pieceLetters lists the FEN letter of each Piece value (index 0: none).
const pieceLetters = " pPnNbBrRqQkK"

// ParseFEN reads a FEN; the move counters may be omitted (4 fields). It
// rejects positions that cannot arise in a game and that engines are known
// to crash on: not exactly one king a side, a pawn on the first or last
// rank, the side not to move in check. Castling rights whose king or rook
// is not at home are dropped, so a sloppy FEN cannot give a key no game
// can reach.
//
// It is the project's own decoder because a "position fen" line is on the
// proxy's answer path; fen_test.go cross-checks it against notnil/chess.
func ParseFEN(fen string) (*Position, error) {
	fields := strings.Fields(fen)
	if len(fields) == 4 {
		fields = append(fields, "0", "1")
	}
	if len(fields) != 6 {
		return nil, fmt.Errorf("bad FEN %q: want 4 or 6 fields, have %d", fen, len(fields))
	}
	bad := func(format string, args ...any) (*Position, error) {
		return nil, fmt.Errorf("bad FEN %q: %s", fen, fmt.Sprintf(format, args...))
	}
	p := &Position{doublePushFile: -1}
	if err := p.readPlacement(fields[0]); err != nil {
		return bad("%v", err)
	}
	switch fields[1] {
	case "w":
		p.whiteToMove = true
	case "b":
	default:
		return bad("side to move %q is not w or b", fields[1])
	}
	if fields[2] != "-" {
		for i := 0; i < len(fields[2]); i++ {
			bit := strings.IndexByte("KQkq", fields[2][i])
			if bit < 0 || p.castle&(1<<bit) != 0 {
				return bad("castling rights %q are not a subset of KQkq", fields[2])
			}
			p.castle |= 1 << bit
		}
	}
	if fields[3] != "-" {
		s, err := book.ParseSquare(fields[3])
		if err != nil {
			return bad("en-passant square %q", fields[3])
		}
		if p.justPushed(s) {
			p.doublePushFile = int8(s.File())
		}
	}
	var err error
	if p.halfmoveClock, err = strconv.Atoi(fields[4]); err != nil || p.halfmoveClock < 0 {
		return bad("half-move clock %q", fields[4])
	}
	if p.fullmove, err = strconv.Atoi(fields[5]); err != nil || p.fullmove < 1 {
		return bad("move number %q", fields[5])
	}
	if strings.Count(fields[0], "K") != 1 || strings.Count(fields[0], "k") != 1 {
		return bad("each side needs exactly one king")
	}
	for f := 0; f < 8; f++ {
		for _, row := range [2]int{0, 7} {
			if pc := p.board[book.NewSquare(f, row)]; pc != NoPiece && pc.Type() == Pawn {
				return bad("a pawn on the first or last rank")
			}
		}
	}
	if attacked(&p.board, kingSquare(&p.board, !p.whiteToMove), p.whiteToMove) {
		return bad("the side not to move is in check")
	}
	p.castle &= p.castleRightsOnBoard()
	p.key = p.computeKey()
	return p, nil
}

// justPushed reports whether a pawn of the side not to move can just have
// passed s with a double push: s on its third rank, empty, with the pawn
// beyond it and its start square empty. Any other en-passant square in a
// FEN is left out, so the position (and the FEN written from it) is one a
// game can reach.
func (p *Position) justPushed(s book.Square) bool {
	row, dir := 5, -1 // White to move: Black pushed through the sixth rank
	if !p.whiteToMove {
		row, dir = 2, 1
	}
	f := s.File()
	return s.Row() == row && p.board[s] == NoPiece &&
		p.board[book.NewSquare(f, row+dir)] == MakePiece(Pawn, !p.whiteToMove) &&
		p.board[book.NewSquare(f, row-dir)] == NoPiece
}

// readPlacement reads the FEN's first field: ranks 8 to 1, '/' between.
func (p *Position) readPlacement(field string) error {
	row, file := 7, 0
	for i := 0; i < len(field); i++ {
		c := field[i]
		switch {
		case c == '/':
			if file != 8 || row == 0 {
				return fmt.Errorf("piece placement %q: a rank without 8 squares", field)
			}
			row, file = row-1, 0
		case c >= '1' && c <= '8':
			file += int(c - '0')
			if file > 8 {
				return fmt.Errorf("piece placement %q: a rank of more than 8 squares", field)
			}
		default:
			k := strings.IndexByte(pieceLetters, c)
			if k <= 0 {
				return fmt.Errorf("piece placement %q: %q is not a piece", field, c)
			}
			if file >= 8 {
				return fmt.Errorf("piece placement %q: a rank of more than 8 squares", field)
			}
			p.board[book.NewSquare(file, row)] = Piece(k)
			file++
		}
	}
	if row != 0 || file != 8 {
		return fmt.Errorf("piece placement %q: want 8 ranks of 8 squares", field)
	}
	return nil
}

// FEN writes the position. The en-passant square is given only where the
// Polyglot key counts it: after a double push with a pawn of the side to
// move beside the pushed pawn (as Stockfish writes it). Programs that
// hash any en-passant square (PolyGlot) then find the same book entries.
func (p *Position) FEN() string {
	b := make([]byte, 0, 90)
	for row := 7; row >= 0; row-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[book.NewSquare(f, row)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b = append(b, byte('0'+empty))
				empty = 0
			}
			b = append(b, pieceLetters[pc])
		}
		if empty > 0 {
			b = append(b, byte('0'+empty))
		}
		if row > 0 {
			b = append(b, '/')
		}
	}
	if p.whiteToMove {
		b = append(b, " w "...)
	} else {
		b = append(b, " b "...)
	}
	if p.castle == 0 {
		b = append(b, '-')
	}
	for i := 0; i < 4; i++ {
		if p.castle&(1<<i) != 0 {
			b = append(b, "KQkq"[i])
		}
	}
	b = append(b, ' ')
	if f := p.EnPassantFile(); f < 0 {
		b = append(b, '-')
	} else {
		row := 5 // White to move: Black pushed through the sixth rank
		if !p.whiteToMove {
			row = 2
		}
		b = append(b, book.NewSquare(f, row).String()...)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.halfmoveClock), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.fullmove), 10)
	return string(b)
}
