package abk

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// Where the fields an editor changes lie in a record.
const (
	priorityOffset = 3
	flagsOffset    = 16
	nextOffset     = 20
	siblingOffset  = 24
)

// MoveID is a move of a position of an ABK book: the position's
// Polyglot key and the move as a Polyglot book stores it.
type MoveID struct {
	Key  board.Key
	Move board.Move
}

// Totals are an ABK move's fields added up over the records that play
// it (transpositions), the priority the highest: what the book's weights
// are made from.
type Totals struct {
	Priority            int8
	Games, Wins, Losses int64 // White's wins and losses
	Records             int
	// Synthetic is, in a converted book (SyntheticGames), the part of
	// Games that carries the move's chance: no games played.
	Synthetic int64
}

// ReadTotals reads the bytes of an ABK book: every move its reader
// serves with its totals.
func ReadTotals(data []byte) (map[MoveID]Totals, error) {
	t, err := newTree(data)
	if err != nil {
		return nil, err
	}
	out := map[MoveID]Totals{}
	t.walk(-1, func(_ int32, r Record, pos *board.Position, played board.Move, _ int, _ int32) int32 {
		id := MoveID{pos.Key(), pos.ToBook(played)}
		m, ok := out[id]
		if !ok {
			m.Priority = r.Priority
		}
		m.Priority = max(m.Priority, r.Priority)
		m.Games += int64(r.Games)
		m.Wins += int64(r.Wins)
		m.Losses += int64(r.Losses)
		m.Records++
		if t.info.SyntheticGames {
			m.Synthetic += syntheticPart(r.Games)
		}
		out[id] = m
		return -1
	})
	return out, nil
}

// Fields are what an ABK book holds for a move and an editor sets: its
// priority (0-9), and its games with White's wins and losses, whichever
// side plays it.
type Fields struct {
	Priority            int8
	Games, Wins, Losses int32
}

// Check refuses fields no book may hold.
func (a Fields) Check() error {
	switch {
	case a.Priority < 0 || a.Priority > 9:
		return fmt.Errorf("priority %d: want 0 to 9", a.Priority)
	case a.Games < 0 || a.Wins < 0 || a.Losses < 0:
		return errors.New("games, wins and losses cannot be negative")
	case int64(a.Wins)+int64(a.Losses) > int64(a.Games):
		return fmt.Errorf("%d wins and %d losses are more than %d games", a.Wins, a.Losses, a.Games)
	}
	return nil
}

// fieldsOf reads the fields an edit gives a move by name, from the view of
// the side that plays it (book.Edit.Fields): "priority", "games", "won",
// "lost".
func fieldsOf(e book.Edit) (Fields, error) {
	const most = 1<<31 - 1
	for name, v := range e.Fields {
		switch name {
		case "priority", "games", "won", "lost":
		default:
			return Fields{}, book.EditErrorf("an ABK move has no field %q (priority, games, won, lost)", name)
		}
		if v < 0 || v > most {
			return Fields{}, book.EditErrorf("%s %d: want 0 to %d", name, v, most)
		}
	}
	p := e.Fields["priority"]
	if p > 9 {
		return Fields{}, book.EditErrorf("priority %d: want 0 to 9", p)
	}
	won, lost := int32(e.Fields["won"]), int32(e.Fields["lost"])
	if !e.Pos.WhiteToMove() {
		won, lost = lost, won // the file keeps White's
	}
	f := Fields{Priority: int8(p), Games: int32(e.Fields["games"]), Wins: won, Losses: lost}
	if err := f.Check(); err != nil {
		return Fields{}, book.EditErrorf("%v", err)
	}
	return f, nil
}

// placed is a record the walk met, with where it is.
type placed struct {
	rec int32
	r   Record
}

// ABK books are edited record by record.
var _ book.Editor = format{DefaultWriteThreshold}

// restore is what undoing a deletion needs: the records marked deleted,
// and their flags before.
type restore struct {
	records, flags []int32
}

// adjust is what undoing a change of a move's fields needs: its records
// before the change and as the change left them, put back as they were
// when they are still so; else the priority before, and the statistics
// changed by the difference, so that games learned meanwhile stay
// counted.
type adjust struct {
	diff          Fields
	before, wrote []placed
}

// appended is what undoing an added move needs: the record appended, the
// pointer that put it in the tree (rec -1: none) with its value before,
// and the book's size before.
type appended struct {
	rec     int32
	pointer struct {
		rec    int32
		offset int
		was    int32
	}
	size int64
}

