package ctgwrite

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
)

// TestBook is one of the books of book/ctg/testdata: its files (a file
// left nil is not written: a book with a file missing), the positions the
// oracle's walk starts from, and what it shows.
type TestBook struct {
	Name  string
	Files *Files
	Roots []*board.Position
	// Corrupt: the book has faults the reader must report; Source is the
	// sound book it was damaged from (its roots are all of Source's
	// positions, so the two oracle tables cover the same ones).
	Corrupt bool
	Source  string
}

// wld is statistics of w wins, l losses and d draws (the side to move's).
func wld(w, l, d int) ctg.Stats { return ctg.Stats{Games: w + l + d, Wins: w, Losses: l, Draws: d} }

// TestBooks makes the test books; pgnPath is the games the games book is
// made from (testdata/pgn/random.pgn of the repository).
func TestBooks(pgnPath string) ([]TestBook, error) {
	books, err := handBooks()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(pgnPath)
	if err != nil {
		return nil, err
	}
	games, err := gamesBook(data)
	if err != nil {
		return nil, err
	}
	damaged, err := smallBooks(data)
	if err != nil {
		return nil, err
	}
	return slices.Concat(books, []TestBook{games}, damaged), nil
}

// handBooks are the books made move by move, each of a case of the format.
func handBooks() ([]TestBook, error) {
	var books []TestBook
	hand := []struct {
		name   string
		make   func(*Book)
		layout Layout
	}{
		{"mirror", mirrorBook, Layout{Upper: 7}},
		{"enpassant", enPassantBook, Layout{Upper: 7}},
		{"castling", castlingBook, Layout{Lower: 1, Upper: 31, PageBytes: 1200}},
		{"promotions", promotionsBook, Layout{Upper: 3}},
		{"annotations", annotationsBook, Layout{Upper: 15, PageBytes: 2000}},
	}
	for _, h := range hand {
		b := New()
		h.make(b)
		f, err := b.Build(h.layout)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", h.name, err)
		}
		books = append(books, TestBook{Name: h.name, Files: f, Roots: b.Roots})
	}
	return books, nil
}

// gamesBook is every position of 292 random games (data) to ply 10,
// spread over pages 3-255 of the table so that keys overflow from full
// pages to later candidates.
func gamesBook(data []byte) (TestBook, error) {
	games := New()
	if _, err := games.AddGames(bytes.NewReader(data), 10); err != nil {
		return TestBook{}, err
	}
	gf, err := games.Build(Layout{Lower: 3, Upper: 255, Games: 292})
	if err != nil {
		return TestBook{}, fmt.Errorf("games: %w", err)
	}
	return TestBook{Name: "games", Files: gf, Roots: games.Roots}, nil
}

