package build

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

// Dump writes the lines of a book for one colour in PolyGlot's dump-book
// text format:
//
//	Dump of "NAME" for white.
//	1: 1. e4{39%} a6 2. d4{100%} b5 3. Nf3{100%}
//	12: 1. e4{39%} b6 2. d4{94%} e6 3. Nf3{21%} Bb7 4. Bd3{100%} {trans: line=3, ply=7}
//
// From the start position it follows, for the dumped colour, every legal
// book move with a weight above 0 in file order, with its share of those
// moves, and for the other colour every legal move after which the book
// has a move. Each position is expanded once: reaching it again ends the
// line with {trans: line=L, ply=P} (where it was first met), and a
// position repeating one earlier on the same line ends it with
// {cycle: ply=P}, so the walk always terminates. The opponent's moves come
// in an order close to PolyGlot's move generator (pieces, king first, then
// pawns, then en passant and castling), so line numbers mostly match
// PolyGlot's.
func Dump(w io.Writer, b *book.Book, name string, white bool) (DumpResult, error) {
	bw := bufio.NewWriter(w)
	colour := "black"
	if white {
		colour = "white"
	}
	fmt.Fprintf(bw, "Dump of \"%s\" for %s.\n", name, colour)
	d := &dumper{b: b, w: bw, white: white, line: 1, first: map[board.Key][2]int{}}
	if polyglot.Chess960(b) {
		// A Chess960 book: the lines from each start the book has, each
		// start announced on a line of its own.
		for _, st := range BookStarts(b, !white) {
			fmt.Fprintf(bw, "Chess960 start %d: %s\n", st.Number, st.Pos.FEN())
			d.search(st.Pos, newPieceLists(&st.Pos), white)
		}
	} else {
		d.search(*board.StartPosition(), newPieceLists(board.StartPosition()), white)
	}
	res := DumpResult{Lines: d.line - 1, Positions: d.positions}
	return res, bw.Flush()
}

// Start is a Chess960 start position and its number (518: the standard one).
type Start struct {
	Number int
	Pos    board.Position
}

// BookStarts lists the Chess960 start positions a book has lines from:
// those it has moves for, and with black also those after one White move
// of which it has moves, in order of their numbers.
func BookStarts(b *book.Book, black bool) []Start {
	var out []Start
	for n := 0; n < 960; n++ {
		p, err := board.ParseFENVariant(board.Chess960StartFEN(n), true)
		if err != nil {
			continue
		}
		has := func(pos *board.Position) bool { return len(b.Entries(pos.Key())) > 0 }
		in := has(p)
		for _, m := range p.LegalMoves() {
			if in || !black {
				break
			}
			q := *p
			q.Play(m)
			in = has(&q)
		}
		if in {
			out = append(out, Start{n, *p})
		}
	}
	return out
}

// DumpResult counts what Dump wrote, as PolyGlot's info-book reports it.
type DumpResult struct {
	Lines int
	// Positions is how many positions of the book the lines pass through
	// with the dumped colour to move.
	Positions int
}

type dumpPly struct {
	san   string
	share float64
	key   board.Key // of the position the move was played from
}

type dumper struct {
	b     *book.Book
	w     *bufio.Writer
	white bool
	line  int
	first map[board.Key][2]int // line and ply where a position was first met
	path  []dumpPly

	positions int
}

// bookMoves are the legal moves of the book at p with a weight above 0, in
// file order (played form), with their shares of the sum of those weights.
func (d *dumper) bookMoves(p *board.Position) ([]board.Move, []float64) {
	var moves []board.Move
	var weights []uint64
	var total uint64
	if p.NoKeyReason() != "" {
		return nil, nil
	}
	d.b.Each(p.Key(), func(_ int, e book.Entry) {
		if e.Weight == 0 || e.Move.IsNull() {
			return
		}
		if m, err := p.LegalMove(p.ToPlayed(e.Move)); err == nil {
			moves = append(moves, m)
			weights = append(weights, uint64(e.Weight))
			total += uint64(e.Weight)
		}
	})
	shares := make([]float64, len(moves))
	for i, w := range weights {
		shares[i] = float64(w) / float64(total)
	}
	return moves, shares
}