// Edit changes an ABK book's move in place, under the lock (see
// book.LearnFile.Edit): only what the reader serves is found (within the
// max ply, not under a deleted or illegal move).
func (format) Edit(file *os.File, size int64, e book.Edit, _ func(func(io.Writer) error) error) (book.Edit, error) {
	path := file.Name()
	if e.Pos.Chess960() {
		return book.Edit{}, book.EditErrorf("an ABK book has no Chess960")
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(file, 0, size), data); err != nil {
		return book.Edit{}, fmt.Errorf("edit %s: %w", path, err)
	}
	t, err := newTree(data)
	if err != nil {
		return book.Edit{}, fmt.Errorf("edit %s: %w", path, err)
	}
	at := t.find(e.Pos.Key(), e.Move)
	undo := book.Edit{Pos: e.Pos, Move: e.Move} // each kind sets its Kind and fields
	switch was, adjusting := e.Restore.(adjust); {
	case e.Kind == book.EditFields:
		want, err := fieldsOf(e)
		if err != nil {
			return book.Edit{}, err
		}
		return editTotals(file, at.plays, e.Move, want, false, undo)
	case e.Kind == book.EditRestore && adjusting:
		if recordsAre(at.plays, was.wrote) {
			return putRecords(file, at.plays, was.before, undo)
		}
		return editTotals(file, at.plays, e.Move, was.diff, true, undo)
	case e.Kind == book.EditRestore && isAppended(e.Restore):
		return unappend(file, t, at.plays, e, undo)
	case e.Kind == book.EditDelete:
		return deleteMove(file, at.plays, e, undo)
	case e.Kind == book.EditRestore:
		return restoreMove(file, t, e, undo)
	case e.Kind == book.EditAdd:
		return addMove(file, t, at, e, undo)
	}
	return book.Edit{}, book.EditErrorf("an ABK book's moves have priority and statistics, not a weight of their own")
}

// site is where the reader's walk finds a move of a position.
type site struct {
	plays   []placed // the live records of the move, in the walk's order
	inPos   int32    // a record of the position; -1: none
	reached int32    // a record whose move leads to the position; -1: none
	ply     int      // the position's ply; -1: no line reaches it
}

// find walks the tree for the move of the position key, matched as
// every reader matches it (board.Stores).
func (t *tree) find(key board.Key, move board.Move) site {
	s := site{inPos: -1, reached: -1, ply: -1}
	t.walk(-1, func(rec int32, r Record, pos *board.Position, played board.Move, p int, _ int32) int32 {
		if pos.Key() == key {
			if s.inPos < 0 {
				s.inPos, s.ply = rec, p
			}
			if pos.Stores(played, move) {
				s.plays = append(s.plays, placed{rec, r})
			}
		}
		if s.reached < 0 && pos.KeyAfter(played) == key {
			s.reached = rec
			if s.ply < 0 {
				s.ply = p + 1
			}
		}
		return -1
	})
	if key == board.StartPosition().Key() && s.ply < 0 {
		s.ply = 0
	}
	return s
}

// editTotals sets the move's priority and statistics to want, or, with
// by, changes its statistics by want's (and sets its priority).
func editTotals(file *os.File, plays []placed, move board.Move, want Fields, by bool, undo book.Edit) (book.Edit, error) {
	if len(plays) == 0 {
		return book.Edit{}, book.EditErrorf("%s is not in the book", move)
	}
	var total Fields
	for _, p := range plays {
		total.Priority = max(total.Priority, p.r.Priority)
		total.Games += p.r.Games
		total.Wins += p.r.Wins
		total.Losses += p.r.Losses
	}
	if by {
		want.Games, want.Wins, want.Losses = total.Games+want.Games, total.Wins+want.Wins, total.Losses+want.Losses
	}
	if err := want.Check(); err != nil {
		return book.Edit{}, book.EditErrorf("%v", err)
	}
	undo.Kind = book.EditRestore
	wrote, err := setTotals(file, plays, total, want)
	undo.Restore = adjust{
		diff:   Fields{Priority: total.Priority, Games: total.Games - want.Games, Wins: total.Wins - want.Wins, Losses: total.Losses - want.Losses},
		before: plays, wrote: wrote,
	}
	return undo, err
}

// recordsAre reports whether the move's records are now those that an
// edit left.
func recordsAre(now, wrote []placed) bool {
	return len(wrote) > 0 && slices.Equal(now, wrote)
}

