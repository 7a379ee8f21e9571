package learn

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/book/pgn"
)

// hostPGN follows the PGN file a tournament host appends each finished
// game to (cutechess-cli's -pgnout, fastchess's -pgnout file=, a GUI's
// tournament PGN), reading only what was added since the last look, and
// only whole games: a game the host is still writing is read again, whole,
// once it is finished. The file may not exist yet, and may be replaced
// (rotated) or truncated: what is read then is a new generation of the
// file, read from its start.
type hostPGN struct {
	path   string
	looked bool        // refresh was called
	file   os.FileInfo // the file read so far; nil: none found yet
	gen    int         // counts the files read
	next   int64       // offset of the first byte not read yet
	// part is what was read after the last whole game, from partAt: the
	// start of a game being written, or blank lines.
	part   []byte
	partAt int64
	// tail is the last bytes read, before next: a file truncated and
	// written anew may have grown past next by the time it is read again,
	// and then holds other bytes there.
	tail  []byte
	games []*hostGame // whole games read, in file order, still wanted (prune)
	// files are the files read, the newest keptFiles generations, to place
	// where a game started in them (markOf).
	files []genFile
	now   func() time.Time
	skip  int  // games read from part's start, taken already
	line  int  // part's first line (a UTF-8 BOM is read as such on line 1 only)
	align bool // part starts inside a line
	r     *pgn.Reader
}

// genFile is the file of one generation as first read (its size then),
// and by when.
type genFile struct {
	gen   int
	file  os.FileInfo
	found time.Time
}

// tailLen is how much of what was read is checked to be still there; two
// files that differ before it and agree in it at the same place do not
// occur.
const tailLen = 256

// keptFiles bounds the generations remembered: a file is replaced or
// truncated far less often than games start.
const keptFiles = 64

// hostGame is one whole game of the host's PGN.
type hostGame struct {
	gen    int
	offset int64  // where its text starts
	hash   uint64 // of its text: with offset, what names it in a claim
	game   *pgn.Game
	err    error // a syntax error: game is nil
	// Its positions, worked out the first time it is compared to a game
	// played (replay).
	replayed bool
	begin    int         // ply of its start position
	keys     []board.Key // of its start and of the position after each move
	plies    int         // its moves: its last position is at keys[plies]
}

// pgnMark is where the host's PGN ended when a game started: a game
// written later lies beyond it, in the same file or a newer one.
type pgnMark struct {
	gen    int
	offset int64
}

// after reports that g was written after the mark m.
func (g *hostGame) after(m pgnMark) bool {
	return g.gen > m.gen || g.gen == m.gen && g.offset >= m.offset
}

// lookBack is how far before the end of a file first found with games in
// it reading starts: those games came before any of ours (the session's
// calls never lag that far behind its games), but a game being written
// across the end must be read from its real start, so that it is known to
// come before. No game of a host is this long.
const lookBack = 1 << 20

// readPiece bounds what one read takes in, so that a large new file is
// parsed as it is read rather than held whole.
const readPiece = 1 << 20

func newHostPGN(path string, now func() time.Time) *hostPGN { return &hostPGN{path: path, now: now} }

// PGNStat is the host's PGN file at one instant: the proxy's loop takes
// it (one stat) as the GUI starts a game, so that the game is looked for
// among the games written after that instant only, however late the
// session's calls come, and whatever it read of the file before.
type PGNStat struct {
	path  string
	known bool        // the stat answered
	file  os.FileInfo // nil: no file there
}

// StatPGN is the file at path (BookLearnPGN) now; "" stats nothing.
func StatPGN(path string) PGNStat {
	if path == "" {
		return PGNStat{}
	}
	fi, err := os.Stat(path)
	st := PGNStat{path: path}
	switch {
	case err == nil:
		// Windows reads a file's identity when it is first compared, by
		// its name: now, while the name is this file's.
		os.SameFile(fi, fi)
		st.known, st.file = true, fi
	case errors.Is(err, fs.ErrNotExist):
		st.known = true
	}
	return st
}

// end is where what was read so far ends.
func (h *hostPGN) end() pgnMark { return pgnMark{h.gen, h.next} }

