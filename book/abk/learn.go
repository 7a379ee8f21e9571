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
// book.Learner Format). An update's record is found by the reader's own
// walk (Read's), so it is always a record the reader serves:
//
//   - the record on the line the game played (LearnUpdate.Line) when the
//     tree has that line within the book's max ply: the one a reader that
//     follows the game's moves (Arena, DroidFish) reads there, each move
//     matched to the first live record of its chain that plays it;
//   - else the first record the walk serves for the position and move (the
//     game reached it by another move order, or its line is not known):
//     the reader adds up every line's records of a position's move, so
//     the position's move counts the game all the same.
//
// A move the reader does not serve (beyond the max ply, under a deleted
// or illegal move) is not found, so nothing is written where no reader
// looks.
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
	lines := newLines(updates)
	t.walk(lines.root(), lines.visit)
	return lines.count(updates, write, func(rec int32, r Record) error {
		if err := writeStats(file, rec, r); err != nil {
			return fmt.Errorf("learn %s: write record %d: %w", path, rec, err)
		}
		return nil
	})
}

// found is a record the walk served, with the side that plays its move.
type found struct {
	rec   int32 // -1: none
	r     Record
	white bool
}

// lineStep leads from a position on the updates' lines (a node: 0 is the
// start position) to the next, by its key.
type lineStep struct {
	parent int32
	key    board.Key
}

// lineMove is an update's move at the end of its line.
type lineMove struct {
	node int32
	move board.Move
}

// lines are the updates' games as a tree of positions from the start
// position, and the records the walk finds for them: on an update's line
// (onLine) and anywhere the reader serves its position and move (served).
type lines struct {
	nodes   map[lineStep]int32 // a node's children by key
	claimed []bool             // a node already followed by a record of its parent's chain
	onLine  map[lineMove]found
	served  map[moveID]found
	updates []int32 // each update's node; -1: its line is not from the start position
}

func newLines(updates []book.LearnUpdate) *lines {
	l := &lines{nodes: map[lineStep]int32{}, claimed: []bool{false}, onLine: map[lineMove]found{},
		served: map[moveID]found{}, updates: make([]int32, len(updates))}
	start := board.StartPosition().Key()
	for i, u := range updates {
		node := int32(-1)
		if n := len(u.Line); n > 0 && u.Line[0] == start && u.Line[n-1] == u.Key {
			node = 0
			for _, k := range u.Line[1:] {
				step := lineStep{node, k}
				next, ok := l.nodes[step]
				if !ok {
					next = int32(len(l.claimed))
					l.nodes[step] = next
					l.claimed = append(l.claimed, false)
				}
				node = next
			}
			l.onLine[lineMove{node, u.Move}] = found{rec: -1}
		}
		l.updates[i] = node
		l.served[moveID{u.Key, u.Move}] = found{rec: -1}
	}
	return l
}

// root is the mark of the tree's root chain: the start position's node
// when a line starts there.
func (l *lines) root() int32 {
	if len(l.onLine) == 0 {
		return -1
	}
	return 0
}

// visit is the walk's visitor: it notes the first record served for each
// update's position and move, and the record on each update's line, and
// marks the replies of the first record of a chain that follows a line.
func (l *lines) visit(rec int32, r Record, pos *board.Position, played board.Move, _ int, mark int32) int32 {
	id := moveID{pos.Key(), pos.ToBook(played)}
	fd := found{rec, r, pos.WhiteToMove()}
	if f, ok := l.served[id]; ok && f.rec < 0 {
		l.served[id] = fd
	}
	if mark < 0 {
		return -1
	}
	if f, ok := l.onLine[lineMove{mark, id.move}]; ok && f.rec < 0 {
		l.onLine[lineMove{mark, id.move}] = fd
	}
	if r.Next <= 0 {
		return -1
	}
	next, ok := l.nodes[lineStep{mark, pos.KeyAfter(played)}]
	if !ok || l.claimed[next] {
		return -1 // off the lines, or a later record of the same move
	}
	l.claimed[next] = true
	return next
}

// count resolves each update to its record, counts the updates into the
// records (updates of one record combined, in their order) and, with
// write, writes each changed record's statistics with writeRecord. The
// changes are in the order each record first appears; the updates whose
// move the reader does not serve make one change each (key, move) with
// Index -1.
func (l *lines) count(updates []book.LearnUpdate, write bool, writeRecord func(int32, Record) error) ([]book.LearnChange, error) {
	type place struct {
		rec int32
		id  moveID // for a move not served
	}
	var changes []book.LearnChange
	var after []found
	index := map[place]int{}
	for i, u := range updates {
		fd, ok := l.onLine[lineMove{l.updates[i], u.Move}]
		if l.updates[i] < 0 || !ok || fd.rec < 0 {
			fd = l.served[moveID{u.Key, u.Move}]
		}
		p := place{rec: fd.rec}
		if fd.rec < 0 {
			p.id = moveID{u.Key, u.Move}
		}
		c, ok := index[p]
		if !ok {
			c = len(changes)
			index[p] = c
			ch := book.LearnChange{Key: u.Key, Move: u.Move, Index: int(fd.rec)}
			if fd.rec >= 0 {
				ch.Before = fd.r.learn(fd.white)
			}
			changes = append(changes, ch)
			after = append(after, fd)
		}
		if fd.rec < 0 {
			continue
		}
		after[c].r = after[c].r.add(u.Result, fd.white)
		changes[c].Results++
		changes[c].After = after[c].r.learn(fd.white)
	}
	if !write {
		return changes, nil
	}
	for i, c := range changes {
		if c.Results == 0 {
			continue
		}
		if err := writeRecord(after[i].rec, after[i].r); err != nil {
			return changes, book.Unwritten(changes, i, err)
		}
	}
	return changes, nil
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
