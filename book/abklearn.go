package book

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/polyproxy/polyproxy/book/board"
)

// The statistics of an ABK record (games, wins, losses: 12 bytes from
// byte 4) are what learning changes in an ABK book.
const abkStatsOffset = 4

// runABK is run for an ABK book, under the lock: the tree is read as it
// is now and each update counted into the first record (in the walk's
// order) that plays its move in its position. The book's weights add up
// the records of a position's lines, so one record counting a game is the
// position's move counting it.
func (f *LearnFile) runABK(updates []LearnUpdate, changes []LearnChange, groups map[entryID]int, size int64, write bool) ([]LearnChange, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(f.f, 0, size), data); err != nil {
		return nil, fmt.Errorf("learn %s: %w", f.path, err)
	}
	t, err := newABKTree(data)
	if err != nil {
		return nil, fmt.Errorf("learn %s: %w", f.path, err)
	}
	type found struct {
		rec   int32
		r     ABKRecord
		white bool
	}
	records := make([]found, len(changes))
	for i := range records {
		records[i].rec = -1
	}
	err = t.walk(func(rec int32, r ABKRecord, pos *board.Position, played board.Move, _ int) {
		if i, ok := groups[entryID{pos.Key(), pos.ToBook(played)}]; ok && records[i].rec < 0 {
			records[i] = found{rec, r, pos.WhiteToMove()}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("learn %s: %w", f.path, err)
	}
	learnOf := func(fd found) Learn {
		return abkLearn(int64(fd.r.Games), int64(fd.r.Wins), int64(fd.r.Losses), fd.white)
	}
	for i := range changes {
		if fd := records[i]; fd.rec >= 0 {
			changes[i].Index = int(fd.rec)
			changes[i].Before = learnOf(fd)
		}
	}
	after := records
	for _, u := range updates {
		i := groups[entryID{u.Key, u.Move}]
		if after[i].rec < 0 {
			continue
		}
		after[i].r = after[i].r.add(u.Result, after[i].white)
		changes[i].Results++
	}
	for i := range changes {
		if changes[i].Found() {
			changes[i].After = learnOf(after[i])
		}
	}
	if !write {
		return changes, nil
	}
	for i := range changes {
		c := &changes[i]
		if c.Results == 0 {
			continue
		}
		if err := f.writeABKStats(after[i].rec, after[i].r); err != nil {
			for j := i; j < len(changes); j++ {
				changes[j].After = changes[j].Before
				changes[j].Results = 0
			}
			return changes, fmt.Errorf("learn %s: write record %d: %w", f.path, after[i].rec, err)
		}
	}
	return changes, nil
}

// add counts one game with result r of the side that played the move
// (White when white) into the record's statistics, which are White's. At
// the int32 limit the three counts are halved first, keeping the ratios.
func (r ABKRecord) add(res Result, white bool) ABKRecord {
	if r.Games == math.MaxInt32 {
		r.Games, r.Wins, r.Losses = r.Games/2, r.Wins/2, r.Losses/2
	}
	r.Games++
	switch {
	case res == Win && white, res == Loss && !white:
		r.Wins++
	case res == Loss && white, res == Win && !white:
		r.Losses++
	}
	return r
}

// writeABKStats writes the games, wins and losses of record rec and
// nothing else.
//
// Crash safety: the 12 bytes start at a multiple of 4. Where they lie in
// one 512-byte sector (all but 2 records in 128) they are one pwrite
// that, as for a Polyglot learn field (writeLearn), other processes and a
// power loss see whole or not at all. Where they cross a sector they are
// three aligned 4-byte writes, each atomic, games first: at every moment
// wins + losses <= games, and a crash between them can at worst count a
// decided game as a draw.
func (f *LearnFile) writeABKStats(rec int32, r ABKRecord) error {
	var b [12]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(r.Games))
	binary.LittleEndian.PutUint32(b[4:], uint32(r.Wins))
	binary.LittleEndian.PutUint32(b[8:], uint32(r.Losses))
	off := int64(rec)*ABKRecordSize + abkStatsOffset
	parts := [][]byte{b[:]}
	if off/512 != (off+int64(len(b))-1)/512 {
		parts = [][]byte{b[0:4], b[4:8], b[8:12]}
	}
	for _, p := range parts {
		n, err := f.f.WriteAt(p, off)
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
