package pgn

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
)

// SyntaxError is a syntax error in one game. The reader has skipped the
// rest of that game; the next call to Next reads the following game.
type SyntaxError struct {
	Line     int // where the error is
	GameLine int // where the broken game starts
	Msg      string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("PGN line %d: %s", e.Line, e.Msg) }

// lineWindow is the most of one line the reader of a stream holds: a
// longer line is read through in windows, never whole, so a file of any
// line length is read in the same memory. What the reader makes of the
// text does not depend on it (the tests read with tiny windows).
const lineWindow = 64 << 10

// Limits that hold a reader's memory to a constant whatever the input
// (PolyGlot gives up on the whole file at a token or tag value of 256
// bytes): beyond them a game is skipped as broken, the run goes on.
// Variables only so that tests can make them small.
var (
	// shortLine: a line longer than this (without its line break) never
	// starts a game's tags or counts as empty where a game start is
	// looked for (after a broken game, at a comment left open, where a
	// stream is cut in pieces), so that question is decided on a line
	// held whole.
	shortLine = 4 << 10
	// maxItem bounds a token (a move, move number or result), a NAG and
	// a tag, [ to ].
	maxItem = 4 << 10
)

// maxGameText bounds what a game holds: its tags and kept moves, with
// their offsets (Game.bytes).
const maxGameText = 4 << 20

// Reader reads games one at a time from a stream, holding at most a window
// of one line and one game's tags and kept moves: comments, variations and
// the moves past MoveLimit are read through, never held. It reads what
// real PGN files contain: a UTF-8 BOM, \r\n line ends, {comments} over
// several lines, ; comments, % escape lines, NAGs ($1, !, ?!), nested
// (variations), move numbers such as "12." and "12...", glued or not to
// the move.
type Reader struct {
	// MoveLimit, if positive, keeps only the main line's first MoveLimit
	// moves: the rest of the game is still read, and a syntax error there
	// still breaks the game, but its moves are not kept (make-book, which
	// replays only its -max-ply first plies).
	MoveLimit int
	// Continue, for a reader of pieces (NewChunkReader), gives the piece
	// that follows the current one when the current one ends torn (see
	// Torn), or false at the end of the stream: the reader then reads on
	// into it as the reader of the whole stream does, until a piece ends
	// where the whole stream's reader starts a game, and Next returns
	// io.EOF there. The pieces read before are no longer referenced.
	Continue func() (Piece, bool)

	br     *bufio.Reader
	cur    []byte // the current window of a line, cur[pos:] not yet read
	pos    int
	more   bool // the line goes on after cur
	cont   bool // cur continues the line of the window before
	skip   bool // the rest of the line is not read (a ; comment, a % line)
	lineNo int
	long   []byte // a window put together from several reads
	carry  []byte // an item a window cut, on its way to the next window
	// pending is the rest of a read that a window did not take, ending
	// the line if pendingEnds.
	pending     []byte
	pendingEnds bool
	err         error // sticky read error, io.EOF at the end
	// prevTag reports that the line before cur was a tag line; used to
	// find the start of the next game after a syntax error.
	prevTag bool
	curTag  bool
	// blank: cur is an empty line; prevBlank: the line before it was.
	blank, prevBlank bool
	game             Game

	// A piece of a larger stream (NewChunkReader): chunk unless it is the
	// last; a piece that is not open ends before a tag line that follows a
	// line that is not one, and that end is read as the reader of the
	// whole stream would read that line.
	chunk bool
	open  bool
	text  []byte // a chunk reader's text not yet read: its lines are sliced from it, not copied
	size  int    // a chunk reader's whole text, with the pieces Continue gave
	torn  bool
}

