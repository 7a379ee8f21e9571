// Package ctgwrite writes CTG books for polyproxy's tests: the test books
// of book/ctg/testdata, books made from games for benchmarks and matches,
// and corrupt books. It is test code, never part of the program: polyproxy
// reads CTG books and writes none, since nothing here can check a CTG
// file against ChessBase's own programs; the books it writes are checked
// against DroidFish's reader instead (book/ctg/testdata/README.md).
//
// It writes exactly where package ctg reads: the keys, hashes, table
// indices and move bytes are ctg's; what is here is the layout of pages,
// table and bounds.
package ctgwrite

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/ctg"
)

// Book is a CTG book being made: positions, each with its statistics and
// moves, in the order added (the order they are laid out in).
type Book struct {
	byKey map[string]*entry
	order []*entry
	// Roots are the positions added with Add, in order: where a walk of
	// the book starts.
	Roots []*board.Position
}

// entry is what the book stores under one key: positions that are mirror
// images of each other share it.
type entry struct {
	pos   *board.Position // the first position added under the key
	key   []byte
	stats ctg.Stats
	moves []storedMove
}

// Node is a position of a book: the entry it is stored in, seen from that
// position (its moves are its own, whichever mirror image added the
// entry).
type Node struct {
	book *Book
	Pos  *board.Position
	e    *entry
}

type storedMove struct {
	code byte
	ann  ctg.Annotation
}

// New is an empty book.
func New() *Book { return &Book{byKey: map[string]*entry{}} }

// Add adds a position with its statistics (or finds it, and sets them:
// positions the book stores under one key, mirror images of each other,
// are one) and records it as a root.
func (b *Book) Add(p *board.Position, st ctg.Stats) *Node {
	n := b.node(p)
	n.e.stats = st
	b.Roots = append(b.Roots, n.Pos)
	return n
}

// AddFEN is Add of a FEN; it panics on a bad FEN (specs are code).
func (b *Book) AddFEN(fen string, st ctg.Stats) *Node { return b.Add(mustFEN(fen), st) }

// Has reports whether the book holds p.
func (b *Book) Has(p *board.Position) bool { return b.byKey[string(ctg.Key(p))] != nil }

// Get is p's node, nil if the book has not got it.
func (b *Book) Get(p *board.Position) *Node {
	e := b.byKey[string(ctg.Key(p))]
	if e == nil {
		return nil
	}
	q := *p
	return &Node{b, &q, e}
}

// Len is the number of entries.
func (b *Book) Len() int { return len(b.order) }

func (b *Book) node(p *board.Position) *Node {
	q := *p
	key := ctg.Key(p)
	e := b.byKey[string(key)]
	if e == nil {
		e = &entry{pos: &q, key: key}
		b.byKey[string(key)] = e
		b.order = append(b.order, e)
	}
	return &Node{b, &q, e}
}

// Stats are the statistics of the node's entry, to change.
func (n *Node) Stats() *ctg.Stats { return &n.e.stats }

// Move adds the move uci (a legal move of the node's position) with its
// annotation, and the position after it with statistics next, which it
// returns (found if the book has it already: its statistics are then
// replaced). It panics on a move no byte can name (specs are code).
func (n *Node) Move(uci string, ann ctg.Annotation, next ctg.Stats) *Node {
	c := n.book.node(n.After(uci, ann))
	c.e.stats = next
	return c
}

// After adds the move uci and its annotation without the position after
// it, which it returns: the move leads out of the book unless that
// position is added too.
func (n *Node) After(uci string, ann ctg.Annotation) *board.Position {
	m, err := board.ParseMove(uci)
	if err != nil {
		panic(err)
	}
	played, err := n.Pos.LegalMove(m)
	if err != nil {
		panic(fmt.Sprintf("%s in %s: %v", uci, n.Pos.FEN(), err))
	}
	code, err := ctg.MoveByte(n.Pos, played)
	if err != nil {
		panic(fmt.Sprintf("%s in %s: %v", uci, n.Pos.FEN(), err))
	}
	n.Raw(code, ann)
	return n.Pos.Next(played)
}

// Also adds the position after the move uci with statistics next, but not
// the move: another promotion than the queen's, for instance, whose move
// byte is the queen's.
func (n *Node) Also(uci string, next ctg.Stats) *Node {
	m, err := board.ParseMove(uci)
	if err != nil {
		panic(err)
	}
	played, err := n.Pos.LegalMove(m)
	if err != nil {
		panic(fmt.Sprintf("%s in %s: %v", uci, n.Pos.FEN(), err))
	}
	c := n.book.node(n.Pos.Next(played))
	c.e.stats = next
	return c
}

// Raw adds a move byte as it is, whatever it means here: for corrupt
// books.
func (n *Node) Raw(code byte, ann ctg.Annotation) {
	n.e.moves = append(n.e.moves, storedMove{code, ann})
}

// Has reports whether the node has the move byte code already.
func (n *Node) Has(code byte) bool {
	for _, m := range n.e.moves {
		if m.code == code {
			return true
		}
	}
	return false
}