// markOf is where the file ended at the stat st (known), taken just
// after the time at, in the generations read: the file of st as read by
// then, else as first read after; when there was no file then, or it was
// replaced before it was read, every file first read after is newer. It
// errs towards taking in the games written near a rewrite of the file,
// never towards leaving out a game written after st.
func (h *hostPGN) markOf(st PGNStat, at time.Time) pgnMark {
	if st.file != nil {
		var first, byThen *genFile
		for i := range h.files {
			f := &h.files[i]
			if os.SameFile(f.file, st.file) {
				if first == nil {
					first = f
				}
				if !f.found.After(at) {
					byThen = f
				}
			}
		}
		switch {
		case byThen != nil:
			return pgnMark{byThen.gen, st.file.Size()}
		case first != nil && first.file.Size() < st.file.Size():
			return pgnMark{first.gen, 0} // written anew before it was read
		case first != nil:
			return pgnMark{first.gen, st.file.Size()}
		}
	}
	for _, f := range h.files {
		if f.found.After(at) {
			return pgnMark{f.gen, 0}
		}
	}
	return pgnMark{h.gen + 1, 0}
}

// refresh reads what the host wrote since the last call. A file that does
// not exist is not an error: the host has not written a game yet (or
// removed the file; the next one is a new generation).
func (h *hostPGN) refresh() error {
	first := !h.looked
	h.looked = true
	st, err := os.Stat(h.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		// A pipe would block the reader and give each byte to one reader
		// only.
		return fmt.Errorf("%s is not a regular file", h.path)
	}
	f, err := os.Open(h.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return err
	}
	gen := h.gen
	switch {
	case h.file == nil && first:
		h.startFile(max(0, st.Size()-lookBack)) // what lies far before the end is no one's
	case h.file == nil, !os.SameFile(h.file, st):
		h.startFile(0) // written since the last look, or rotated: a new file took the name
	case st.Size() < h.next, !h.unchanged(f):
		h.startFile(0) // truncated, and written anew
	}
	if h.gen != gen {
		if len(h.files) == keptFiles {
			h.files = append(h.files[:0], h.files[1:]...)
		}
		// The time after the stat: the file was there by then.
		h.files = append(h.files, genFile{h.gen, st, h.now()})
	}
	h.file = st
	for {
		want := int(min(max(st.Size()-h.next, 4<<10), readPiece))
		h.part = slices.Grow(h.part, want)
		n := len(h.part)
		got, err := f.ReadAt(h.part[n:n+want], h.next)
		h.part = h.part[:n+got]
		h.next += int64(got)
		if got > 0 {
			h.keepTail(h.part[n : n+got])
			h.parse()
		}
		if err == io.EOF || got == 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// unchanged reports that f, read up to next, still holds there what was
// read.
func (h *hostPGN) unchanged(f *os.File) bool {
	if len(h.tail) == 0 {
		return true
	}
	was := make([]byte, len(h.tail))
	_, err := f.ReadAt(was, h.next-int64(len(was)))
	return err == nil && bytes.Equal(was, h.tail)
}

// keepTail keeps the last tailLen bytes of what was read, read the last.
func (h *hostPGN) keepTail(read []byte) {
	if len(read) >= tailLen {
		h.tail = append(h.tail[:0], read[len(read)-tailLen:]...)
		return
	}
	h.tail = append(h.tail, read...)
	if extra := len(h.tail) - tailLen; extra > 0 {
		h.tail = h.tail[:copy(h.tail, h.tail[extra:])]
	}
}

// startFile starts a new generation of the file at offset from.
func (h *hostPGN) startFile(from int64) {
	h.gen++
	h.tail = h.tail[:0]
	h.next, h.partAt, h.part, h.skip, h.line, h.align = from, from, h.part[:0], 0, 1, from > 0
	if from > 0 {
		h.line = 2 // its number unknown: not the first
	}
}

// parse takes the whole games out of part. A game is whole when its
// termination marker and a byte after it were read, or the next game's
// tags: one cut by the end of what is written so far, or a syntax error
// found there (a tag line half written), waits for more.
//
// Reading starts again, with more text, at a line start where a game
// ended (the rest of its line blank), as the reader of the whole file
// would be there; games read since (one ended mid-line, not the usual
// way) are read again and passed over (skip).
func (h *hostPGN) parse() {
	text := h.part
	if h.align {
		// Reading started inside the file: at the first line start.
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			return
		}
		text, h.partAt, h.align = text[i+1:], h.partAt+int64(i+1), false
	}
	if h.r == nil {
		h.r = pgn.NewChunkReader(pgn.Piece{Text: text, Line: h.line})
	} else {
		h.r.ResetChunk(pgn.Piece{Text: text, Line: h.line})
	}
	prev, n := 0, 0        // where the last game read ends; games read
	anchor, before := 0, 0 // where reading starts again; games read before it
	for {
		g, err := h.r.Next()
		if err == io.EOF {
			break
		}
		var syntax *pgn.SyntaxError
		if err != nil && !errors.As(err, &syntax) {
			break // a chunk reader has no read errors
		}
		end := h.r.Offset()
		if end >= len(text) {
			// Cut by the end of what is written so far, or, ending there,
			// a termination marker may be the start of a longer word.
			break
		}
		if n++; n > h.skip {
			start := prev
			for start < end && isBlank(text[start]) {
				start++
			}
			sum := fnv.New64a()
			sum.Write(text[start:end])
			hg := &hostGame{gen: h.gen, offset: h.partAt + int64(start), hash: sum.Sum64()}
			if err != nil {
				hg.err = err
			} else {
				hg.game = g.Clone()
			}
			h.games = append(h.games, hg)
		}
		prev = end
		if next := lineStartAt(text, end); next >= 0 {
			anchor, before = next, n
		}
	}
	h.skip = n - before
	h.line += bytes.Count(text[:anchor], []byte{'\n'})
	k := copy(h.part, text[anchor:])
	h.part = h.part[:k]
	h.partAt += int64(anchor)
}

// lineStartAt is where the line after i starts, when only blanks are left
// on i's line and its end is in text, or i itself when it starts a line;
// else -1.
func lineStartAt(text []byte, i int) int {
	if i == 0 || text[i-1] == '\n' {
		return i
	}
	for ; i < len(text); i++ {
		switch text[i] {
		case '\n':
			return i + 1
		case ' ', '\t', '\r':
		default:
			return -1
		}
	}
	return -1
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// prune forgets the games written before every mark still in use (the
// games waiting to be found, the game being played): they can be no one's.
func (h *hostPGN) prune(marks []pgnMark) {
	keep := h.games[:0]
	for _, g := range h.games {
		for _, m := range marks {
			if g.after(m) {
				keep = append(keep, g)
				break
			}
		}
	}
	clear(h.games[len(keep):])
	h.games = keep
}

// replay works out the game's positions, once. They stop at a move that
// cannot be played: learn -pgn skips such a game, and so does counting
// it, saying why.
func (g *hostGame) replay() {
	if g.replayed {
		return
	}
	g.replayed = true
	if g.game == nil {
		return
	}
	start, err := g.game.Start()
	if err != nil {
		return // no positions: not a game polyproxy plays
	}
	g.begin = plyOf(&start)
	g.plies = g.game.NumMoves()
	g.keys = append(make([]board.Key, 0, g.plies+1), start.Key())
	_ = g.game.ReplayPliesFrom(start, g.plies, func(pos *board.Position, m board.Move) {
		g.keys = append(g.keys, pos.KeyAfter(m))
	})
}

// describe names the game for the log, by its tags.
func (g *hostGame) describe() string {
	if g.game == nil {
		return fmt.Sprintf("the game at byte %d", g.offset)
	}
	s := fmt.Sprintf("%q - %q", g.game.Tag("White"), g.game.Tag("Black"))
	if r := g.game.Tag("Round"); r != "" && r != "?" {
		s += ", round " + r
	}
	s += ", " + g.game.Tag("Result")
	if t := g.game.Tag("Termination"); t != "" {
		s += " (" + t + ")"
	}
	return fmt.Sprintf("%s at byte %d", s, g.offset)
}
