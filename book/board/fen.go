package board

import (
	"fmt"
	"strconv"
	"strings"
)

// pieceLetters lists the FEN letter of each Piece value (index 0: none).
const pieceLetters = " pPnNbBrRqQkK"

// ParseFEN reads a FEN as leniently as engines and python-chess do: only
// the piece placement is required; a missing side to move is White's,
// missing castling rights and en-passant square are none, missing,
// unreadable or negative move counters are 0 and 1 (a move number 0 is
// 1), fields after the sixth are ignored, and Shredder/X-FEN castling
// letters that name a corner rook (HAha) read as KQkq; other letters (an
// inner rook: Chess960) give no right (ParseFENVariant reads them). Castling
// rights whose king or rook is not at home are dropped, and so is an en-passant square no pawn can
// just have passed: the position, and the FEN written from it, are ones a
// game can reach and an engine can take.
//
// It refuses positions that cannot arise in a game and that engines are
// known to crash on: not exactly one king a side, a pawn on the first or
// last rank, the side not to move in check.
//
// It is the project's own decoder because a "position fen" line is on the
// proxy's answer path; notnil_test.go cross-checks it against notnil/chess.
func ParseFEN(fen string) (*Position, error) { return ParseFENVariant(fen, false) }

// ParseFENVariant is ParseFEN for standard chess or, with chess960, for
// Chess960, whose castling field may be written in any of the three
// styles: KQkq (X-FEN: the outermost rook of that side), Shredder-FEN's
// rook files (HAha, BGbg) and X-FEN's file letter for an inner rook,
// mixed as GUIs write them. The position keeps its variant: castling
// moves are king takes own rook and its FEN is X-FEN.
func ParseFENVariant(fen string, chess960 bool) (*Position, error) {
	fields := strings.Fields(fen)
	if len(fields) == 0 {
		return nil, fmt.Errorf("bad FEN %q: empty", fen)
	}
	// Missing fields take their defaults.
	fields = append(fields, []string{"w", "-", "-", "0", "1"}[min(len(fields)-1, 5):]...)
	bad := func(format string, args ...any) (*Position, error) {
		return nil, fmt.Errorf("bad FEN %q: %s", fen, fmt.Sprintf(format, args...))
	}
	p := &Position{doublePushFile: -1, chess960: chess960, castleRook: standardRookFiles}
	if err := p.readPlacement(fields[0]); err != nil {
		return bad("%v", err)
	}
	for s, pc := range p.board {
		p.placed(pc, Square(s))
	}
	switch fields[1] {
	case "w", "W":
		p.whiteToMove = true
	case "b", "B":
	default:
		return bad("side to move %q is not w or b", fields[1])
	}
	if chess960 {
		p.readCastling960(fields[2])
	} else {
		p.readCastling(fields[2])
	}
	// squareOf, not ParseSquare: "-", the usual field, is no error to build.
	if f := fields[3]; len(f) == 2 {
		if s, ok := squareOf(f[0], f[1]); ok && p.justPushed(s) {
			p.doublePushFile = int8(s.File())
		}
	}
	p.halfmoveClock, p.fullmove = 0, 1
	if n, err := strconv.Atoi(fields[4]); err == nil && n >= 0 {
		p.halfmoveClock = n
	}
	if n, err := strconv.Atoi(fields[5]); err == nil && n >= 1 {
		p.fullmove = n
	}
	if strings.Count(fields[0], "K") != 1 || strings.Count(fields[0], "k") != 1 {
		return bad("each side needs exactly one king")
	}
	for f := 0; f < 8; f++ {
		for _, row := range [2]int{0, 7} {
			if pc := p.board[NewSquare(f, row)]; pc != NoPiece && pc.Type() == Pawn {
				return bad("a pawn on the first or last rank")
			}
		}
	}
	if attacked(&p.board, p.kingSquare(!p.whiteToMove), p.whiteToMove) {
		return bad("the side not to move is in check")
	}
	p.castle &= p.castleRightsOnBoard()
	p.key = p.computeKey()
	p.check = p.InCheck()
	return p, nil
}

// Chess960FEN reports a FEN whose castling rights only Chess960 has (a
// king off the e-file, a rook off its corner, in any castling style):
// read as standard chess, they would be lost. Tools that take a FEN
// without being told its variant read such a one as Chess960
// (ParseFENDetectVariant).
func Chess960FEN(fen string) bool {
	p, err := ParseFENDetectVariant(fen)
	return err == nil && p.Chess960()
}

