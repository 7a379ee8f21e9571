package abk

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// The statistics of a record (games, wins, losses: 12 bytes from byte 4)
// are what learning changes in an ABK book.
const statsOffset = 4

// Learn counts updates into the records of an ABK book in place (the
// book's Format.Learn): the tree is read as it is now and each update
// counted into the first record (in the walk's order) that plays its move
// in its position. The book's weights add up the records of a position's
// lines, so one record counting a game is the position's move counting
// it.
func (format) Learn(file *os.File, size int64, updates []book.LearnUpdate, write bool) ([]book.LearnChange, error) {
	path := file.Name()
	data := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(file, 0, size), data); err != nil {
		return nil, fmt.Errorf("learn %s: %w", path, err)
	}
	t, err := newTree(data)
	if err != nil {
		return nil, fmt.Errorf("learn %s: %w", path, err)
	}
	groups := make(map[moveID]int, len(updates))
	var changes []book.LearnChange
	for _, u := range updates {
		id := moveID{u.Key, u.Move}
		if _, ok := groups[id]; !ok {
			groups[id] = len(changes)
			changes = append(changes, book.LearnChange{Key: u.Key, Move: u.Move, Index: -1})
		}
	}
	records := make([]found, len(changes))
	for i := range records {
		records[i].rec = -1
	}
	t.walk(func(rec int32, r Record, pos *board.Position, played board.Move, _ int) {
		if i, ok := groups[moveID{pos.Key(), pos.ToBook(played)}]; ok && records[i].rec < 0 {
			records[i] = found{rec, r, pos.WhiteToMove()}
		}
	})
	for i := range changes {
		if fd := records[i]; fd.rec >= 0 {
			changes[i].Index = int(fd.rec)
			changes[i].Before = fd.r.learn(fd.white)
		}
	}
	after := records
	for _, u := range updates {
		i := groups[moveID{u.Key, u.Move}]
		if after[i].rec < 0 {
			continue
		}
		after[i].r = after[i].r.add(u.Result, after[i].white)
		changes[i].Results++
	}
	for i := range changes {
		if changes[i].Found() {
			changes[i].After = after[i].r.learn(after[i].white)
		}
	}
	if !write {
		return changes, nil
	}
	for i, c := range changes {
		if c.Results == 0 {
			continue
		}
		if err := writeStats(file, after[i].rec, after[i].r); err != nil {
			return changes, book.Unwritten(changes, i, fmt.Errorf("learn %s: write record %d: %w", path, after[i].rec, err))
		}
	}
	return changes, nil
}

// found is a record the walk met, with the side that plays its move.
type found struct {
	rec   int32 // -1: none
	r     Record
	white bool
}

// learn is the record's statistics as the learn field of its move's entry
// (White plays it when white).
func (r Record) learn(white bool) book.Learn {
	return learnField(int64(r.Games), int64(r.Wins), int64(r.Losses), white)
}

// add counts one game with result res of the side that played the move
// (White when white) into the record's statistics, which are White's. At
// the int32 limit the three counts are halved first, keeping the ratios.
func (r Record) add(res book.Result, white bool) Record {
	if r.Games == math.MaxInt32 {
		r.Games, r.Wins, r.Losses = r.Games/2, r.Wins/2, r.Losses/2
	}
	r.Games++
	switch {
	case res == book.Win && white, res == book.Loss && !white:
		r.Wins++
	case res == book.Loss && white, res == book.Win && !white:
		r.Losses++
	}
	return r
}

// writeStats writes the games, wins and losses of record rec and nothing
// else.
//
// Crash safety: the 12 bytes start at a multiple of 4. Where they lie in
// one 512-byte sector (all but 2 records in 128) they are one pwrite
// that, as for a Polyglot learn field, other processes and a power loss
// see whole or not at all. Where they cross a sector they are three
// aligned 4-byte writes, each atomic, games first: at every moment
// wins + losses <= games, and a crash between them can at worst count a
// decided game as a draw.
func writeStats(f *os.File, rec int32, r Record) error {
	var b [12]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(r.Games))
	binary.LittleEndian.PutUint32(b[4:], uint32(r.Wins))
	binary.LittleEndian.PutUint32(b[8:], uint32(r.Losses))
	off := int64(rec)*RecordSize + statsOffset
	parts := [][]byte{b[:]}
	if off/512 != (off+int64(len(b))-1)/512 {
		parts = [][]byte{b[0:4], b[4:8], b[8:12]}
	}
	for _, p := range parts {
		n, err := f.WriteAt(p, off)
		if err == nil && n != len(p) {
			err = io.ErrShortWrite
		}
		if err != nil {
			return err
		}
		off += int64(len(p))
	}
	return nil
}