// smallBooks are the small book, 40 games of data to ply 8 over many
// small pages, and the corrupt books damaged from it.
func smallBooks(data []byte) ([]TestBook, error) {
	small := New()
	if _, err := small.AddGames(bytes.NewReader(firstGames(data, 40)), 8); err != nil {
		return nil, err
	}
	smallLayout := Layout{Upper: 63, PageBytes: 700, Games: 40}
	sf, err := small.Build(smallLayout)
	if err != nil {
		return nil, fmt.Errorf("small: %w", err)
	}
	books := []TestBook{{Name: "small", Files: sf, Roots: small.Roots}}
	all := small.Positions()
	corrupt := func(name string, f *Files) {
		books = append(books, TestBook{Name: name, Files: f, Roots: all, Corrupt: true, Source: "small"})
	}

	// A table entry naming a page past the .ctg's end: the page of the
	// position after 1.Nf3 (not the start position's, so that the walk
	// goes on).
	f := sf.clone()
	index := small.tableIndex(small.Get(after(board.StartPosition(), "g1f3")), smallLayout, sf)
	binary.BigEndian.PutUint32(f.CTO[16+4*index:], 9999)
	corrupt("page-out-of-range", f)

	// Page counts that overrun the page: page 2 claims five positions
	// more than it holds (the readers find zeros past its used bytes);
	// page 3's used bytes are the whole page, and twelve more positions
	// of 0xff bytes run past its end.
	f = sf.clone()
	p := f.Page(2)
	binary.BigEndian.PutUint16(p[0:], binary.BigEndian.Uint16(p[0:])+5)
	p = f.Page(3)
	used := int(binary.BigEndian.Uint16(p[2:]))
	binary.BigEndian.PutUint16(p[0:], binary.BigEndian.Uint16(p[0:])+12)
	binary.BigEndian.PutUint16(p[2:], ctg.PageSize)
	for i := used; i < ctg.PageSize; i++ {
		p[i] = 0xff // positions of a 31-byte key and 255 move bytes: the 12th runs past the end
	}
	corrupt("overrun", f)

	// The .ctg cut in the middle of its last page, the .cto in the middle
	// of its table.
	f = sf.clone()
	f.CTG = f.CTG[:len(f.CTG)-ctg.PageSize/2-7]
	corrupt("truncated-ctg", f)
	f = sf.clone()
	f.CTO = f.CTO[:16+4*20+2]
	corrupt("truncated-cto", f)

	illegal, err := illegalMovesBook(data, smallLayout, all)
	if err != nil {
		return nil, err
	}
	books = append(books, illegal)

	// A book without its .cto, and one whose .ctb is too short for the
	// bounds: neither can be read at all.
	f = sf.clone()
	f.CTO = nil
	corrupt("missing-cto", f)
	f = sf.clone()
	f.CTB = f.CTB[:8]
	corrupt("short-ctb", f)
	return books, nil
}

// illegalMovesBook is the small book's games (data, layout, positions
// all) with moves that are not legal where they stand, and bytes that
// name no move, added to the start position and to a position with a
// pinned knight.
func illegalMovesBook(data []byte, layout Layout, all []*board.Position) (TestBook, error) {
	ib := New()
	if _, err := ib.AddGames(bytes.NewReader(firstGames(data, 40)), 8); err != nil {
		return TestBook{}, err
	}
	s := ib.Get(board.StartPosition())
	for _, code := range []byte{
		0x81, // the first rook one rank up: a1a2, onto its own pawn
		0x2e, // the first bishop one up-right: c1d2, onto its own pawn
		0x6b, // the king castling short through its own pieces
		0x8b, // the first pawn capturing on b3, where nothing stands
		0x03, // the second queen, which White has not got
		0x02, // a byte no move has
	} {
		s.Raw(code, ctg.NoAnnotation)
	}
	pin := ib.AddFEN("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", wld(1, 1, 1))
	pin.Move("e1d1", ctg.NoAnnotation, wld(0, 3, 1))
	pin.Raw(0x34, ctg.Good) // the knight e2-f4, pinned by the rook
	pin.Move("e1f1", ctg.NoAnnotation, wld(2, 1, 1))
	ilf, err := ib.Build(layout)
	if err != nil {
		return TestBook{}, fmt.Errorf("illegal-moves: %w", err)
	}
	return TestBook{Name: "illegal-moves", Files: ilf, Roots: slices.Concat(all, ib.Roots[1:]), Corrupt: true, Source: "small"}, nil
}

// WriteTestBook writes a test book's files and roots into dir.
func WriteTestBook(dir string, tb TestBook) error {
	base := filepath.Join(dir, tb.Name)
	for _, w := range []struct {
		ext  string
		data []byte
	}{{".ctg", tb.Files.CTG}, {".cto", tb.Files.CTO}, {".ctb", tb.Files.CTB}} {
		if w.data == nil {
			if err := os.Remove(base + w.ext); err != nil && !os.IsNotExist(err) {
				return err
			}
			continue
		}
		if err := os.WriteFile(base+w.ext, w.data, 0o644); err != nil {
			return err
		}
	}
	var roots bytes.Buffer
	fmt.Fprintf(&roots, "# The positions the oracle's walk of %s.ctg starts from (book/ctg/testdata/README.md).\n", tb.Name)
	for _, p := range tb.Roots {
		fmt.Fprintln(&roots, p.FEN())
	}
	return os.WriteFile(base+".roots", roots.Bytes(), 0o644)
}

