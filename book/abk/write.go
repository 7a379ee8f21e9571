package abk

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// MaxPly is the deepest max ply an ABK book's settings can hold.
const MaxPly = 9999

// WriteSettings are the settings Write gives a book: no filters, and
// the weight from the priority alone, as it is (importance 3): a reader
// applying Arena's settings weighs the moves as the priorities, which are
// the Polyglot weights' proportions.
func WriteSettings(maxPly int) Settings {
	return Settings{PriorityImportance: 3, MaxPly: int32(maxPly)}
}

// WriteStats is what Write wrote.
type WriteStats struct {
	Records   int // move records
	Positions int // positions given their moves
	// Transposed counts positions reached again by another move order:
	// their moves are written once, under the first (shortest) line.
	Transposed int
	// BookPositions is the positions of the source book; those no line of
	// book moves from the start position reaches within the max ply are
	// not in the tree.
	BookPositions int
}

// node is a position of the tree being written and the record whose
// next-move pointer leads to its moves.
type node struct {
	pos    *board.Position
	ply    int
	parent int // index into the records, -1 for the start position
}

// Write writes src as an ABK book at path (as a batch of one: all
// or nothing). The tree grows from the start position through src's legal
// moves, breadth first, to positions maxPly plies deep (1 to MaxPly).
// ABK is a tree and Polyglot a table of positions: a position reached
// again by another move order is not expanded a second time (a cycle or
// the transpositions of a big book would multiply the tree), so its moves
// hang under its shortest line only; polyproxy finds them from any move
// order, Arena follows that line.
//
// A record's priority is the move's weight against the position's
// heaviest (9 for it, at least 1 for any weight above 0, 0 for weight 0);
// games, wins and losses come from the learn field: its games, the
// points split into as many draws as they allow (3 games of 4 points: a
// win and two draws). A move of weight above 0 with no games is written as
// one draw, so that readers skipping moves without games (DroidFish, the
// minimum games filter) still offer it.
func Write(path string, src *book.Book, maxPly int) (WriteStats, error) {
	var b book.Batch
	defer b.Abort()
	st, err := WriteTo(&b, path, src, maxPly)
	if err != nil {
		return st, err
	}
	return st, b.Commit()
}

// Write writes src as an ABK book at path into the batch b, as the
// function Write does, and says what the tree holds (book.Writer): a
// Polyglot book is a table of positions, an ABK book a tree from the start position, so what
// no line of book moves reaches is left out. maxPly above MaxPly is
// MaxPly.
func (format) Write(b *book.Batch, path string, src *book.Book, maxPly int) (book.Written, error) {
	maxPly = min(maxPly, MaxPly)
	st, err := WriteTo(b, path, src, maxPly)
	if err != nil {
		return book.Written{}, err
	}
	w := book.Written{Count: fmt.Sprintf("%d ABK records", st.Records),
		Said: fmt.Sprintf("ABK book %s: %d records, %d positions to ply %d", path, st.Records, st.Positions, maxPly)}
	if st.Transposed > 0 {
		w.Said += fmt.Sprintf("; %d positions reached again by another move order have their moves under their first line only", st.Transposed)
	}
	if off := st.BookPositions - st.Positions; off > 0 {
		w.Warnings = append(w.Warnings, fmt.Sprintf("%d of the book's %d positions are not on the ABK tree: no line of book moves from the start position reaches them within %d plies (ABK holds lines from the start position only)", off, st.BookPositions, maxPly))
	}
	return w, nil
}

// WriteTo writes src as an ABK book at path into the batch b, as Write
// does; it is put in place by b's Commit, with the batch's other files.
func WriteTo(b *book.Batch, path string, src *book.Book, maxPly int) (WriteStats, error) {
	var st WriteStats
	if maxPly < 1 || maxPly > MaxPly {
		return st, fmt.Errorf("write ABK book %s: max ply %d is outside 1-%d", path, maxPly, MaxPly)
	}
	records, st, err := treeOf(src, maxPly)
	if err != nil {
		return st, fmt.Errorf("write ABK book %s: %w", path, err)
	}
	err = b.WriteFileFrom(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		header := make([]byte, HeaderSize)
		WriteSettings(maxPly).Encode(header)
		bw.Write(header)
		var buf [RecordSize]byte
		for _, r := range records {
			r.Encode(buf[:])
			bw.Write(buf[:])
		}
		if err := bw.Flush(); err != nil { // a failed Write fails Flush too
			return fmt.Errorf("write ABK book %s: %w", path, err)
		}
		return nil
	})
	return st, err
}

