package ctg

import (
	"encoding/binary"

	"github.com/polyproxy/polyproxy/book/board"
)

// WalkStats count what a walk found.
type WalkStats struct {
	Positions int // positions visited (with moves or not)
	Depth     int // the deepest ply a visited position is at
	// Entries is the book entries the walk met: mirror twins share one,
	// so it can be fewer than Positions.
	Entries int
}

// Walk visits the positions of the book that lines of book moves from
// start reach, breadth first, each once (positions are told apart as
// Polyglot keys tell them), to maxPly plies: a position at maxPly is
// visited without being asked for its moves' positions. visit gets the
// position, its ply and what the book holds there; an error from it ends
// the walk. A move's next position is walked when the book has it, whatever
// the move's weight.
func (b *Book) Walk(start *board.Position, maxPly int, opt Options, visit func(p *board.Position, ply int, e *Position) error) (WalkStats, error) {
	var st WalkStats
	type node struct {
		pos *board.Position
		ply int
	}
	seen := map[board.Key]bool{start.Key(): true}
	entries := map[[2]int]bool{}
	queue := []node{{start, 0}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		e, err := b.Probe(n.pos, opt)
		if err != nil {
			return st, err
		}
		if e == nil {
			continue
		}
		st.Positions++
		st.Depth = max(st.Depth, n.ply)
		entries[[2]int{int(e.Page), e.Offset}] = true
		if err := visit(n.pos, n.ply, e); err != nil {
			return st, err
		}
		if n.ply >= maxPly {
			continue
		}
		for _, m := range e.Moves {
			if m.Next == nil {
				continue
			}
			next := n.pos.Next(m.Move)
			if !seen[next.Key()] {
				seen[next.Key()] = true
				queue = append(queue, node{next, n.ply + 1})
			}
		}
	}
	st.Entries = len(entries)
	return st, nil
}

// Entries counts the positions the book's pages hold: every page the
// table names once, its positions as far as they can be read. It is what
// a walk can reach at most; faults met are reported as probes report them.
func (b *Book) Entries() (int, error) {
	pages := map[int32]bool{}
	var buf [4]byte
	var page [PageSize]byte
	count := 0
	for i := int64(0); i < b.ctoEntries; i++ {
		if _, err := b.cto.ReadAt(buf[:], ctoHeaderSize+4*i); err != nil {
			return count, err
		}
		p := int32(binary.BigEndian.Uint32(buf[:]))
		if p < 0 || pages[p] {
			continue
		}
		pages[p] = true
		positions, used, ok, err := b.readPage(int32(i), p, &page)
		if err != nil {
			return count, err
		}
		if !ok {
			continue
		}
		count += countPage(&page, positions, used)
	}
	return count, nil
}

// countPage counts the positions of a page that can be read whole.
func countPage(buf *[PageSize]byte, positions, used int) int {
	offset, n := pageHeaderSize, 0
	for range positions {
		if offset >= PageSize {
			break
		}
		keyLen := int(buf[offset] & keyLenMask)
		if offset+keyLen >= PageSize {
			break
		}
		end := offset + keyLen + int(buf[offset+keyLen]) + StatsSize
		if end > PageSize || end > used {
			break
		}
		n++
		offset = end
	}
	return n
}