func (f *Files) clone() *Files {
	return &Files{CTG: bytes.Clone(f.CTG), CTO: bytes.Clone(f.CTO), CTB: bytes.Clone(f.CTB)}
}

// firstGames is the first n games of a PGN text (games start at "[Event").
func firstGames(pgn []byte, n int) []byte {
	at := 0
	for range n + 1 {
		i := bytes.Index(pgn[at:], []byte("[Event "))
		if i < 0 {
			return pgn
		}
		at += i + 1
	}
	return pgn[:at-1]
}

// Positions are the book's positions, in the order added.
func (b *Book) Positions() []*board.Position {
	ps := make([]*board.Position, len(b.order))
	for i, e := range b.order {
		ps[i] = e.pos
	}
	return ps
}

// tableIndex is the table entry whose page holds n in files f built with
// layout l.
func (b *Book) tableIndex(n *Node, l Layout, f *Files) int32 {
	found := int32(-1)
	ctg.Candidates(ctg.Hash(n.e.key), l.Lower, l.Upper, func(index int32) bool {
		page := int32(binary.BigEndian.Uint32(f.CTO[16+4*index:]))
		if page >= 0 && bytes.Contains(f.Page(int(page)), n.e.key) {
			found = index
			return false
		}
		return true
	})
	return found
}

func after(p *board.Position, uci string) *board.Position {
	m, err := board.ParseMove(uci)
	if err != nil {
		panic(err)
	}
	played, err := p.LegalMove(m)
	if err != nil {
		panic(err)
	}
	return p.Next(played)
}

// mirrorBook: positions stored turned over (Black to move) and mirrored
// left to right (no castling, king on a-d), and pairs of positions that
// are one entry.
func mirrorBook(b *Book) {
	// White to move, both sides may castle: stored as it is. The board is
	// its own colour mirror, so the same board with Black to move is the
	// same entry, its moves read turned over.
	a := b.AddFEN("r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 8", wld(10, 12, 8))
	a.Move("e1g1", ctg.NoAnnotation, wld(3, 9, 4))
	a.Move("e1c1", ctg.NoAnnotation, wld(1, 2, 1))
	a.Move("a1d1", ctg.NoAnnotation, wld(2, 2, 2))
	a.Move("h1f1", ctg.NoAnnotation, wld(0, 1, 0)) // the second rook, two files left: +6 modulo 8
	a.Move("c3b5", ctg.NoAnnotation, wld(4, 1, 0))
	a.Move("f3g5", ctg.NoAnnotation, wld(1, 0, 3))
	a.Move("e3g5", ctg.NoAnnotation, wld(0, 0, 1))
	a.Move("d4e5", ctg.NoAnnotation, wld(2, 5, 5))
	a.Move("h2h4", ctg.NoAnnotation, wld(0, 0, 0)) // a position without games: weight 1/10000
	a.After("a2a3", ctg.NoAnnotation)              // out of the book
	b.Roots = append(b.Roots, mustFEN("r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R b KQkq - 0 8"))

	// No castling, the king on d1: stored mirrored (king on e1); its
	// mirror image is the same entry.
	c := b.AddFEN("4k3/pp3ppp/8/3n4/8/2N5/PP3PPP/3K4 w - - 0 20", wld(5, 5, 5))
	c.Move("d1e2", ctg.NoAnnotation, wld(1, 4, 2))
	c.Move("c3d5", ctg.NoAnnotation, wld(0, 6, 1))
	c.Move("c3b5", ctg.NoAnnotation, wld(2, 2, 0))
	c.Move("a2a4", ctg.NoAnnotation, wld(1, 1, 1))
	c.Move("h2h3", ctg.NoAnnotation, wld(3, 0, 0))
	c.Move("f2f4", ctg.NoAnnotation, wld(0, 1, 4))
	b.Roots = append(b.Roots, mustFEN("3k4/ppp3pp/8/4n3/8/5N2/PPP3PP/4K3 w - - 0 20"))

	// No castling, the king on e1: not mirrored (files a-d only); the
	// king on d1 with the same pawns is another entry.
	e := b.AddFEN("4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 30", wld(1, 2, 3))
	e.Move("e1d1", ctg.NoAnnotation, wld(1, 1, 0))
	e.Move("e1f1", ctg.NoAnnotation, wld(0, 2, 0))
	e.Move("d2d4", ctg.NoAnnotation, wld(2, 1, 3))
	e.Move("f2f3", ctg.NoAnnotation, wld(0, 0, 2))
	d := b.AddFEN("4k3/8/8/8/8/8/3PPP2/3K4 w - - 0 30", wld(2, 2, 2))
	d.Move("d1c1", ctg.NoAnnotation, wld(1, 3, 0))
	d.Move("d1e1", ctg.NoAnnotation, wld(2, 0, 1))
	d.Move("e2e4", ctg.NoAnnotation, wld(0, 4, 0))
	d.Move("f2f4", ctg.NoAnnotation, wld(1, 1, 1))

	// Black to move, no castling, the king on c8: turned over and
	// mirrored.
	k := b.AddFEN("2k5/ppp2ppp/8/8/3N4/8/PPP2PPP/6K1 b - - 0 20", wld(4, 3, 2))
	k.Move("c8d7", ctg.NoAnnotation, wld(1, 2, 3))
	k.Move("c8b8", ctg.NoAnnotation, wld(0, 5, 0))
	k.Move("a7a5", ctg.NoAnnotation, wld(2, 2, 2))
	k.Move("f7f5", ctg.NoAnnotation, wld(3, 1, 0))
	k.Move("g7g6", ctg.NoAnnotation, wld(1, 0, 0))
	k.After("h7h6", ctg.NoAnnotation)

	// White's king on b1 without rights, Black still may castle: not
	// mirrored, since castling rights remain.
	r := b.AddFEN("r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/1K1R3R w kq - 0 15", wld(3, 3, 3))
	r.Move("b1a1", ctg.NoAnnotation, wld(1, 0, 1))
	r.Move("b1c1", ctg.NoAnnotation, wld(0, 2, 0))
	r.Move("d1e1", ctg.NoAnnotation, wld(1, 1, 1))
	r.Move("d2e3", ctg.NoAnnotation, wld(0, 3, 2))
	r.Move("d2d7", ctg.NoAnnotation, wld(0, 9, 0))
	r.Move("h2h4", ctg.NoAnnotation, wld(2, 0, 0))
}