// Game is one game of a PGN file: its tags and its main line. Its text
// lies in one buffer, referenced by offsets, so reading a game allocates
// nothing once the buffers have grown (make-book reads millions). The
// reader reuses one Game: it is valid until the next call to Next.
type Game struct {
	// Line is the 1-based line where the game starts.
	Line int
	// Result is the game termination marker after the moves: "1-0",
	// "0-1", "1/2-1/2" or "*"; "" when the game ended without one (end of
	// file or the next game's tags). The Result tag is read with Tag.
	Result string

	buf   []byte
	tags  []rawTag
	moves []span
}

type span struct{ start, end int32 }

type rawTag struct{ name, value span }

func (g *Game) reset() {
	g.buf = g.buf[:0]
	g.tags = g.tags[:0]
	g.moves = g.moves[:0]
	g.Result = ""
	g.Line = 0
}

func (g *Game) add(b []byte) span {
	s := int32(len(g.buf))
	g.buf = append(g.buf, b...)
	return span{s, int32(len(g.buf))}
}

func (g *Game) text(s span) []byte { return g.buf[s.start:s.end] }

// What a game's moves and tags take besides their text.
const (
	moveBytes = 8  // a span
	tagBytes  = 16 // a rawTag
)

// bytes is what the game holds.
func (g *Game) bytes() int { return len(g.buf) + moveBytes*len(g.moves) + tagBytes*len(g.tags) }

// Tag returns the value of the named tag (case-sensitive, as PGN defines
// tag names), or "" when the game has none.
func (g *Game) Tag(name string) string {
	for _, t := range g.tags {
		if string(g.text(t.name)) == name {
			return string(g.text(t.value))
		}
	}
	return ""
}

// NumMoves is the number of moves of the main line.
func (g *Game) NumMoves() int { return len(g.moves) }

// Move is the i-th move of the main line as written, minus move numbers
// and annotation glyphs (!, ?, !?); variations, comments and NAGs are left
// out. The bytes are the game's: valid until the next call to Next.
func (g *Game) Move(i int) []byte { return g.text(g.moves[i]) }

// Clone is a copy of the game that stays valid after the next call to
// Next.
func (g *Game) Clone() *Game {
	c := *g
	c.buf = slices.Clone(g.buf)
	c.tags = slices.Clone(g.tags)
	c.moves = slices.Clone(g.moves)
	return &c
}

// NewReader reads PGN from r.
func NewReader(r io.Reader) *Reader { return newReaderWindow(r, lineWindow) }

// newReaderWindow reads PGN from r in windows of the given size (at least
// 16 bytes).
func newReaderWindow(r io.Reader, window int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, window)}
}

// NewChunkReader reads a piece of a larger PGN stream, as cut by a
// Splitter so that pieces can be read in parallel: its text holds whole
// lines (an open piece may end inside one), its first line is line Line
// of the stream, and, unless Last or Open, the text after it starts with
// a line that looks like a tag ([Name "value"]) and follows a line that
// is not one. There the reader of the whole stream ends a game without
// termination marker, or an open variation, and starts a new game, and so
// does this reader at the end of the piece; where the whole stream's
// reader would go on with the same game (a game's tags, a comment not
// followed by an empty line, a bad game being skipped), and at the end of
// an open piece, the piece is torn: see Torn and Continue.
func NewChunkReader(p Piece) *Reader {
	r := &Reader{}
	r.ResetChunk(p)
	return r
}

// ResetChunk makes r a chunk reader of another piece (as NewChunkReader),
// keeping its buffers, MoveLimit and Continue: a goroutine reading piece
// after piece allocates nothing once they have grown.
func (r *Reader) ResetChunk(p Piece) {
	text := p.Text
	if text == nil {
		text = []byte{} // nil marks a stream reader
	}
	*r = Reader{MoveLimit: r.MoveLimit, Continue: r.Continue, text: text, size: len(text), game: r.game,
		long: r.long[:0], carry: r.carry[:0], lineNo: p.Line - 1, chunk: !p.Last, open: p.Open && !p.Last}
}

