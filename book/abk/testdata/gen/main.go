// Command gen writes the hand-made ABK books of book/abk/testdata: small
// trees, each showing one odd case of the format (deleted records, the
// book's filters and importances at their limits, promotions, a
// transposition) or one kind of corruption (cycles, pointers out of the
// file, truncation, an illegal move). It writes the 28-byte records
// itself, so that a file can be exactly as broken as wanted, and depends on
// nothing of polyproxy's.
//
// Usage: go run ./testdata/gen -dir testdata (from book/abk/; see
// README.md there for what each book holds).
package main

import (
	"encoding/binary"
	"flag"
	"log"
	"os"
	"path/filepath"
	"sort"
)

// The format's constants: record 900 is the first move from the start
// position, and the header's settings are int32s at these offsets.
const (
	recordSize  = 28
	firstRecord = 900

	offMinGames      = 0xDE
	offMinWonGames   = 0xE2
	offMinWinWhite   = 0xE6
	offMinWinBlack   = 0xEA
	offPrioImportanc = 0xEE
	offGamesImport   = 0xF2
	offScoreImport   = 0xF6
	offMaxPly        = 0xFA

	deletedFlag = 0x01000000
	none        = -1
)

// settings are the header's book settings.
type settings struct {
	minGames, minWonGames, minWinWhite, minWinBlack  int32
	prioImportance, gamesImportance, scoreImportance int32
	maxPly                                           int32
}

// plain is the header of the books that test no setting: no filter, all
// three importances in play, no ply limit within reach.
var plain = settings{prioImportance: 10, gamesImportance: 10, scoreImportance: 5, maxPly: 40}

// node is one book move and the replies to it; rec is its record number,
// set by layout.
type node struct {
	move                string // UCI; a promotion's colour follows from its from-rank
	priority            int8
	games, wins, losses int32 // wins and losses from White's view
	deleted             bool
	replies             []*node
	rec                 int32
}

// record is one 28-byte record as it will be written.
type record struct {
	from, to, promotion, priority int8
	games, wins, losses, flags    int32
	nextMove, nextSibling         int32
}

// mv is a move with its priority and statistics, and the replies to it.
func mv(move string, priority int8, games, wins, losses int32, replies ...*node) *node {
	return &node{move: move, priority: priority, games: games, wins: wins, losses: losses, replies: replies}
}

// deleted marks a move's record deleted.
func deleted(n *node) *node {
	n.deleted = true
	return n
}

// abk is a book being made: its settings, its tree, and its records once
// laid out (records[i] is record firstRecord+i).
type abk struct {
	settings
	root    []*node
	records []record
}

func newBook(s settings, root ...*node) *abk {
	b := &abk{settings: s, root: root}
	b.layout(root)
	return b
}

// layout gives a position's moves consecutive records, then lays out the
// replies of each in turn, as Arena's books do: a sibling chain is a run of
// records.
func (b *abk) layout(siblings []*node) int32 {
	if len(siblings) == 0 {
		return none
	}
	first := int32(firstRecord + len(b.records))
	for i, n := range siblings {
		n.rec = first + int32(i)
		b.records = append(b.records, record{})
	}
	for i, n := range siblings {
		from, to, promotion := encodeMove(n.move)
		r := record{
			from: from, to: to, promotion: promotion, priority: n.priority,
			games: n.games, wins: n.wins, losses: n.losses,
			nextMove: none, nextSibling: none,
		}
		if n.deleted {
			r.flags = deletedFlag
		}
		if i+1 < len(siblings) {
			r.nextSibling = siblings[i+1].rec
		}
		r.nextMove = b.layout(n.replies)
		b.records[n.rec-firstRecord] = r
	}
	return first
}

// rec is the record of a laid-out node, for the corrupt books to break.
func (b *abk) rec(n *node) *record {
	return &b.records[n.rec-firstRecord]
}

// bytes is the whole file: a header of zeros but for the settings, the
// unused records before 900, then the records.
func (b *abk) bytes() []byte {
	buf := make([]byte, (firstRecord+len(b.records))*recordSize)
	le := binary.LittleEndian
	for off, v := range map[int]int32{
		offMinGames: b.minGames, offMinWonGames: b.minWonGames,
		offMinWinWhite: b.minWinWhite, offMinWinBlack: b.minWinBlack,
		offPrioImportanc: b.prioImportance, offGamesImport: b.gamesImportance,
		offScoreImport: b.scoreImportance, offMaxPly: b.maxPly,
	} {
		le.PutUint32(buf[off:], uint32(v))
	}
	for i, r := range b.records {
		p := buf[(firstRecord+i)*recordSize:]
		p[0], p[1], p[2], p[3] = byte(r.from), byte(r.to), byte(r.promotion), byte(r.priority)
		for j, v := range []int32{r.games, r.wins, r.losses, r.flags, r.nextMove, r.nextSibling} {
			le.PutUint32(p[4+4*j:], uint32(v))
		}
	}
	return buf
}

// encodeMove turns a UCI move into the record's from, to and promotion:
// squares a1 = 0 … h8 = 63; promotion 1 rook, 2 knight, 3 bishop, 4 queen,
// negative for White (from the 7th rank), as DroidFish's reader reads it.
func encodeMove(uci string) (from, to, promotion int8) {
	square := func(s string) int8 {
		if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
			log.Fatalf("bad square in move %q", uci)
		}
		return int8(s[0]-'a') + 8*int8(s[1]-'1')
	}
	if len(uci) != 4 && len(uci) != 5 {
		log.Fatalf("bad move %q", uci)
	}
	from, to = square(uci[0:2]), square(uci[2:4])
	if len(uci) == 5 {
		switch uci[4] {
		case 'r':
			promotion = 1
		case 'n':
			promotion = 2
		case 'b':
			promotion = 3
		case 'q':
			promotion = 4
		default:
			log.Fatalf("bad promotion in move %q", uci)
		}
		if uci[1] == '7' {
			promotion = -promotion
		}
	}
	return from, to, promotion
}

func main() {
	dir := flag.String("dir", ".", "folder to write the books to")
	flag.Parse()
	books := map[string][]byte{}
	for name, build := range makers {
		books[name] = build()
	}
	names := make([]string, 0, len(books))
	for name := range books {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(*dir, name), books[name], 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