// putRecords gives the move's records now the priority and statistics of
// to, record by record: an edit undone to the bytes.
func putRecords(file *os.File, now, to []placed, undo book.Edit) (book.Edit, error) {
	wrote := make([]placed, len(now))
	for i, p := range now {
		r := p.r
		r.Priority, r.Games, r.Wins, r.Losses = to[i].r.Priority, to[i].r.Games, to[i].r.Wins, to[i].r.Losses
		if err := writeRecord(file, p, r); err != nil {
			return book.Edit{}, err
		}
		wrote[i] = placed{p.rec, r}
	}
	undo.Kind, undo.Restore = book.EditRestore, adjust{before: now, wrote: wrote}
	return undo, nil
}

// writeRecord writes what differs of r's priority and statistics from
// the record p.
func writeRecord(file *os.File, p placed, r Record) error {
	if r.Games != p.r.Games || r.Wins != p.r.Wins || r.Losses != p.r.Losses {
		if err := writeStats(file, p.rec, r); err != nil {
			return fmt.Errorf("edit %s: write record %d: %w", file.Name(), p.rec, err)
		}
	}
	if r.Priority != p.r.Priority {
		return writeByte(file, p.rec, priorityOffset, byte(r.Priority))
	}
	return nil
}

// deleteMove marks the move's records deleted, as Arena does.
func deleteMove(file *os.File, plays []placed, e, undo book.Edit) (book.Edit, error) {
	if len(plays) == 0 {
		return book.Edit{}, book.EditErrorf("%s is not in the book", e.Move)
	}
	var was restore
	for _, p := range plays {
		if err := writeInt32(file, p.rec, flagsOffset, deletedFlag); err != nil {
			undo.Kind, undo.Restore = book.EditRestore, was
			return undo, err // undo restores those written
		}
		was.records = append(was.records, p.rec)
		was.flags = append(was.flags, p.r.Flags)
	}
	undo.Kind, undo.Restore = book.EditRestore, was
	return undo, nil
}

// restoreMove puts back the flags of the records deleteMove marked, when
// the book still holds them.
func restoreMove(file *os.File, t *tree, e, undo book.Edit) (book.Edit, error) {
	was, _ := e.Restore.(restore)
	for i, rec := range was.records {
		if rec >= t.records {
			return book.Edit{}, book.EditErrorf("record %d is gone: the book was rewritten", rec)
		}
		r := t.record(rec)
		if m, ok := r.Move(); !ok || m != e.Move || !r.Deleted() {
			return book.Edit{}, book.EditErrorf("record %d no longer holds %s deleted: the book was rewritten", rec, e.Move)
		}
		if err := writeInt32(file, rec, flagsOffset, was.flags[i]); err != nil {
			return book.Edit{}, err
		}
	}
	undo.Kind = book.EditDelete
	return undo, nil
}

// addMove adds a record of a legal move the book lacks, at a position a
// line of the book reaches within its max ply.
func addMove(file *os.File, t *tree, at site, e, undo book.Edit) (book.Edit, error) {
	if len(at.plays) > 0 {
		return book.Edit{}, book.EditErrorf("%s is in the book already", e.Move)
	}
	if _, err := e.Pos.LegalMove(e.Move); err != nil {
		return book.Edit{}, book.EditErrorf("%v", err)
	}
	fields, err := fieldsOf(e)
	if err != nil {
		return book.Edit{}, err
	}
	if at.ply < 0 {
		return book.Edit{}, book.EditErrorf("no line of the book reaches this position: add the moves that lead to it first")
	}
	if at.ply >= t.maxPly {
		return book.Edit{}, book.EditErrorf("the position is at ply %d, and the book's max ply is %d: a move there is never read", at.ply, t.maxPly)
	}
	a, err := appendRecord(file, t, e, fields, at.inPos, at.reached)
	undo.Kind, undo.Restore = book.EditRestore, a
	return undo, err
}

func isAppended(r any) bool {
	_, ok := r.(appended)
	return ok
}

// unappend takes out the record an add appended, and the pointer to it,
// when it is still the last record, live and pointed to so; else the move
// is deleted as Arena deletes one.
func unappend(file *os.File, t *tree, plays []placed, e, undo book.Edit) (book.Edit, error) {
	a := e.Restore.(appended)
	last := len(plays) == 1 && plays[0].rec == a.rec && a.rec == t.records-1
	if last && a.pointer.rec >= 0 {
		r := t.record(a.pointer.rec)
		last = (a.pointer.offset == nextOffset && r.Next == a.rec) || (a.pointer.offset == siblingOffset && r.Sibling == a.rec)
	}
	if !last {
		e.Kind = book.EditDelete
		return deleteMove(file, plays, e, undo)
	}
	if a.pointer.rec >= 0 {
		if err := writeInt32(file, a.pointer.rec, a.pointer.offset, a.pointer.was); err != nil {
			return book.Edit{}, err
		}
	}
	if err := file.Truncate(a.size); err != nil {
		return book.Edit{}, fmt.Errorf("edit %s: %w", file.Name(), err)
	}
	r := plays[0].r
	won, lost := r.Wins, r.Losses
	if !e.Pos.WhiteToMove() {
		won, lost = lost, won
	}
	undo.Kind = book.EditAdd
	undo.Fields = map[string]int64{"priority": int64(r.Priority), "games": int64(r.Games), "won": int64(won), "lost": int64(lost)}
	return undo, nil
}