// Offset is how many bytes of a chunk reader's text, and of the pieces
// Continue gave after it, have been read: after Next returned a game,
// where the text that follows it starts (just after its termination
// marker, or at the next game's first tag line).
func (r *Reader) Offset() int {
	return r.size - len(r.text) - len(r.pending) - (len(r.cur) - r.pos)
}

// Torn reports, once Next has returned io.EOF, that the piece ended where
// the reader of the whole stream would have gone on with the same game
// (and Continue had no piece to go on with): the games read so far may
// differ from the whole stream's; read the piece again and on into the
// next with Continue.
func (r *Reader) Torn() bool { return r.torn }

// nextPiece goes on into the piece after the current one (Continue).
// When there is none the stream ends with the current piece, which is
// then read as the last.
func (r *Reader) nextPiece() bool {
	if r.Continue == nil {
		return false
	}
	p, ok := r.Continue()
	if !ok {
		r.chunk, r.open = false, false
		return false
	}
	r.text = p.Text
	if r.text == nil {
		r.text = []byte{}
	}
	r.size += len(p.Text)
	r.chunk, r.open = !p.Last, p.Open && !p.Last
	r.err = nil
	return true
}

// Next returns the next game. At the end it returns io.EOF. A syntax error
// in a game returns a *SyntaxError (and the game as far as it was read);
// the reader has then skipped that game and the next call goes on with
// the following one. Any other error is a read error and final.
func (r *Reader) Next() (*Game, error) {
	err := r.next(&r.game)
	var syntax *SyntaxError
	if err != nil && !errors.As(err, &syntax) {
		return nil, err
	}
	return &r.game, err
}

