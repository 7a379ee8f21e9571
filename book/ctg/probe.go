package ctg

import (
	"bytes"
	"fmt"

	"github.com/polyproxy/polyproxy/book/board"
)

// A page holds its position count and used bytes (two bytes each), then
// the positions one after another: the key (its length in the low five
// bits of its first byte), a byte counting the move bytes (itself
// included), a (move, annotation) byte pair for each move, and the
// statistics (StatsSize bytes).

// record is a position as found in a page, copied out of it.
type record struct {
	page   int32
	offset int // in the page
	moves  []byte
	stats  Stats
}

// Position is what a book holds for a position.
type Position struct {
	Stats Stats // the position's own statistics
	Moves []Move
	Page  int32 // the table's page it was found in
	// Offset is the position's byte in its page: with Page, which entry
	// of the book answered.
	Offset int
}

// Move is one of a position's book moves.
type Move struct {
	Move       board.Move // as played (castling as the king's move, e1g1)
	Code       byte       // the move byte
	Annotation Annotation
	// Next are the statistics of the position after the move, nil when
	// the book has not got it (the move leads out of the book).
	Next *Stats
	// Weight is DroidFish's weight (see Weight) under the options asked
	// with; a move listed twice has the sum of its two.
	Weight float64
}

// Probe looks p up: nil when the book has not got it. Moves that cannot
// be played in p are left out and reported (Problems), as are faults of
// the pages read; an error is only a failure to read the files.
//
// A pawn move to the last rank is a queen's promotion, the move byte
// having no room for another piece; but when the book has not got the
// position after the queen's promotion and has that after another
// piece's, the move is that underpromotion (DroidFish's reader keeps the
// queen, which then leads out of the book).
func (b *Book) Probe(p *board.Position, opt Options) (*Position, error) {
	v := newView(p)
	rec, err := b.find(v.key())
	if rec == nil || err != nil {
		return nil, err
	}
	out := &Position{Stats: rec.stats, Page: rec.page, Offset: rec.offset}
	for i := 0; i+1 < len(rec.moves); i += 2 {
		code, ann := rec.moves[i], Annotation(rec.moves[i+1])
		m, why := v.decode(code)
		if why == "" {
			if played, err := p.LegalMove(m); err != nil {
				why = fmt.Sprintf("gives %s, which is not legal there", m)
			} else {
				m = played
			}
		}
		if why != "" {
			b.problemOnce(fmt.Sprintf("move %d/%d/%d", rec.page, rec.offset, i), Problem{File: ".ctg", Page: rec.page,
				Reason: fmt.Sprintf("move %d of the position at byte %d (%s here): %s %s; the move is left out", i/2+1, rec.offset, p.FEN(), describeCode(code), why)})
			continue
		}
		next, m, err := b.after(p, m)
		if err != nil {
			return nil, err
		}
		w := Weight(ann, next, opt)
		if j := indexOfMove(out.Moves, m); j >= 0 {
			out.Moves[j].Weight += w // DroidFish plays a move listed twice by the sum
			continue
		}
		out.Moves = append(out.Moves, Move{Move: m, Code: code, Annotation: ann, Next: next, Weight: w})
	}
	return out, nil
}

func indexOfMove(ms []Move, m board.Move) int {
	for i := range ms {
		if ms[i].Move == m {
			return i
		}
	}
	return -1
}

// after is the statistics of the position after the legal move m in p
// (nil if the book has not got it), and m itself, turned into the
// underpromotion the book has when it has not got the queen's.
func (b *Book) after(p *board.Position, m board.Move) (*Stats, board.Move, error) {
	next, err := b.Lookup(p.Next(m))
	if next != nil || err != nil || m.Promo() != board.PromoQueen {
		return next, m, err
	}
	for _, promo := range [...]board.Promo{board.PromoKnight, board.PromoRook, board.PromoBishop} {
		under := board.NewMove(m.From(), m.To(), promo)
		next, err := b.Lookup(p.Next(under))
		if next != nil || err != nil {
			return next, under, err
		}
	}
	return nil, m, nil
}

// Lookup is p's statistics, nil when the book has not got it.
func (b *Book) Lookup(p *board.Position) (*Stats, error) {
	v := newView(p)
	rec, err := b.find(v.key())
	if rec == nil || err != nil {
		return nil, err
	}
	return &rec.stats, nil
}

// decode is the move a move byte names in the view, in real squares, or
// why it names none.
func (v *view) decode(code byte) (board.Move, string) {
	mc := codeTables.Get().decode[code]
	if !mc.ok {
		return 0, "names no move"
	}
	piece := board.MakePiece(mc.kind, true)
	from, seen := board.Square(0), int8(-1)
	for file := 0; file < 8 && seen < mc.index; file++ {
		for row := 0; row < 8; row++ {
			if s := board.NewSquare(file, row); v.squares[s] == piece {
				if seen++; seen == mc.index {
					from = s
					break
				}
			}
		}
	}
	if seen < mc.index {
		return 0, fmt.Sprintf("names %s %d of the side to move, which has %d", pieceNames[mc.kind], mc.index, seen+1)
	}
	to := board.NewSquare((from.File()+int(mc.dx))&7, (from.Row()+int(mc.dy))&7)
	promo := board.NoPromo
	if mc.kind == board.Pawn && to.Row() == 7 {
		promo = board.PromoQueen
	}
	return board.NewMove(v.toReal(from), v.toReal(to), promo), ""
}

// find looks a key up along its candidate table entries: the first page
// holding it answers. Faults of the table and the pages are reported and
// passed over.
func (b *Book) find(key []byte) (*record, error) {
	var (
		rec *record
		err error
		buf [PageSize]byte
	)
	Candidates(Hash(key), b.lower, b.upper, func(index int32) bool {
		var page int32
		var ok bool
		if page, ok, err = b.tableEntry(index); !ok || err != nil {
			return err == nil
		}
		var positions, used int
		if positions, used, ok, err = b.readPage(index, page, &buf); !ok || err != nil {
			return err == nil
		}
		rec = b.scanPage(page, &buf, positions, used, key)
		return rec == nil
	})
	return rec, err
}

// scanPage finds key among a page's positions. A position running past
// the page's used bytes or its end is reported (the counts overrun the
// page); past the end the rest of the page cannot be read.
func (b *Book) scanPage(page int32, buf *[PageSize]byte, positions, used int, key []byte) *record {
	overrun := func(i, offset int, where string) {
		b.problemOnce(fmt.Sprintf("overrun %d", page), Problem{File: ".ctg", Page: page,
			Reason: fmt.Sprintf("its counts overrun it: position %d of %d (byte %d) runs past %s", i+1, positions, offset, where)})
	}
	offset := pageHeaderSize
	for i := range positions {
		if offset >= PageSize {
			overrun(i, offset, "the page's end")
			return nil
		}
		keyLen := int(buf[offset] & keyLenMask)
		if offset+keyLen >= PageSize {
			overrun(i, offset, "the page's end")
			return nil
		}
		moveBytes := int(buf[offset+keyLen])
		end := offset + keyLen + moveBytes + StatsSize
		if end > PageSize {
			overrun(i, offset, "the page's end")
			return nil
		}
		if end > used {
			overrun(i, offset, fmt.Sprintf("the page's %d used bytes", used))
		}
		if bytes.Equal(buf[offset:offset+keyLen], key) {
			moves := buf[offset+keyLen+1 : offset+keyLen+max(moveBytes, 1)]
			return &record{page: page, offset: offset, moves: bytes.Clone(moves),
				stats: DecodeStats(buf[offset+keyLen+moveBytes:])}
		}
		offset = end
	}
	return nil
}
