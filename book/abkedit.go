package book

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/book/board"
)

// Where the fields an editor changes lie in an ABK record.
const (
	abkPriorityOffset = 3
	abkFlagsOffset    = 16
	abkNextOffset     = 20
	abkSiblingOffset  = 24
)

// ABKMoveID is a move of a position of an ABK book: the position's
// Polyglot key and the move as stored in a Polyglot book.
type ABKMoveID struct {
	Key  board.Key
	Move board.Move
}

// ABKTotals are an ABK move's fields added up over the records that play
// it (transpositions), the priority the highest: what the book's weights
// are made from.
type ABKTotals struct {
	Priority            int8
	Games, Wins, Losses int64 // White's wins and losses
	Records             int
}

// ReadABKTotals reads the bytes of an ABK book: every live move of its
// tree with its totals.
func ReadABKTotals(data []byte) (map[ABKMoveID]ABKTotals, error) {
	t, err := newABKTree(data)
	if err != nil {
		return nil, err
	}
	out := map[ABKMoveID]ABKTotals{}
	err = t.walk(func(_ int32, r ABKRecord, pos *board.Position, played board.Move, _ int) {
		id := ABKMoveID{pos.Key(), pos.ToBook(played)}
		m, ok := out[id]
		if !ok {
			m.Priority = r.Priority
		}
		m.Priority = max(m.Priority, r.Priority)
		m.Games += int64(r.Games)
		m.Wins += int64(r.Wins)
		m.Losses += int64(r.Losses)
		m.Records++
		out[id] = m
	})
	return out, err
}

// abkFound is a record the walk met, with where it is.
type abkFound struct {
	rec int32
	r   ABKRecord
}

// editABK makes e on the ABK book under the lock (see Edit).
func (f *LearnFile) editABK(e Edit, size int64) (Edit, error) {
	if e.Pos.Chess960() {
		return Edit{}, editErrorf("%s", NoChess960Reason)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f.f, 0, size), data); err != nil {
		return Edit{}, fmt.Errorf("edit %s: %w", f.path, err)
	}
	t, err := newABKTree(data)
	if err != nil {
		return Edit{}, fmt.Errorf("edit %s: %w", f.path, err)
	}
	key, stored := e.Pos.Key(), e.Pos.ToBook(e.Move)
	var (
		plays   []abkFound // the live records of the move, in the walk's order
		inPos   = int32(-1)
		reached = int32(-1) // a record whose move leads to the position
		ply     = -1
	)
	err = t.walk(func(rec int32, r ABKRecord, pos *board.Position, played board.Move, p int) {
		if pos.Key() == key {
			if inPos < 0 {
				inPos, ply = rec, p
			}
			if pos.ToBook(played) == stored {
				plays = append(plays, abkFound{rec, r})
			}
		}
		if reached < 0 && pos.KeyAfter(played) == key {
			reached = rec
			if ply < 0 {
				ply = p + 1
			}
		}
	})
	if err != nil {
		return Edit{}, fmt.Errorf("edit %s: %w", f.path, err)
	}
	if key == board.StartPosition().Key() && ply < 0 {
		ply = 0
	}
	undo := Edit{Pos: e.Pos, Move: e.Move}
	switch e.Kind {
	case EditABK, editABKAdjust:
		if len(plays) == 0 {
			return Edit{}, editErrorf("%s is not in the book", e.Move)
		}
		var total ABKFields
		for _, p := range plays {
			total.Priority = max(total.Priority, p.r.Priority)
			total.Games += p.r.Games
			total.Wins += p.r.Wins
			total.Losses += p.r.Losses
		}
		want := e.ABK
		if e.Kind == editABKAdjust {
			want.Games, want.Wins, want.Losses = total.Games+e.ABK.Games, total.Wins+e.ABK.Wins, total.Losses+e.ABK.Losses
		}
		if err := want.check(); err != nil {
			return Edit{}, editErrorf("%v", err)
		}
		undo.Kind = editABKAdjust
		undo.ABK = ABKFields{Priority: total.Priority, Games: total.Games - want.Games, Wins: total.Wins - want.Wins, Losses: total.Losses - want.Losses}
		return undo, f.setABKTotals(plays, total, want)
	case EditDelete:
		if len(plays) == 0 {
			return Edit{}, editErrorf("%s is not in the book", e.Move)
		}
		undo.Kind = editABKRestore
		for _, p := range plays {
			if err := f.writeABKInt32(p.rec, abkFlagsOffset, abkDeleted); err != nil {
				return undo, err // undo restores those written
			}
			undo.records = append(undo.records, p.rec)
			undo.flags = append(undo.flags, p.r.Flags)
		}
		return undo, nil
	case editABKRestore:
		for i, rec := range e.records {
			if rec >= t.records {
				return Edit{}, editErrorf("record %d is gone: the book was rewritten", rec)
			}
			r := t.record(rec)
			if m, ok := r.Move(); !ok || m != e.Move || !r.Deleted() {
				return Edit{}, editErrorf("record %d no longer holds %s deleted: the book was rewritten", rec, e.Move)
			}
			if err := f.writeABKInt32(rec, abkFlagsOffset, e.flags[i]); err != nil {
				return Edit{}, err
			}
		}
		undo.Kind = EditDelete
		return undo, nil
	case EditAdd:
		if len(plays) > 0 {
			return Edit{}, editErrorf("%s is in the book already", e.Move)
		}
		if _, err := e.Pos.LegalMove(e.Move); err != nil {
			return Edit{}, editErrorf("%v", err)
		}
		if err := e.ABK.check(); err != nil {
			return Edit{}, editErrorf("%v", err)
		}
		if ply < 0 {
			return Edit{}, editErrorf("no line of the book reaches this position: add the moves that lead to it first")
		}
		if eff := t.info.Settings.Effective(); ply >= int(eff.MaxPly) {
			return Edit{}, editErrorf("the position is at ply %d, and the book's max ply is %d: a move there is never read", ply, eff.MaxPly)
		}
		undo.Kind = EditDelete
		return undo, f.appendABK(t, e, inPos, reached)
	}
	return Edit{}, editErrorf("an ABK book's moves have priority and statistics, not a weight of their own")
}