// nextLine makes the next window current: the next line, or the next
// part of the current one. A line of at most shortLine bytes comes whole;
// a longer one in windows, the first of more than shortLine bytes. false
// at the end (of the piece) or on error.
func (r *Reader) nextLine() bool {
	var frag []byte
	ends, ok, cont := true, false, r.more
	if !cont && len(r.pending) == 0 {
		// A piece's next line, whole: what fragment gives, without its
		// call, for the common case.
		if i := bytes.IndexByte(r.text, '\n'); i >= 0 {
			frag, r.text, ok = r.text[:i+1], r.text[i+1:], true
		}
	}
	if !ok {
		if r.err != nil && len(r.pending) == 0 {
			return false
		}
		if frag, ends, ok = r.fragment(); !ok {
			return false
		}
	}
	if cont {
		r.cur, r.pos, r.more, r.cont = frag, 0, !ends, true
		if r.skip {
			r.pos = len(frag)
		}
		return true
	}
	if !ends && len(frag) <= shortLine {
		// Whole up to shortLine: put together from the reads.
		r.long = append(r.long[:0], frag...)
		for !ends && len(r.long) <= shortLine {
			if frag, ends, ok = r.fragment(); !ok {
				if r.err != nil && r.err != io.EOF {
					return false
				}
				ends = !r.chunk // the piece ends inside the line
				break
			}
			frag, ends = r.takeFragment(frag, ends, shortLine+1-len(r.long))
			r.long = append(r.long, frag...)
		}
		frag = r.long
	}
	line := frag
	if r.lineNo == 0 {
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	r.prevTag, r.prevBlank = r.curTag, r.blank
	r.lineNo++
	r.cur, r.pos, r.more, r.cont, r.skip = line, 0, !ends, false, false
	// Only a line held whole can start a game's tags or be empty: the
	// answer must not depend on the windows.
	r.blank, r.curTag = false, false
	if ends {
		r.blank, r.curTag = lineKind(withoutBreak(line))
	}
	if len(line) > 0 && line[0] == '%' {
		r.pos, r.skip = len(line), true // an escape line: ignored as a whole
	}
	return true
}

// fragment returns the next bytes of the input: up to and including the
// next line break, or as many as a read gives; ends says the line ends
// with them (a line break, the end of the input). ok is false at the end
// of the input or of a piece, or on a read error (r.err).
func (r *Reader) fragment() (frag []byte, ends, ok bool) {
	if len(r.pending) > 0 {
		frag, r.pending = r.pending, nil
		return frag, r.pendingEnds, true
	}
	if r.err != nil {
		return nil, true, false
	}
	if r.text == nil {
		line, err := r.br.ReadSlice('\n')
		switch err {
		case nil:
			return line, true, true
		case bufio.ErrBufferFull:
			return line, false, true
		case io.EOF:
			r.err = io.EOF
			return line, true, len(line) > 0
		}
		r.err = err
		return nil, true, false
	}
	for len(r.text) == 0 {
		// An open piece goes on in the next one whatever the reader is
		// in: the text after it does not start a game.
		if !r.open || !r.nextPiece() {
			r.err = io.EOF
			return nil, true, false
		}
	}
	i := bytes.IndexByte(r.text, '\n')
	if i < 0 {
		// The end of the stream ends the line; an open piece goes on.
		frag, r.text = r.text, r.text[len(r.text):]
		return frag, !r.open, true
	}
	frag, r.text = r.text[:i+1], r.text[i+1:]
	return frag, true, true
}

// takeFragment takes at most n bytes of frag into a window, leaving the
// rest pending.
func (r *Reader) takeFragment(frag []byte, ends bool, n int) ([]byte, bool) {
	if len(frag) <= n {
		return frag, ends
	}
	r.pending, r.pendingEnds = frag[n:], ends
	return frag[:n], false
}

// extend makes the window cur[from:] and more of the line after it, at
// least maxItem+1 bytes of it where the line has them: an item (token,
// NAG, tag) the window cut is then whole in it, or known to be longer
// than maxItem.
func (r *Reader) extend(from int) {
	r.carry = append(r.carry[:0], r.cur[from:]...)
	r.long = append(r.long[:0], r.carry...)
	for r.more && len(r.long)-len(r.carry) <= maxItem {
		frag, ends, ok := r.fragment()
		if !ok {
			r.more = false // the end of the input (or a piece) ends the line
			break
		}
		frag, ends = r.takeFragment(frag, ends, maxItem+1-(len(r.long)-len(r.carry)))
		r.long = append(r.long, frag...)
		r.more = !ends
	}
	r.cur, r.pos, r.cont = r.long, 0, true
}

// withoutBreak is a line without its line break.
func withoutBreak(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		return line[:n-1]
	}
	return line
}

// looksLikeTag reports a line such as [Event "x"] (nothing else on it),
// of at most shortLine bytes.
func looksLikeTag(line []byte) bool {
	if len(withoutBreak(line)) > shortLine {
		return false
	}
	line = bytes.TrimSpace(line)
	return len(line) > 4 && line[0] == '[' && line[len(line)-1] == ']' &&
		(line[1] >= 'A' && line[1] <= 'Z' || line[1] >= 'a' && line[1] <= 'z') && bytes.IndexByte(line, '"') > 0
}

func isSpace(c byte) bool { return byteClasses[c] == classSpace }

// The classes of bytes in move text: what next does on meeting one. A
// table, since next looks at every byte of the move text that is not in a
// comment (a quarter of make-book's time on lichess's games went there).
const (
	classToken        = iota // part of a move, a move number or a result
	classSpace               // ends a token
	classComment             // '{'
	classLineComment         // ';'
	classTag                 // '['
	classVariation           // '('
	classVariationEnd        // ')'
	classNAG                 // '$'
	classUnexpected          // ']', '}', '"'
)

// byteClasses is a literal, not built at start-up, so that it costs a run
// that reads no game nothing.
var byteClasses = [256]uint8{
	' ': classSpace, '\t': classSpace, '\n': classSpace, '\r': classSpace, '\f': classSpace, '\v': classSpace,
	'{': classComment, ';': classLineComment, '[': classTag, '(': classVariation, ')': classVariationEnd, '$': classNAG,
	']': classUnexpected, '}': classUnexpected, '"': classUnexpected,
}