// ParseFENDetectVariant reads a FEN whose variant nobody named (a PGN
// without a Variant tag, probe -fen): as Chess960 when its castling rights
// only Chess960 has, else as standard chess, as python-chess does. The
// one detection of Chess960 from a FEN; it costs one reading of the FEN.
func ParseFENDetectVariant(fen string) (*Position, error) {
	p, err := ParseFENVariant(fen, true)
	if err != nil || !p.StandardCastling() {
		return p, err
	}
	// Every right held is a standard one, so the Chess960 reading holds
	// the rights and en-passant square the standard one would: only the
	// rules change (and the files of rights not held, which standard
	// chess keeps at h, a, h, a).
	p.chess960 = false
	p.castleRook = standardRookFiles
	return p, nil
}

// readCastling reads a standard castling field: KQkq, or HAha for them.
func (p *Position) readCastling(field string) {
	for i := 0; field != "-" && i < len(field); i++ {
		switch c := field[i]; c {
		case 'K', 'H':
			p.castle |= CastleWhiteShort
		case 'Q', 'A':
			p.castle |= CastleWhiteLong
		case 'k', 'h':
			p.castle |= CastleBlackShort
		case 'q', 'a':
			p.castle |= CastleBlackLong
		}
	}
}

// readCastling960 reads a Chess960 castling field: K and Q (k, q) name the
// outermost rook on that side of the king, a file letter the rook on that
// file, upper case White's. Of two letters for one side the outer rook
// wins, as python-chess has it; a letter with no rook of its colour on that
// file and back rank, or none on that side of the king, gives no right.
// Other characters are ignored, as ParseFEN ignores them.
func (p *Position) readCastling960(field string) {
	for i := 0; field != "-" && i < len(field); i++ {
		c := field[i]
		white := c >= 'A' && c <= 'Z'
		lower := c | 0x20
		row := 0
		if !white {
			row = 7
		}
		ks := p.kingSquare(white)
		if ks == 64 || ks.Row() != row {
			continue
		}
		rook := MakePiece(Rook, white)
		file := -1
		switch {
		case lower == 'k':
			for f := 7; f > ks.File(); f-- {
				if p.board[NewSquare(f, row)] == rook {
					file = f
					break
				}
			}
		case lower == 'q':
			for f := 0; f < ks.File(); f++ {
				if p.board[NewSquare(f, row)] == rook {
					file = f
					break
				}
			}
		case lower >= 'a' && lower <= 'h':
			file = int(lower - 'a')
		}
		if file < 0 || file == ks.File() || p.board[NewSquare(file, row)] != rook {
			continue
		}
		long := file < ks.File()
		i := rightIndex(white, long)
		if p.castle&(1<<i) != 0 {
			if old := int(p.castleRook[i]); long && old < file || !long && old > file {
				continue // the outer of two rooks named for one side
			}
		}
		p.castle |= 1 << i
		p.castleRook[i] = int8(file)
	}
}

// justPushed reports whether a pawn of the side not to move can just have
// passed s with a double push: s on its third rank, empty, with the pawn
// beyond it and its start square empty. Any other en-passant square in a
// FEN is left out, so the position (and the FEN written from it) is one a
// game can reach.
func (p *Position) justPushed(s Square) bool {
	row, dir := 5, -1 // White to move: Black pushed through the sixth rank
	if !p.whiteToMove {
		row, dir = 2, 1
	}
	f := s.File()
	return s.Row() == row && p.board[s] == NoPiece &&
		p.board[NewSquare(f, row+dir)] == MakePiece(Pawn, !p.whiteToMove) &&
		p.board[NewSquare(f, row-dir)] == NoPiece
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
			p.board[NewSquare(file, row)] = Piece(k)
			file++
		}
	}
	if row != 0 || file != 8 {
		return fmt.Errorf("piece placement %q: want 8 ranks of 8 squares", field)
	}
	return nil
}

// FEN writes the position, its castling field in X-FEN in Chess960 (KQkq
// for the outermost rook of a side, the file letter for an inner one, as
// python-chess writes it and engines read it). The en-passant square is given only where the
// Polyglot key counts it: after a double push with a pawn of the side to
// move beside the pushed pawn (as Stockfish writes it). Programs that
// hash any en-passant square (PolyGlot) then find the same book entries.
func (p *Position) FEN() string { return p.fen(false) }

// ShredderFEN writes the position as FEN does but for the castling field,
// in Shredder-FEN: every right by its rook's file (HAha in standard
// chess), as cutechess-cli writes Chess960 positions.
func (p *Position) ShredderFEN() string { return p.fen(true) }

func (p *Position) fen(shredder bool) string {
	b := make([]byte, 0, 90)
	for row := 7; row >= 0; row-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := p.board[NewSquare(f, row)]
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
		if p.castle&(1<<i) == 0 {
			continue
		}
		if shredder || p.chess960 && p.outerRookBeyond(i) { // X-FEN: an inner rook by its file
			c := byte('A' + p.castleRook[i])
			if i >= 2 {
				c += 'a' - 'A'
			}
			b = append(b, c)
		} else {
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
		b = append(b, NewSquare(f, row).String()...)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.halfmoveClock), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.fullmove), 10)
	return string(b)
}