// inBook reports whether the book has entries for k.
func (d *dumper) inBook(k board.Key) bool {
	found := false
	d.b.Each(k, func(int, book.Entry) { found = true })
	return found
}

// search expands the position and returns how many lines it produced.
// pl is PolyGlot's piece order, which decides the order of the
// opponent's moves.
func (d *dumper) search(p board.Position, pl pieceLists, bookSide bool) int {
	key := p.Key()
	for i, ply := range d.path {
		if ply.key == key {
			d.emit(fmt.Sprintf("{cycle: ply=%d}", i))
			return 1
		}
	}
	if at, ok := d.first[key]; ok {
		d.emit(fmt.Sprintf("{trans: line=%d, ply=%d}", at[0], at[1]))
		return 1
	}
	d.first[key] = [2]int{d.line, len(d.path)}

	var moves []board.Move
	var shares []float64
	if bookSide {
		if d.inBook(key) {
			d.positions++
		}
		moves, shares = d.bookMoves(&p)
	} else {
		for _, m := range opponentOrder(&p, &pl) {
			q := p
			q.Play(m)
			// Almost every reply leaves the book: test the key first.
			if !d.inBook(q.Key()) {
				continue
			}
			if moves2, _ := d.bookMoves(&q); len(moves2) > 0 {
				moves = append(moves, m)
			}
		}
	}
	count := 0
	for i, m := range moves {
		ply := dumpPly{san: p.SAN(m), key: key}
		if bookSide {
			ply.share = shares[i]
		}
		d.path = append(d.path, ply)
		q := p
		q.Play(m)
		n := d.search(q, pl.after(&p, m), !bookSide)
		if n == 0 && bookSide {
			d.emit("")
			n = 1
		}
		d.path = d.path[:len(d.path)-1]
		count += n
	}
	return count
}

// emit writes the current line, numbered, with an optional end note.
func (d *dumper) emit(note string) {
	w := d.w
	fmt.Fprintf(w, "%d: ", d.line)
	for i, ply := range d.path {
		whiteMoved := i%2 == 0
		if whiteMoved {
			fmt.Fprintf(w, "%d. ", i/2+1)
		}
		w.WriteString(ply.san)
		if whiteMoved == d.white {
			fmt.Fprintf(w, "{%.0f%%} ", 100*ply.share)
		} else {
			w.WriteByte(' ')
		}
	}
	w.WriteString(note)
	w.WriteByte('\n')
	d.line++
}

// pieceLists model the order in which PolyGlot keeps each side's pieces,
// which is the order it generates their moves in: at the start the king,
// then the other pieces and pawns by square a1..h8; a moving piece keeps
// its place; a captured piece's place is taken by the last one in the
// list; a promoted pawn leaves the same way and the new piece goes last.
// (Inferred from PolyGlot's dump-book output, not from its code.)
type pieceLists struct {
	sq  [2][16]int8 // squares in list order; [0] white, [1] black
	n   [2]int8
	idx [64]int8 // list index of the piece on each square
}

func newPieceLists(start *board.Position) pieceLists {
	var pl pieceLists
	for c := 0; c < 2; c++ {
		for _, king := range []bool{true, false} {
			for s := board.Square(0); s < 64; s++ {
				pc := start.Piece(s)
				if pc == board.NoPiece || pc.White() != (c == 0) || (pc.Type() == board.King) != king {
					continue
				}
				pl.idx[s] = pl.n[c]
				pl.sq[c][pl.n[c]] = int8(s)
				pl.n[c]++
			}
		}
	}
	return pl
}

func (pl *pieceLists) remove(c int, s board.Square) {
	i := pl.idx[s]
	last := pl.sq[c][pl.n[c]-1]
	pl.sq[c][i] = last
	pl.idx[last] = i
	pl.n[c]--
}

func (pl *pieceLists) move(c int, from, to board.Square) {
	i := pl.idx[from]
	pl.sq[c][i] = int8(to)
	pl.idx[to] = i
}