func mustFEN(fen string) *board.Position {
	p, err := board.ParseFEN(fen)
	if err != nil {
		panic(err)
	}
	return p
}

// enPassantBook: en-passant files in keys, only for a legal capture.
func enPassantBook(b *Book) {
	// White to move can take on f6.
	w := b.AddFEN("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", wld(6, 4, 2))
	w.Move("e5f6", ctg.Good, wld(1, 5, 1))
	w.Move("d2d4", ctg.NoAnnotation, wld(2, 2, 2))
	w.Move("g1f3", ctg.NoAnnotation, wld(3, 1, 1))
	// The same board without the double push: another entry.
	n := b.AddFEN("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", wld(1, 1, 1))
	n.Move("d2d4", ctg.NoAnnotation, wld(0, 1, 0))
	n.Move("f1c4", ctg.NoAnnotation, wld(1, 0, 0))

	// Black to move can take on e3.
	k := b.AddFEN("rnbqkbnr/ppp1pppp/8/8/3pP3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 3", wld(3, 3, 3))
	k.Move("d4e3", ctg.NoAnnotation, wld(2, 4, 0))
	k.Move("g8f6", ctg.NoAnnotation, wld(1, 1, 4))
	k.Move("c7c5", ctg.NoAnnotation, wld(0, 2, 1))

	// The capture on c6 would leave the king on a5 to the rook: no
	// en-passant file (the position without the double push is the same
	// entry); no castling and the king on a5: mirrored too.
	p := b.AddFEN("4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2", wld(2, 1, 0))
	p.Move("a5a4", ctg.NoAnnotation, wld(0, 1, 1))
	p.Move("a5b6", ctg.NoAnnotation, wld(1, 1, 0))
	p.Move("a5a6", ctg.NoAnnotation, wld(0, 2, 0))
	p.Move("b5b6", ctg.NoAnnotation, wld(1, 0, 2))
	b.Roots = append(b.Roots, mustFEN("4k3/8/8/KPp4r/8/8/8/8 w - - 0 2"))

	// A capture in a mirrored position: the file is mirrored (d to e).
	m := b.AddFEN("4k3/8/8/3pP3/8/8/8/2K5 w - d6 0 2", wld(2, 2, 1))
	m.Move("e5d6", ctg.NoAnnotation, wld(1, 3, 0))
	m.Move("e5e6", ctg.NoAnnotation, wld(0, 1, 3))
	m.Move("c1d2", ctg.NoAnnotation, wld(1, 1, 1))

	// Two pawns can take.
	t := b.AddFEN("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2", wld(4, 0, 0))
	t.Move("c5d6", ctg.NoAnnotation, wld(0, 2, 0))
	t.Move("e5d6", ctg.NoAnnotation, wld(0, 1, 1))
	t.Move("e1e2", ctg.NoAnnotation, wld(1, 1, 0))

	// Black to move, king on b8: turned over, mirrored, and an
	// en-passant capture on d3.
	bm := b.AddFEN("1k6/8/8/8/3Pp3/8/8/6K1 b - d3 0 2", wld(1, 3, 1))
	bm.Move("e4d3", ctg.NoAnnotation, wld(0, 3, 0))
	bm.Move("b8c7", ctg.NoAnnotation, wld(1, 0, 1))

	// A double push with no pawn beside it: the key has no file, so the
	// FEN's en-passant square changes nothing.
	d := b.AddFEN("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2", wld(0, 0, 3))
	d.Move("e1d2", ctg.NoAnnotation, wld(0, 0, 2))
	d.Move("e1f2", ctg.NoAnnotation, wld(0, 1, 0))
	b.Roots = append(b.Roots, mustFEN("4k3/8/8/3p4/8/8/8/4K3 w - - 0 2"))
}

