package learn

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"
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
//
// Nothing read is kept but the games and the last tailLen bytes (to tell
// a file written anew): the file is read in windows, and a game still
// being written is read again from the file at the next look, so a huge
// comment or line costs time, never memory.
type hostPGN struct {
	path   string
	looked bool        // refresh was called
	file   os.FileInfo // the file read so far; nil: none found yet
	gen    int         // counts the files read
	next   int64       // offset of the first byte not read yet
	// from is where the next look reads again from: after the last whole
	// game, at a line start; what follows is the start of a game being
	// written, or blank lines.
	from  int64
	line  int         // from's line (a UTF-8 BOM is read as such on line 1 only)
	skip  int         // games read from from, taken already
	align bool        // from is inside a line: reading starts at the next one
	games []*hostGame // whole games read, in file order, still wanted (prune)
	// filed is the games of games that can be played, by what a game
	// played tells of the games it may be (fitKey), and among those by
	// what they count: finding a game costs what fits it, not the file.
	filed map[fitKey][]*alikeGames
	// taken names every game read in this generation, in file order, and
	// takenBefore those of the one before: a host that writes the file
	// anew with the games it held, read halfway through that, gives them
	// again in a new generation, where they are not new games.
	taken, takenBefore []readGame
	// files are the files read, the newest keptFiles generations, to place
	// where a game started in them (markOf).
	files []genFile
	// tail is the last bytes the reader read, from tailAt (at most
	// tailLen): a file truncated and written anew may have grown past next
	// by the time it is read again, and then holds other bytes there.
	tail   []byte
	tailAt int64
	now    func() time.Time
	r      *pgn.Reader
	// The file being read: the window the reader reads, where the next
	// one starts, where the text ends, and a read error found there.
	f        *os.File
	window   []byte
	windowAt int64
	end      int64
	readErr  error
	text     fileText // the text the reader read, walked again behind it
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

// readGame names a whole game read, where its text starts and by its
// text's hash: the same name in the next generation of the file is the
// same game, written again with the rest.
type readGame struct {
	offset int64
	hash   uint64
}

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
	// Its positions (none: it cannot be replayed, and is no game
	// polyproxy plays), worked out as it is read.
	begin int         // ply of its start position
	keys  []board.Key // of its start and of the position after each move
	plies int         // its moves: its last position is at keys[plies]
	// counts names what counting it gives for either side: its positions
	// and its result. Games with the same counts count alike.
	counts uint64
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

// hostWindow is how much of the file is read at a time, by the reader
// and by the walk behind it: all that is held of the text. A variable
// only so that tests can make it small.
var hostWindow = 64 << 10

func newHostPGN(path string, now func() time.Time) *hostPGN { return &hostPGN{path: path, now: now} }

// PGNStat is the host's PGN file at one instant: the proxy's loop takes
// it as the GUI starts a game, so that the game is looked for among the
// games written after that instant only, however late the session's
// calls come, whatever it read of the file before, and however the host
// writes the file.
type PGNStat struct {
	path  string
	known bool        // the stat answered
	file  os.FileInfo // nil: no file there
	// tail is the file's last bytes then (at most tailLen): a file the
	// host wrote anew since, holding them at the same place, holds before
	// them what the file held (nil: none). ReadTail reads them.
	tail []byte
}

// StatPGN is the file at path (BookLearnPGN) now; "" stats nothing. It
// costs a stat: where the file ends as the game starts, which no game of
// ours can lie before, so it is taken before the proxy answers. The file
// is opened and read by ReadTail, once the answer is out.
func StatPGN(path string) *PGNStat {
	if path == "" {
		return &PGNStat{}
	}
	fi, err := os.Stat(path)
	st := &PGNStat{path: path}
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

// ReadTail reads the last bytes of the file stat'ed, up to its size then
// (a FIFO is never opened: it would block): the proxy's loop reads them
// just after its answer is flushed, so that they are the bytes the file
// held at the stat (hosts append, or write the file anew with what it
// held) and reading them never delays an answer. None when the name holds
// another file by now, or a shorter one: the mark then errs towards
// taking in the games written near the rewrite (markOf), never towards
// leaving one of ours out.
func (st *PGNStat) ReadTail() {
	if st.file != nil && st.file.Mode().IsRegular() && st.file.Size() > 0 {
		st.tail = lastBytes(st.path, st.file)
	}
}

// lastBytes reads the last bytes (at most tailLen) of the file fi, at
// path, up to fi's size; nil when the name holds another file by then, or
// it is shorter.
func lastBytes(path string, fi os.FileInfo) []byte {
	// Not blocking: the name may hold a FIFO by now.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(now, fi) {
		return nil
	}
	at := max(0, fi.Size()-tailLen)
	b := make([]byte, fi.Size()-at)
	if n, _ := f.ReadAt(b, at); n < len(b) {
		return nil
	}
	return b
}

// readTo is where what was read so far ends.
func (h *hostPGN) readTo() pgnMark { return pgnMark{h.gen, h.next} }

// markOf is where the file ended at the stat st (known), taken just
// after the time at, in the generations read (the reader just looked):
// the file read now, when it holds the file's last bytes then at the same
// place (the same file grown, or one the host wrote anew with what it
// held); else the file of st as read by then, or as first read after;
// when there was no file then, or it was replaced before it was read,
// every file first read after is newer. It errs towards taking in the
// games written near a rewrite of the file, never towards leaving out a
// game written after st. (A file's identity alone can mislead: a host
// that writes a new file for each game gets inode numbers back.)
func (h *hostPGN) markOf(st PGNStat, at time.Time) pgnMark {
	if st.file == nil {
		return h.firstAfter(at)
	}
	if h.holds(st) {
		return pgnMark{h.gen, st.file.Size()}
	}
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
	return h.firstAfter(at)
}

// firstAfter is the start of the first file first read after the time at.
func (h *hostPGN) firstAfter(at time.Time) pgnMark {
	for _, f := range h.files {
		if f.found.After(at) {
			return pgnMark{f.gen, 0}
		}
	}
	return pgnMark{h.gen + 1, 0}
}

// holds reports that the file at the path holds what was read of the
// generation read now, and the last bytes of the file of the stat st at
// the same place.
func (h *hostPGN) holds(st PGNStat) bool {
	if len(st.tail) == 0 || h.gen == 0 {
		return false
	}
	f, err := os.OpenFile(h.path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || !h.unchanged(f) {
		return false
	}
	was := make([]byte, len(st.tail))
	n, _ := f.ReadAt(was, st.file.Size()-int64(len(was)))
	return n == len(was) && bytes.Equal(was, st.tail)
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
	gen, same := h.gen, h.file != nil && os.SameFile(h.file, st)
	switch {
	case h.file == nil && first:
		h.startFile(max(0, st.Size()-lookBack)) // what lies far before the end is no one's
	case h.gen > 0 && st.Size() >= h.next && h.unchanged(f):
		// What was read is still there: the file grew, or the host wrote
		// it anew (in place, or a new file renamed into place) holding
		// what it held first; it goes on.
	default:
		// Rotated, truncated, or written anew with other text (or read
		// while it is written anew): a new generation of the file.
		h.startFile(0)
	}
	if h.gen != gen || !same {
		if len(h.files) == keptFiles {
			h.files = append(h.files[:0], h.files[1:]...)
		}
		// The time after the stat: the file was there by then. A file
		// that goes on with the generation before is that generation's.
		h.files = append(h.files, genFile{h.gen, st, h.now()})
	}
	h.file = st
	if st.Size() <= h.next {
		return nil // nothing new
	}
	return h.read(f, st.Size())
}

// unchanged reports that f still holds what the reader read last, where
// it read it.
func (h *hostPGN) unchanged(f *os.File) bool {
	var was [tailLen]byte
	n, err := f.ReadAt(was[:len(h.tail)], h.tailAt)
	return n == len(h.tail) && (err == nil || err == io.EOF) && bytes.Equal(was[:n], h.tail)
}

// keepTail keeps the last tailLen bytes of the text read, read is the
// window read at at. A window that does not follow the tail (reading
// started again further on) starts it anew; one that starts inside it
// (a game still being written, read again) replaces what it read again.
func (h *hostPGN) keepTail(at int64, read []byte) {
	if at < h.tailAt || at > h.tailAt+int64(len(h.tail)) {
		h.tail, h.tailAt = h.tail[:0], at
	}
	h.tail = h.tail[:at-h.tailAt]
	if len(read) >= tailLen {
		h.tail, h.tailAt = append(h.tail[:0], read[len(read)-tailLen:]...), at+int64(len(read)-tailLen)
		return
	}
	h.tail = append(h.tail, read...)
	if extra := len(h.tail) - tailLen; extra > 0 {
		h.tail, h.tailAt = h.tail[:copy(h.tail, h.tail[extra:])], h.tailAt+int64(extra)
	}
}

// startFile starts a new generation of the file at offset from.
func (h *hostPGN) startFile(from int64) {
	h.gen++
	h.takenBefore, h.taken = h.taken, h.takenBefore[:0]
	h.tail, h.tailAt = h.tail[:0], from
	h.next, h.from, h.skip, h.line, h.align = from, from, 0, 1, from > 0
	if from > 0 {
		h.line = 2 // its number unknown: not the first
	}
}

// read takes the whole games out of the file's text from h.from to size.
// A game is whole when its termination marker and a byte after it were
// read, or the next game's tags: one cut by the end of what is written so
// far, or a syntax error found there (a tag line half written), waits for
// more.
//
// The next look reads again from a line start where a game ended (the
// rest of its line blank), as the reader of the whole file would be
// there; games read since (one ended mid-line, not the usual way) are read
// again and passed over (skip).
func (h *hostPGN) read(f *os.File, size int64) error {
	h.f, h.end, h.readErr = f, size, nil
	h.window = slices.Grow(h.window[:0], hostWindow)[:hostWindow]
	h.text.f, h.text.buf = f, slices.Grow(h.text.buf[:0], hostWindow)[:hostWindow]
	defer func() { h.f, h.text.f, h.next = nil, nil, h.end }()
	if h.align {
		// Reading started inside the file: at the first line start.
		i, err := h.text.lineBreak(h.from, size)
		if err != nil {
			return err
		}
		if i < 0 {
			h.from = size // all in the line cut
			return nil
		}
		h.from, h.align = i+1, false
	}
	h.text.at, h.text.line, h.text.last = h.from, h.line, '\n'
	h.windowAt = h.from
	if h.r == nil {
		h.r = &pgn.Reader{Continue: h.nextWindow}
	}
	first, _ := h.nextWindow()
	first.Line = h.line
	h.r.ResetChunk(first)
	n := 0                      // games read
	anchor, before := h.from, 0 // where reading starts again; games read before it
	anchorLine := h.line
	err := h.takeGames(func(end int64, g *pgn.Game, syntax *pgn.SyntaxError) error {
		if n < h.skip {
			if err := h.text.walk(end, nil); err != nil {
				return err
			}
		} else {
			start, hash, err := h.text.game(end)
			if err != nil {
				return err
			}
			h.take(start, hash, g, syntax)
		}
		n++
		next, err := h.text.lineStartAt(end, h.end)
		if next >= 0 {
			anchor, before, anchorLine = next, n, h.text.line
			if next > end {
				anchorLine++ // past the line break
			}
		}
		return err
	})
	h.skip = n - before
	h.from, h.line = anchor, anchorLine
	if err != nil {
		return err
	}
	return h.readErr
}

// take takes in the whole game read at offset with the text's hash, unless
// it is a game of the generation before, written again there.
func (h *hostPGN) take(offset int64, hash uint64, g *pgn.Game, syntax *pgn.SyntaxError) {
	name := readGame{offset, hash}
	h.taken = append(h.taken, name)
	if _, again := slices.BinarySearchFunc(h.takenBefore, name, func(r, n readGame) int {
		return cmp.Or(cmp.Compare(r.offset, n.offset), cmp.Compare(r.hash, n.hash))
	}); again {
		return
	}
	hg := &hostGame{gen: h.gen, offset: offset, hash: hash}
	if syntax != nil {
		hg.err = syntax
	} else {
		hg.game = g.Clone()
		hg.replay()
	}
	h.games = append(h.games, hg)
	if hg.whole() {
		h.fileGame(hg)
	}
}

// takeGames gives each game the reader reads that ends before the end of
// what is written, with where it ends, to take, until take fails.
func (h *hostPGN) takeGames(take func(end int64, g *pgn.Game, syntax *pgn.SyntaxError) error) error {
	for {
		g, err := h.r.Next()
		if err == io.EOF {
			return nil
		}
		var syntax *pgn.SyntaxError
		if err != nil && !errors.As(err, &syntax) {
			return nil // a chunk reader has no read errors
		}
		end := h.from + int64(h.r.Offset())
		if end >= h.end {
			// Cut by the end of what is written so far, or, ending there,
			// a termination marker may be the start of a longer word.
			return nil
		}
		if err := take(end, g, syntax); err != nil {
			return err
		}
	}
}

// nextWindow is the reader's next window of the file (Continue): open
// while the text goes on after it, so that the reader goes on into the
// next one wherever it is; the one that reaches the end of what is
// written is not, and ends as a piece cut before a game does (the text
// after it comes later).
func (h *hostPGN) nextWindow() (pgn.Piece, bool) {
	if h.windowAt >= h.end {
		return pgn.Piece{}, false
	}
	n := int(min(int64(len(h.window)), h.end-h.windowAt))
	got, err := h.f.ReadAt(h.window[:n], h.windowAt)
	if got < n {
		// Cut short (truncated since, or a read error): the text ends
		// here for this look.
		if err != io.EOF {
			h.readErr = err
		}
		h.end = h.windowAt + int64(got)
	}
	h.keepTail(h.windowAt, h.window[:got])
	h.windowAt += int64(got)
	return pgn.Piece{Text: h.window[:got], Open: h.windowAt < h.end}, true
}

// fileText walks the file's text behind the reader, a window at a time,
// to name each game by its text and know the lines.
type fileText struct {
	f    *os.File
	buf  []byte
	at   int64 // the next byte
	line int   // at's line
	last byte  // the byte before at
}

// walk reads the text from t.at to end, giving each window and where it
// starts to use (if not nil).
func (t *fileText) walk(end int64, use func(at int64, w []byte)) error {
	err := t.look(t.at, end, func(at int64, w []byte) bool {
		t.line += bytes.Count(w, []byte{'\n'})
		t.last = w[len(w)-1]
		if use != nil {
			use(at, w)
		}
		t.at = at + int64(len(w))
		return true
	})
	return err
}

// game walks on to end, where a game read ends, and gives where the
// game's text starts (past the blanks before it) and its hash.
func (t *fileText) game(end int64) (start int64, hash uint64, err error) {
	sum := fnv.New64a()
	start = -1
	err = t.walk(end, func(at int64, w []byte) {
		if start < 0 {
			i := 0
			for i < len(w) && isBlank(w[i]) {
				i++
			}
			if i == len(w) {
				return
			}
			start, w = at+int64(i), w[i:]
		}
		sum.Write(w)
	})
	if start < 0 {
		start = end
	}
	return start, sum.Sum64(), err
}

// lineBreak is where the first line break at or after from is, before
// end; -1: none.
func (t *fileText) lineBreak(from, end int64) (int64, error) {
	i := int64(-1)
	err := t.look(from, end, func(at int64, w []byte) bool {
		if k := bytes.IndexByte(w, '\n'); k >= 0 {
			i = at + int64(k)
			return false
		}
		return true
	})
	return i, err
}

// lineStartAt is where the line after i starts, when only blanks are left
// on i's line and its end is before end, or i itself when it starts a
// line; else -1. The text was walked to i.
func (t *fileText) lineStartAt(i, end int64) (int64, error) {
	if t.last == '\n' {
		return i, nil
	}
	next := int64(-1)
	err := t.look(i, end, func(at int64, w []byte) bool {
		for k, c := range w {
			switch c {
			case '\n':
				next = at + int64(k) + 1
				return false
			case ' ', '\t', '\r':
			default:
				return false
			}
		}
		return true
	})
	return next, err
}

// look reads the text from from to end, without walking it, giving each
// window and where it starts to more until it returns false.
func (t *fileText) look(from, end int64, more func(at int64, w []byte) bool) error {
	for from < end {
		n := int(min(int64(len(t.buf)), end-from))
		got, err := t.f.ReadAt(t.buf[:n], from)
		if got < n {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF // truncated while read
			}
			return err
		}
		if !more(from, t.buf[:n]) {
			return nil
		}
		from += int64(n)
	}
	return nil
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// prune forgets the games written before every mark still in use (the
// games waiting to be found, the game being played): they can be no
// one's. Games are read in the order they were written, so those are the
// first ones, each first in its file too.
func (h *hostPGN) prune(marks []pgnMark) {
	n := 0
	for n < len(h.games) && !slices.ContainsFunc(marks, h.games[n].after) {
		if g := h.games[n]; g.whole() {
			h.unfileGame(g)
		}
		n++
	}
	clear(h.games[:n])
	h.games = h.games[n:]
}

// whole reports that every move of the game could be played.
func (g *hostGame) whole() bool { return g.game != nil && len(g.keys) == g.plies+1 }

// replay works out the game's positions and what counting it gives. They
// stop at a move that cannot be played: learn -pgn skips such a game, and
// so does counting it, saying why.
func (g *hostGame) replay() {
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
	sum := fnv.New64a()
	var b [8]byte
	for _, k := range g.keys {
		binary.LittleEndian.PutUint64(b[:], uint64(k))
		sum.Write(b[:])
	}
	sum.Write([]byte(g.game.Tag("Result")))
	g.counts = sum.Sum64()
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