// treeOf lays out the tree of src's moves from the start position: a
// position's moves consecutive, as a sibling chain, in the order of the
// breadth-first walk. The first record is record 900.
func treeOf(src *book.Book, maxPly int) ([]Record, WriteStats, error) {
	var st WriteStats
	var prev board.Key
	for i := 0; i < src.Len(); i++ {
		if k := src.Entry(i).Key; k != 0 && (st.BookPositions == 0 || k != prev) {
			st.BookPositions++
			prev = k
		}
	}
	if err := src.Err(); err != nil {
		return nil, st, err
	}
	var records []Record
	expanded := map[board.Key]bool{}
	queue := []node{{board.StartPosition(), 0, -1}}
	type move struct {
		played board.Move
		e      book.Entry
	}
	var moves []move
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		key := n.pos.Key()
		if expanded[key] {
			st.Transposed++
			continue
		}
		expanded[key] = true
		if n.ply >= maxPly {
			continue
		}
		moves = moves[:0]
		var top uint16
		src.Each(key, func(_ int, e book.Entry) {
			if e.Move.IsNull() {
				return
			}
			played, err := n.pos.LegalMove(n.pos.ToPlayed(e.Move))
			if err != nil {
				return
			}
			moves = append(moves, move{played, e})
			top = max(top, e.Weight)
		})
		if len(moves) == 0 {
			continue
		}
		// Siblings by weight, heaviest first, as a book file orders a
		// position's entries (a merge keeps its first book's order); of
		// entries playing one move (e1h1 and e1g1) the first counts.
		slices.SortStableFunc(moves, func(x, y move) int { return cmp.Compare(y.e.Weight, x.e.Weight) })
		kept := moves[:0]
		for _, m := range moves {
			if !slices.ContainsFunc(kept, func(k move) bool { return k.played == m.played }) {
				kept = append(kept, m)
			}
		}
		moves = kept
		st.Positions++
		first := len(records)
		if n.parent >= 0 {
			records[n.parent].Next = int32(FirstRecord + first)
		}
		white := n.pos.WhiteToMove()
		for i, m := range moves {
			r := recordFor(m.played, m.e, top, white)
			if i < len(moves)-1 {
				r.Sibling = int32(FirstRecord + first + i + 1)
			}
			records = append(records, r)
			queue = append(queue, node{n.pos.Next(m.played), n.ply + 1, first + i})
		}
		if len(records)+FirstRecord > math.MaxInt32/RecordSize {
			return nil, st, fmt.Errorf("more than %d records: too big for an ABK book (lower the max ply)", len(records))
		}
	}
	st.Records = len(records)
	return records, st, nil
}

// recordFor is the record of a book entry (Next and Sibling left 0):
// see Write.
func recordFor(played board.Move, e book.Entry, top uint16, white bool) Record {
	r := Record{From: played.From(), To: played.To(), Promo: promoCode(played.Promo(), white), Next: -1, Sibling: -1}
	if e.Weight > 0 {
		r.Priority = int8(max(1, math.Round(9*float64(e.Weight)/float64(top))))
	}
	games, points := int32(e.Learn.Games()), int32(e.Learn.Points())
	if games == 0 && e.Weight > 0 {
		games, points = 1, 1
	}
	won := min(max(points-games, 0), games) // as many draws as the points allow
	drawn := min(points-2*won, games-won)
	lost := games - won - drawn
	r.Games = games
	if white {
		r.Wins, r.Losses = won, lost
	} else {
		r.Wins, r.Losses = lost, won
	}
	return r
}