// castlingBook: every combination of castling rights, for either side to
// move, with the castling moves the rights allow and moves that lose
// rights. (White's pawn on e3 keeps the board from being its own colour
// mirror, which would make each Black-to-move position a White one's
// twin.)
func castlingBook(b *Book) {
	rights := "KQkq"
	for _, side := range []string{"w", "b"} {
		for mask := range 16 {
			field := ""
			for i := range 4 {
				if mask&(1<<i) != 0 {
					field += rights[i : i+1]
				}
			}
			if field == "" {
				field = "-"
			}
			n := b.AddFEN("r3k2r/pppppppp/8/8/8/4P3/PPPP1PPP/R3K2R "+side+" "+field+" - 0 1", wld(mask, 16-mask, 3))
			row, short, long := "1", mask&1 != 0, mask&2 != 0
			if side == "b" {
				row, short, long = "8", mask&4 != 0, mask&8 != 0
			}
			if short {
				n.Move("e"+row+"g"+row, ctg.NoAnnotation, wld(1, 4+mask, 2))
			}
			if long {
				n.Move("e"+row+"c"+row, ctg.NoAnnotation, wld(2, 3, mask))
			}
			n.Move("h"+row+"g"+row, ctg.NoAnnotation, wld(1, 1+mask%3, 1))
			n.Move("a"+row+"b"+row, ctg.NoAnnotation, wld(mask%2, 2, 1))
			n.Move("e"+row+"f"+row, ctg.NoAnnotation, wld(0, 1, mask%5))
		}
	}
}