// setABKTotals gives the move's records the totals want: the priority to
// each, the difference of the statistics to the first record (where
// learning counts games); when that record cannot take it (a count would
// go below 0), the first holds all and the others none.
func (f *LearnFile) setABKTotals(plays []abkFound, total, want ABKFields) error {
	first := plays[0].r
	first.Games += want.Games - total.Games
	first.Wins += want.Wins - total.Wins
	first.Losses += want.Losses - total.Losses
	spread := ABKFields{Games: first.Games, Wins: first.Wins, Losses: first.Losses}.check() != nil
	for i, p := range plays {
		r := p.r
		switch {
		case i == 0 && !spread:
			r.Games, r.Wins, r.Losses = first.Games, first.Wins, first.Losses
		case i == 0:
			r.Games, r.Wins, r.Losses = want.Games, want.Wins, want.Losses
		case spread:
			r.Games, r.Wins, r.Losses = 0, 0, 0
		}
		if r != p.r {
			if err := f.writeABKStats(p.rec, r); err != nil {
				return fmt.Errorf("edit %s: write record %d: %w", f.path, p.rec, err)
			}
		}
		if total.Priority != want.Priority && r.Priority != want.Priority {
			if err := f.writeABKByte(p.rec, abkPriorityOffset, byte(want.Priority)); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendABK writes a record for e's move at the end of the records, then
// the pointer that puts it in the tree: at the end of the position's chain
// of moves (inPos is a record of it), as the first reply of the record
// reached leads to the position, or as the root when the book has no
// move. A crash between the two writes leaves a record no line reaches,
// as Arena's free space is.
func (f *LearnFile) appendABK(t *abkTree, e Edit, inPos, reached int32) error {
	rec := t.records
	r := ABKRecord{From: e.Move.From(), To: e.Move.To(), Promo: abkPromo(e.Move.Promo(), e.Pos.WhiteToMove()),
		Priority: e.ABK.Priority, Games: e.ABK.Games, Wins: e.ABK.Wins, Losses: e.ABK.Losses}
	var buf [ABKRecordSize]byte
	r.Encode(buf[:])
	if _, err := f.f.WriteAt(buf[:], int64(rec)*ABKRecordSize); err != nil {
		return fmt.Errorf("edit %s: append record %d: %w", f.path, rec, err)
	}
	head := int32(ABKFirstRecord) // with no record of the position: the root's moves, all deleted
	switch {
	case inPos >= 0:
		head = inPos
	case reached >= 0:
		head = t.record(reached).Next
		if head < ABKFirstRecord || head >= t.records {
			return f.writeABKInt32(reached, abkNextOffset, rec)
		}
		// Replies all deleted or unreadable: their chain is still there.
	case rec == ABKFirstRecord:
		return nil // the first move of an empty book is the root by its place
	}
	return f.writeABKInt32(t.lastSibling(head), abkSiblingOffset, rec)
}

// lastSibling is the last record of the chain of siblings from rec, up to
// a pointer out of the records (a cycle ends after as many steps as there
// are records).
func (t *abkTree) lastSibling(rec int32) int32 {
	for range t.records {
		next := t.record(rec).Sibling
		if next < ABKFirstRecord || next >= t.records {
			break
		}
		rec = next
	}
	return rec
}

// writeABKInt32 writes one aligned int32 field of record rec (flags, next,
// sibling): seen whole or not at all.
func (f *LearnFile) writeABKInt32(rec int32, offset int, v int32) error {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(v))
	if _, err := f.f.WriteAt(b[:], int64(rec)*ABKRecordSize+int64(offset)); err != nil {
		return fmt.Errorf("edit %s: write record %d: %w", f.path, rec, err)
	}
	return nil
}

func (f *LearnFile) writeABKByte(rec int32, offset int, v byte) error {
	if _, err := f.f.WriteAt([]byte{v}, int64(rec)*ABKRecordSize+int64(offset)); err != nil {
		return fmt.Errorf("edit %s: write record %d: %w", f.path, rec, err)
	}
	return nil
}
