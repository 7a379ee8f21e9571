package book

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/polyproxy/polyproxy/book/board"
)

// ABKMaxPly is the deepest max ply an ABK book's settings can hold.
const ABKMaxPly = 9999

// ABKWriteSettings are the settings WriteABK gives a book: no filters, and
// the weight from the priority alone, as it is (importance 3): a reader
// applying Arena's settings weighs the moves as the priorities, which are
// the Polyglot weights' proportions.
func ABKWriteSettings(maxPly int) ABKSettings {
	return ABKSettings{PriorityImportance: 3, MaxPly: int32(maxPly)}
}

// ABKWriteStats is what WriteABK wrote.
type ABKWriteStats struct {
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

// abkNode is a position of the tree being written and the record whose
// next-move pointer leads to its moves.
type abkNode struct {
	pos    *board.Position
	ply    int
	parent int // index into the records, -1 for the start position
}

// WriteABK writes src as an ABK book at path (through WriteFileFrom: all
// or nothing). The tree grows from the start position through src's legal
// moves, breadth first, to positions maxPly plies deep (1 to ABKMaxPly).
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
func WriteABK(path string, src *Book, maxPly int) (st ABKWriteStats, err error) {
	err = alone(func(b *Batch) (err error) {
		st, err = b.WriteABK(path, src, maxPly)
		return err
	})
	return st, err
}

// WriteABK writes src as an ABK book into the batch, as WriteABK does.
func (b *Batch) WriteABK(path string, src *Book, maxPly int) (ABKWriteStats, error) {
	var st ABKWriteStats
	if maxPly < 1 || maxPly > ABKMaxPly {
		return st, fmt.Errorf("write ABK book %s: max ply %d is outside 1-%d", path, maxPly, ABKMaxPly)
	}
	records, st, err := abkTreeOf(src, maxPly)
	if err != nil {
		return st, fmt.Errorf("write ABK book %s: %w", path, err)
	}
	err = b.WriteFileFrom(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		header := make([]byte, ABKHeaderSize)
		ABKWriteSettings(maxPly).Encode(header)
		bw.Write(header)
		var buf [ABKRecordSize]byte
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

// abkTreeOf lays out the tree of src's moves from the start position: a
// position's moves consecutive, as a sibling chain, in the order of the
// breadth-first walk. The first record is record 900.
func abkTreeOf(src *Book, maxPly int) ([]ABKRecord, ABKWriteStats, error) {
	var st ABKWriteStats
	start, err := startPosition()
	if err != nil {
		return nil, st, err
	}
	var prev board.Key
	for i := 0; i < src.Len(); i++ {
		if k := src.keyAt(i); k != 0 && (st.BookPositions == 0 || k != prev) {
			st.BookPositions++
			prev = k
		}
	}
	if err := src.Err(); err != nil {
		return nil, st, err
	}
	var records []ABKRecord
	expanded := map[board.Key]bool{}
	queue := []abkNode{{start, 0, -1}}
	type move struct {
		played board.Move
		e      Entry
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
		src.Each(key, func(_ int, e Entry) {
			if e.Move.IsNull() {
				return
			}
			played, err := n.pos.LegalMove(n.pos.ToPlayed(e.Move))
			if err != nil {
				return
			}
			for _, m := range moves {
				if m.played == played {
					return // a duplicate entry: the first counts
				}
			}
			moves = append(moves, move{played, e})
			top = max(top, e.Weight)
		})
		if len(moves) == 0 {
			continue
		}
		st.Positions++
		first := len(records)
		if n.parent >= 0 {
			records[n.parent].Next = int32(ABKFirstRecord + first)
		}
		white := n.pos.WhiteToMove()
		for i, m := range moves {
			r := abkRecordFor(m.played, m.e, top, white)
			if i < len(moves)-1 {
				r.Sibling = int32(ABKFirstRecord + first + i + 1)
			}
			records = append(records, r)
			queue = append(queue, abkNode{n.pos.Next(m.played), n.ply + 1, first + i})
		}
		if len(records)+ABKFirstRecord > math.MaxInt32/ABKRecordSize {
			return nil, st, fmt.Errorf("more than %d records: too big for an ABK book (lower the max ply)", len(records))
		}
	}
	st.Records = len(records)
	return records, st, nil
}

// abkRecordFor is the record of a book entry (Next and Sibling left 0):
// see WriteABK.
func abkRecordFor(played board.Move, e Entry, top uint16, white bool) ABKRecord {
	r := ABKRecord{From: played.From(), To: played.To(), Promo: abkPromo(played.Promo(), white), Next: -1, Sibling: -1}
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