// promotionsBook: promotions to each piece, by either side, in a
// mirrored position, and the second queen's moves.
func promotionsBook(b *Book) {
	// b7 pushes and takes both ways. After b8 the book has the queen's
	// position (and the knight's: the queen's is the one read); after
	// a8 only the knight's, after c8 only the bishop's.
	w := b.AddFEN("r1b1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", wld(3, 3, 3))
	w.Move("b7b8q", ctg.NoAnnotation, wld(0, 4, 1))
	w.Also("b7b8n", wld(0, 1, 1))
	w.Move("b7a8n", ctg.NoAnnotation, wld(1, 3, 0))
	w.Move("b7c8b", ctg.NoAnnotation, wld(0, 2, 2))
	w.Move("e1d2", ctg.NoAnnotation, wld(2, 1, 0))
	// Black to move (turned over): g1 only as a rook, h1 as a queen.
	k := b.AddFEN("4k3/8/8/8/8/8/6p1/4K2R b - - 0 1", wld(2, 3, 1))
	k.Move("g2g1r", ctg.NoAnnotation, wld(0, 5, 0))
	k.Move("g2h1q", ctg.NoAnnotation, wld(1, 4, 2))
	k.Move("e8d7", ctg.NoAnnotation, wld(1, 1, 1))
	// A mirrored position (king on b1): g8 is b8 in the key. Neither
	// promoted position is in the book: the queen's move leads out of it.
	m := b.AddFEN("4k3/6P1/8/8/8/8/8/1K6 w - - 0 1", wld(2, 0, 1))
	m.Move("g7g8q", ctg.NoAnnotation, wld(0, 2, 1))
	m.Move("b1c2", ctg.NoAnnotation, wld(0, 1, 0))
	o := b.AddFEN("4k3/1P6/8/8/8/8/8/1K6 w - - 0 1", wld(1, 1, 1))
	o.After("b7b8q", ctg.NoAnnotation)
	o.Move("b1a2", ctg.NoAnnotation, wld(1, 1, 0))
	// Two queens: the second (h1 in scan order) moving six ranks up is
	// written twice, 0x1a and 0xf9 (readers take both as the same move).
	q := b.AddFEN("4k3/8/8/8/8/8/8/Q3K2Q w - - 0 1", wld(5, 1, 1))
	q.Move("h1h7", ctg.NoAnnotation, wld(0, 3, 0))
	q.Raw(0xf9, ctg.NoAnnotation)
	q.Move("a1a7", ctg.NoAnnotation, wld(1, 2, 0))
	q.Move("h1b7", ctg.NoAnnotation, wld(0, 1, 3))
	q.Move("a1g7", ctg.NoAnnotation, wld(0, 1, 1))
	q.Move("h1g1", ctg.NoAnnotation, wld(2, 0, 0))
	q.Move("h1h2", ctg.NoAnnotation, wld(0, 0, 4))
	q.Move("a1d4", ctg.NoAnnotation, wld(1, 1, 1))
}

// annotationsBook: each annotation byte against each recommendation range
// of the position a move leads to, over positions of many moves.
func annotationsBook(b *Book) {
	annotations := []ctg.Annotation{ctg.NoAnnotation, ctg.Good, ctg.Mistake, ctg.Brilliant, ctg.Blunder,
		ctg.Interesting, ctg.Dubious, 0x07, ctg.OnlyMove, ctg.Zugzwang, 0xff}
	recommendations := []byte{0, 63, 64, 100, 127, 128, 200, 255}
	combo := 0
	fill := func(n *Node) {
		for _, m := range n.Pos.LegalMoves() {
			a := annotations[combo%len(annotations)]
			r := recommendations[combo/len(annotations)%len(recommendations)]
			st := wld(combo%7, combo%5+1, combo%3)
			st.Recommendation = r
			n.Move(n.Pos.ToPlayed(m).String(), a, st)
			combo++
		}
	}
	start := b.Add(board.StartPosition(), wld(40, 35, 25))
	fill(start)
	for _, first := range []string{"e2e4", "d2d4", "g1f3", "c2c4"} {
		fill(b.Get(after(board.StartPosition(), first)))
	}
	// The only-move annotation and a position whose games were all lost
	// (weight 1/10000), beside a move out of the book.
	o := b.Get(after(after(board.StartPosition(), "e2e4"), "e7e5"))
	st := wld(0, 0, 0)
	st.Recommendation = 128
	o.Move("g1f3", ctg.OnlyMove, st)
	o.Move("f1c4", ctg.OnlyMove, wld(3, 0, 0))
	o.Move("d2d4", ctg.NoAnnotation, wld(5, 0, 0))
	o.After("b1c3", ctg.Good)
}