// gameScan is where next is in a game's text.
type gameScan struct {
	inMoves     bool // past the tags
	inComment   bool // in a '{' comment
	depth       int  // variations open
	commentLine int  // where the open comment started
}

// next reads one game into g. It returns nil (a game), io.EOF (no more
// games), a *SyntaxError (a broken game, skipped) or a read error.
func (r *Reader) next(g *Game) error {
	g.reset()
	var st gameScan
	for {
		if r.pos >= len(r.cur) {
			if !r.nextLine() {
				if more, err := r.inputEnd(g, &st); !more {
					return err
				}
			}
			continue
		}
		if st.inComment {
			if err := r.skipComment(g, &st); err != nil {
				return err
			}
			continue
		}
		// Blanks, moves, move numbers and comments closed on their line
		// make most of the move text: they are read here with the line,
		// the position and the state they need in locals (read from st,
		// which the helpers below take by address, BenchmarkReadLichess
		// ran 1.5% slower); the rest below.
		cur, pos := r.cur, r.pos
		inMoves, depth := st.inMoves, st.depth
	scan:
		for pos < len(cur) {
			switch byteClasses[cur[pos]] {
			case classSpace:
				pos++
			case classComment:
				k := bytes.IndexByte(cur[pos+1:], '}')
				if k < 0 {
					break scan
				}
				pos += k + 2
			case classToken:
				r.begin(g)
				inMoves = true
				end := pos + 1
				for end < len(cur) && byteClasses[cur[end]] == classToken {
					end++
				}
				if end == len(cur) && r.more || end-pos > maxItem {
					break scan // cut by the window, or too long: below
				}
				tok := cur[pos:end]
				pos = end
				if res := resultToken(tok); res != "" {
					if depth == 0 {
						r.pos = pos
						g.Result = res
						return nil
					}
					continue
				}
				if depth > 0 || r.MoveLimit > 0 && len(g.moves) >= r.MoveLimit {
					continue
				}
				if tok = moveToken(tok); len(tok) > 0 {
					if g.bytes()+len(tok)+moveBytes > maxGameText {
						r.pos = pos
						return r.syntaxError(g, gameTooLong())
					}
					g.moves = append(g.moves, g.add(tok))
				}
			default:
				break scan
			}
		}
		r.pos, st.inMoves = pos, inMoves
		if pos >= len(cur) {
			continue
		}
		if byteClasses[cur[pos]] == classTag && !inMoves {
			// A game's tags, a line each, are as many lines as its move
			// text: read here, not through rareByte's call (1.3% slower).
			r.begin(g)
			if err := r.readTag(g); err != nil {
				return r.syntaxError(g, err.Error())
			}
			continue
		}
		if done, err := r.rareByte(g, &st); done {
			return err
		}
	}
}

// begin marks the game started at the current line, if it is not yet.
func (r *Reader) begin(g *Game) {
	if g.Line == 0 {
		g.Line = r.lineNo
	}
}

// inputEnd is what next does where no line follows: more when reading
// goes on (into the next piece of a chunk reader), else what next
// returns: the game read so far, io.EOF, or an error.
func (r *Reader) inputEnd(g *Game, st *gameScan) (more bool, err error) {
	if r.err != io.EOF {
		return false, r.err
	}
	if r.open { // the piece ends at no game start
		r.torn = true
		return false, io.EOF
	}
	if r.chunk {
		err := r.chunkEnd(g, st)
		if !r.torn || r.Continue == nil {
			return false, err
		}
		r.torn = false
		if r.nextPiece() {
			return true, nil
		}
		// No piece after it: its end is the stream's.
	}
	switch {
	case g.Line == 0:
		return false, io.EOF
	case st.inComment:
		return false, &SyntaxError{st.commentLine, g.Line, "comment not closed before the end of the file"}
	case st.depth > 0:
		return false, &SyntaxError{r.lineNo, g.Line, "variation not closed before the end of the file"}
	}
	return false, nil // a game without termination marker
}