// Layout is how the positions are spread over the pages.
type Layout struct {
	// Lower and Upper are the page bounds written into the .ctb: the
	// table entries a position may be put under are those package ctg's
	// Candidates gives for them, and the .cto is as long as the largest
	// of any hash.
	Lower, Upper int32
	// PageBytes is how full a page may get (at most ctg.PageSize, the
	// default): less spreads a small book over many pages, so that keys
	// overflow to later candidates.
	PageBytes int
	// Games is the header's count of games.
	Games uint32
}

// Files are a book's three files.
type Files struct {
	CTG, CTO, CTB []byte
}

// bytes is the entry as a page stores it.
func (e *entry) bytes() ([]byte, error) {
	if len(e.moves) > 127 {
		return nil, fmt.Errorf("%s: %d moves, more than a position's move count byte can hold", e.pos.FEN(), len(e.moves))
	}
	b := append([]byte(nil), e.key...)
	b = append(b, byte(1+2*len(e.moves)))
	for _, m := range e.moves {
		b = append(b, m.code, byte(m.ann))
	}
	st := make([]byte, ctg.StatsSize)
	e.stats.Encode(st)
	return append(b, st...), nil
}

// TableSize is the .cto's entry count for the bounds: past the largest
// index Candidates can give.
func TableSize(lower, upper int32) int64 {
	m := int64(0)
	for m < int64(upper) && m < 0x3fffffff {
		m = 2*m + 1
	}
	return 2*m + 1
}

// Build lays the book out: each position goes, in the order added, into
// the page of its first candidate table entry with room, a new page
// starting where an entry has none yet.
func (b *Book) Build(l Layout) (*Files, error) {
	if l.PageBytes == 0 {
		l.PageBytes = ctg.PageSize
	}
	size := TableSize(l.Lower, l.Upper)
	table := make([]int32, size)
	for i := range table {
		table[i] = -1
	}
	type page struct {
		count int
		data  []byte
	}
	var pages []*page
	for _, n := range b.order {
		entry, err := n.bytes()
		if err != nil {
			return nil, err
		}
		placed := false
		var tried []int32
		ctg.Candidates(ctg.Hash(n.key), l.Lower, l.Upper, func(index int32) bool {
			tried = append(tried, index)
			if int64(index) >= size {
				return false
			}
			if table[index] < 0 {
				table[index] = int32(len(pages))
				pages = append(pages, &page{data: make([]byte, 4, ctg.PageSize)})
			}
			p := pages[table[index]]
			if len(p.data)+len(entry) > l.PageBytes {
				return true
			}
			p.data = append(p.data, entry...)
			p.count++
			placed = true
			return false
		})
		if !placed {
			return nil, fmt.Errorf("%s: no room under table entries %v (bounds %d-%d, pages of %d bytes): widen the bounds", n.pos.FEN(), tried, l.Lower, l.Upper, l.PageBytes)
		}
	}
	f := &Files{CTG: make([]byte, ctg.PageSize*(1+len(pages))), CTO: make([]byte, 16+4*size), CTB: make([]byte, 12)}
	binary.BigEndian.PutUint32(f.CTG[28:], l.Games)
	for i, p := range pages {
		binary.BigEndian.PutUint16(p.data[0:], uint16(p.count))
		binary.BigEndian.PutUint16(p.data[2:], uint16(len(p.data)))
		copy(f.CTG[ctg.PageSize*(i+1):], p.data)
	}
	for i, page := range table {
		binary.BigEndian.PutUint32(f.CTO[16+4*i:], uint32(page))
	}
	binary.BigEndian.PutUint32(f.CTB[4:], uint32(l.Lower))
	binary.BigEndian.PutUint32(f.CTB[8:], uint32(l.Upper))
	return f, nil
}

// Pages is the number of data pages.
func (f *Files) Pages() int { return len(f.CTG)/ctg.PageSize - 1 }

// Page is data page i of the .ctg (a slice of it, to corrupt).
func (f *Files) Page(i int) []byte { return f.CTG[ctg.PageSize*(i+1) : ctg.PageSize*(i+2)] }

// Write writes the three files as name's (any of the three names, or the
// name without extension).
func (f *Files) Write(name string) error {
	if !ctg.IsPath(name) {
		name += ".ctg"
	}
	ctgPath, ctoPath, ctbPath := ctg.Paths(name)
	for _, w := range []struct {
		path string
		data []byte
	}{{ctgPath, f.CTG}, {ctoPath, f.CTO}, {ctbPath, f.CTB}} {
		if err := os.WriteFile(w.path, w.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Base is name without its CTG extension.
func Base(name string) string {
	if ctg.IsPath(name) {
		return strings.TrimSuffix(name, filepath.Ext(name))
	}
	return name
}

// LayoutFor is a layout for a big book made from games: its positions
// spread over the pages of one level of the table (masks 2^k-1, with twice
// the pages the positions fill), so that a position is in the first page
// its hash names and a probe reads one page; two levels above take what
// overflows.
func (b *Book) LayoutFor(games uint32) (Layout, error) {
	bytes := 0
	for _, e := range b.order {
		eb, err := e.bytes()
		if err != nil {
			return Layout{}, err
		}
		bytes += len(eb)
	}
	m := int32(0)
	for int64(m)+1 < 2*int64(bytes/ctg.PageSize+1) {
		m = 2*m + 1
	}
	return Layout{Lower: m, Upper: 4*m + 3, Games: games}, nil
}