// setTotals gives the move's records the totals want: the priority to
// each, the difference of the statistics to the first record (where
// learning counts games); when that record cannot take it (a count would
// go below 0), the first holds all and the others none.
func setTotals(file *os.File, plays []placed, total, want Fields) ([]placed, error) {
	first := plays[0].r
	first.Games += want.Games - total.Games
	first.Wins += want.Wins - total.Wins
	first.Losses += want.Losses - total.Losses
	spread := Fields{Games: first.Games, Wins: first.Wins, Losses: first.Losses}.Check() != nil
	wrote := make([]placed, 0, len(plays))
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
		if total.Priority != want.Priority {
			r.Priority = want.Priority
		}
		if err := writeRecord(file, p, r); err != nil {
			return wrote, err
		}
		wrote = append(wrote, placed{p.rec, r})
	}
	return wrote, nil
}

// appendRecord writes a record for e's move at the end of the records, then
// the pointer that puts it in the tree: at the end of the position's chain
// of moves (inPos is a record of it), as the first reply of the record
// reached leads to the position, or as the root when the book has no
// move. A crash between the two writes leaves a record no line reaches,
// as Arena's free space is.
func appendRecord(file *os.File, t *tree, e book.Edit, f Fields, inPos, reached int32) (appended, error) {
	rec := t.records
	a := appended{rec: rec, size: int64(rec) * RecordSize}
	a.pointer.rec = -1
	r := Record{From: e.Move.From(), To: e.Move.To(), Promo: promoCode(e.Move.Promo(), e.Pos.WhiteToMove()),
		Priority: f.Priority, Games: f.Games, Wins: f.Wins, Losses: f.Losses}
	var buf [RecordSize]byte
	r.Encode(buf[:])
	if _, err := file.WriteAt(buf[:], int64(rec)*RecordSize); err != nil {
		return a, fmt.Errorf("edit %s: append record %d: %w", file.Name(), rec, err)
	}
	point := func(at int32, offset int, was int32) (appended, error) {
		a.pointer.rec, a.pointer.offset, a.pointer.was = at, offset, was
		return a, writeInt32(file, at, offset, rec)
	}
	head := int32(FirstRecord) // with no record of the position: the root's moves, all deleted
	switch {
	case inPos >= 0:
		head = inPos
	case reached >= 0:
		head = t.record(reached).Next
		if head < FirstRecord || head >= t.records {
			return point(reached, nextOffset, head)
		}
		// Replies all deleted or unreadable: their chain is still there.
	case rec == FirstRecord:
		return a, nil // the first move of an empty book is the root by its place
	}
	last := t.lastSibling(head)
	return point(last, siblingOffset, t.record(last).Sibling)
}

// lastSibling is the last record of the chain of siblings from rec, up to
// a pointer out of the records (a cycle ends after as many steps as there
// are records).
func (t *tree) lastSibling(rec int32) int32 {
	for range t.records {
		next := t.record(rec).Sibling
		if next < FirstRecord || next >= t.records {
			break
		}
		rec = next
	}
	return rec
}

// writeInt32 writes one aligned int32 field of record rec (flags, next,
// sibling): seen whole or not at all.
func writeInt32(file *os.File, rec int32, offset int, v int32) error {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(v))
	if _, err := file.WriteAt(b[:], int64(rec)*RecordSize+int64(offset)); err != nil {
		return fmt.Errorf("edit %s: write record %d: %w", file.Name(), rec, err)
	}
	return nil
}

// writeByte writes one byte of record rec (its priority).
func writeByte(file *os.File, rec int32, offset int, v byte) error {
	if _, err := file.WriteAt([]byte{v}, int64(rec)*RecordSize+int64(offset)); err != nil {
		return fmt.Errorf("edit %s: write record %d: %w", file.Name(), rec, err)
	}
	return nil
}