// skipComment reads on in the open comment, to its '}' or the end of the
// line.
func (r *Reader) skipComment(g *Game, st *gameScan) error {
	// A missing '}' would swallow every later game: a tag line after an
	// empty line ends the comment and the broken game.
	if r.pos == 0 && !r.cont && r.curTag && r.prevBlank && looksLikeTag(r.cur) {
		if g.Line == 0 { // the comment came before any game
			g.Line = st.commentLine
		}
		return &SyntaxError{st.commentLine, g.Line, "comment not closed before the next game"}
	}
	if i := bytes.IndexByte(r.cur[r.pos:], '}'); i >= 0 {
		r.pos += i + 1
		st.inComment = false
	} else {
		r.pos = len(r.cur)
	}
	return nil
}

// rareByte reads what next's scan of the move text stops at, at r.pos: a
// token the window cut or too long, a comment going on over lines, a
// line comment, the next game's tag, a variation's start or end, a NAG, a
// byte that has no place there. done reports that next returns err.
func (r *Reader) rareByte(g *Game, st *gameScan) (done bool, err error) {
	cur, pos := r.cur, r.pos
	c := cur[pos]
	switch byteClasses[c] {
	case classToken: // a token the window cut, or one too long
		end := pos + 1
		for end < len(cur) && byteClasses[cur[end]] == classToken {
			end++
		}
		if end-pos > maxItem {
			return true, r.syntaxError(g, fmt.Sprintf("a token longer than %d bytes", maxItem))
		}
		r.extend(pos)
	case classComment:
		st.inComment, st.commentLine = true, r.lineNo
		r.pos++
	case classLineComment:
		r.pos, r.skip = len(r.cur), true
	case classTag: // after the move text (next reads the tags before it)
		if st.depth > 0 { // '[' stays unread: it starts the next game
			return true, &SyntaxError{r.lineNo, g.Line, "variation not closed before the next game"}
		}
		return true, nil // the next game starts; '[' stays unread
	case classVariation:
		r.begin(g)
		st.inMoves = true
		st.depth++
		r.pos++
	case classVariationEnd:
		if st.depth == 0 {
			return true, r.syntaxError(g, "')' without '('")
		}
		st.depth--
		r.pos++
	case classNAG:
		end := pos + 1
		for end < len(cur) && cur[end] >= '0' && cur[end] <= '9' {
			end++
		}
		switch {
		case end-pos > maxItem:
			return true, r.syntaxError(g, fmt.Sprintf("a NAG longer than %d bytes", maxItem))
		case end == len(cur) && r.more:
			r.extend(pos)
		default:
			r.pos = end
		}
	case classUnexpected:
		return true, r.syntaxError(g, fmt.Sprintf("unexpected %q", c))
	}
	return false, nil
}

// chunkEnd ends a piece as the next line, a tag line after a line that
// is not one, would end it in the whole stream.
func (r *Reader) chunkEnd(g *Game, st *gameScan) error {
	switch {
	case st.inComment:
		if !r.blank { // the comment goes on over the tag line
			r.torn = true
			return io.EOF
		}
		if g.Line == 0 {
			g.Line = st.commentLine
		}
		return &SyntaxError{st.commentLine, g.Line, "comment not closed before the next game"}
	case g.Line == 0:
		return io.EOF
	case st.depth > 0:
		return &SyntaxError{r.lineNo + 1, g.Line, "variation not closed before the next game"}
	case !st.inMoves: // more tags of the same game may follow
		r.torn = true
		return io.EOF
	}
	return nil // a game without termination marker
}

// resultToken returns the termination marker tok is, or "".
func resultToken(tok []byte) string {
	switch string(tok) {
	case "1-0":
		return "1-0"
	case "0-1":
		return "0-1"
	case "1/2-1/2":
		return "1/2-1/2"
	case "*":
		return "*"
	}
	return ""
}