// moveKind is what PolyGlot's piece lists and move order need to know of
// a legal move m at p.
type moveKind struct {
	capture, enPassant, castleShort, castleLong bool
	piece                                       board.PieceType
	rookFrom                                    board.Square // of castling
}

func kindOf(p *board.Position, m board.Move) moveKind {
	from, to := m.From(), m.To()
	mover, target := p.Piece(from), p.Piece(to)
	k := moveKind{piece: mover.Type(), capture: target != board.NoPiece}
	switch {
	case k.piece == board.King && k.capture && target.White() == mover.White():
		// Chess960 castling: the king takes its own rook.
		k.capture, k.rookFrom = false, to
		k.castleShort, k.castleLong = to.File() > from.File(), to.File() < from.File()
	case k.piece == board.Pawn && from.File() != to.File() && !k.capture:
		k.enPassant = true
	case k.piece == board.King && to.File()-from.File() == 2:
		k.castleShort, k.rookFrom = true, to+1
	case k.piece == board.King && from.File()-to.File() == 2:
		k.castleLong, k.rookFrom = true, to-2
	}
	return k
}

// after returns the lists after m, a legal move at p.
func (pl pieceLists) after(p *board.Position, m board.Move) pieceLists {
	from, to := m.From(), m.To()
	c := 0
	if !p.WhiteToMove() {
		c = 1
	}
	k := kindOf(p, m)
	switch {
	case k.enPassant:
		pl.remove(1-c, board.NewSquare(to.File(), from.Row()))
	case k.capture:
		pl.remove(1-c, to)
	}
	switch {
	case m.Promo() != board.NoPromo:
		pl.remove(c, from)
		pl.idx[to] = pl.n[c]
		pl.sq[c][pl.n[c]] = int8(to)
		pl.n[c]++
	case k.castleShort || k.castleLong:
		// King and rook may land on each other's squares (Chess960): take
		// both places before moving either.
		row := from.Row()
		kingTo, rookTo := board.NewSquare(6, row), board.NewSquare(5, row)
		if k.castleLong {
			kingTo, rookTo = board.NewSquare(2, row), board.NewSquare(3, row)
		}
		ki, ri := pl.idx[from], pl.idx[k.rookFrom]
		pl.sq[c][ki], pl.sq[c][ri] = int8(kingTo), int8(rookTo)
		pl.idx[kingTo], pl.idx[rookTo] = ki, ri
	default:
		pl.move(c, from, to)
	}
	return pl
}

// opponentOrder sorts the legal moves as PolyGlot generates them: piece by
// piece in the order of pl; each piece along its directions in turn
// (outward along rays; pawns: capture towards the a-file, towards the
// h-file, push, double push; promotions queen, knight, rook, bishop);
// then castling, king side first.
func opponentOrder(p *board.Position, pl *pieceLists) []board.Move {
	moves := p.LegalMoves()
	type ranked struct {
		m    board.Move
		rank [6]int
	}
	rs := make([]ranked, len(moves))
	for i, m := range moves {
		from, to := int(m.From()), int(m.To())
		df, dr := to%8-from%8, to/8-from/8
		k := kindOf(p, m)
		piece := int(pl.idx[from])
		var r [6]int
		switch {
		case k.castleShort:
			r = [6]int{1, 0}
		case k.castleLong:
			r = [6]int{1, 1}
		case k.piece == board.Pawn: // en passant included
			step := 2 // push
			switch {
			case df < 0:
				step = 0
			case df > 0:
				step = 1
			case dr == 2 || dr == -2:
				step = 3
			}
			promo := map[board.Promo]int{board.PromoQueen: 0, board.PromoKnight: 1, board.PromoRook: 2, board.PromoBishop: 3}[m.Promo()]
			r = [6]int{0, piece, step, promo}
		case k.piece == board.Knight:
			r = [6]int{0, piece, dr, df}
		default:
			r = [6]int{0, piece, sign(dr), sign(df), max(abs(dr), abs(df))}
		}
		rs[i] = ranked{m, r}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		for i := range a.rank {
			if a.rank[i] != b.rank[i] {
				return a.rank[i] - b.rank[i]
			}
		}
		return 0
	})
	for i := range rs {
		moves[i] = rs[i].m
	}
	return moves
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