// moveToken strips a move number ("12.", "12...") and annotation glyphs
// from tok; what is left is a move, or nothing.
func moveToken(tok []byte) []byte {
	if string(tok) == "0000" { // UCI's null move, not a move number
		return tok
	}
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i == len(tok) {
		return nil // a move number without dots
	}
	if tok[i] == '.' {
		tok = tok[i:]
	}
	for len(tok) > 0 && tok[0] == '.' {
		tok = tok[1:]
	}
	for len(tok) > 0 && (tok[len(tok)-1] == '!' || tok[len(tok)-1] == '?') {
		tok = tok[:len(tok)-1]
	}
	if string(tok) == "e.p." {
		return nil
	}
	return tok
}

// readTag reads [Name "value"] at r.pos, which is at '['. A tag is read
// on its line, the window made to hold it first; where the reading stops,
// within maxItem+1 bytes of '[', is then the same whatever the windows.
func (r *Reader) readTag(g *Game) error {
	if r.more && len(r.cur)-r.pos <= maxItem {
		r.extend(r.pos)
	}
	line := r.cur[r.pos:] // the tag from '[': i is its length so far
	i := 1
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	// Names beyond the standard's letters, digits and '_' occur (e.g.
	// White-Elo) and PolyGlot reads them: any run up to a blank or quote.
	ns := i
	for i < len(line) && !isSpace(line[i]) && line[i] != '"' && line[i] != ']' && line[i] != '[' {
		i++
	}
	if i == ns {
		return badTag(i, errors.New("bad tag: no name"))
	}
	name := line[ns:i]
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i >= len(line) || line[i] != '"' {
		return badTag(i, fmt.Errorf("bad tag %s: value not in quotes", name))
	}
	i++
	nameSpan := g.add(name)
	vs := int32(len(g.buf))
	for {
		if i >= len(line) || line[i] == '\n' || line[i] == '\r' {
			return badTag(i, fmt.Errorf("bad tag %s: value not closed", name))
		}
		c := line[i]
		if c == '"' {
			break
		}
		if c == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
			i++
			c = line[i]
		}
		g.buf = append(g.buf, c)
		i++
	}
	valueSpan := span{vs, int32(len(g.buf))}
	i++
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i >= len(line) || line[i] != ']' {
		return badTag(i, fmt.Errorf("bad tag %s: no ']'", name))
	}
	if i >= maxItem {
		return badTag(i, nil)
	}
	g.tags = append(g.tags, rawTag{nameSpan, valueSpan})
	if len(g.buf)+tagBytes*len(g.tags) > maxGameText { // no moves yet: g.bytes()
		return errors.New(gameTooLong())
	}
	r.pos += i + 1
	return nil
}

// badTag is err for a tag read up to its byte end, unless the tag is
// longer than maxItem (then err may be nil).
func badTag(end int, err error) error {
	if end >= maxItem {
		return fmt.Errorf("bad tag: longer than %d bytes", maxItem)
	}
	return err
}

// gameTooLong says maxGameText in words, formatted when a game is too
// long, not at start-up.
func gameTooLong() string {
	return fmt.Sprintf("the game's tags and moves take more than %d bytes", maxGameText)
}

// syntaxError reports a broken game and skips to the next one: the next
// line starting with '[' that follows an empty line or a line of moves
// (tag lines right after the error belong to the broken game).
func (r *Reader) syntaxError(g *Game, msg string) error {
	e := &SyntaxError{Line: r.lineNo, GameLine: g.Line, Msg: msg}
	if e.GameLine == 0 {
		e.GameLine = r.lineNo
		g.Line = r.lineNo
	}
	for {
		if !r.nextLine() {
			r.cur, r.pos = nil, 0
			break
		}
		if !r.cont && r.curTag && !r.prevTag {
			break
		}
	}
	return e
}
