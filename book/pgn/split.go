package pgn

import (
	"bytes"
	"io"
)

// Piece is a part of a PGN stream cut by a Splitter, to be read with
// NewChunkReader.
type Piece struct {
	Text []byte
	Line int  // the number of its first line in the stream
	Last bool // it ends at the end of the stream
	// Open: no game starts after it (the splitter found none in a whole
	// piece); the text after it goes on where it ends, at a line break or
	// inside a line.
	Open bool
}

// Splitter cuts a PGN stream into pieces of about a given size, each
// ending just before a game's first tag line, so that pieces can be read
// in parallel, and none longer than MaxPiece whatever the input: a stretch
// without a game start (a huge comment or game) is cut into open pieces.
// It reads ahead at most one piece.
type Splitter struct {
	r        io.Reader
	size     int
	maxPiece int
	carry    []byte // text read past the last cut
	line     int
	midLine  bool // the carry starts inside a line
	err      error
}

// NewSplitter cuts r into pieces of at least size bytes (except the last
// and open ones).
func NewSplitter(r io.Reader, size int) *Splitter {
	size = max(size, 1)
	// Room past size for a cut: a quarter, and at least two whole tag
	// lines, so that small pieces (the tests') are cut as large ones. A
	// line cut between pieces (midLine) is then longer than shortLine.
	return &Splitter{r: r, size: size, maxPiece: size + max(size/4, 2*shortLine), line: 1}
}

// MaxPiece is the most bytes a piece holds.
func (s *Splitter) MaxPiece() int { return s.maxPiece }

// Next returns the next piece, its text appended to buf[:0] (pass a
// buffer to reuse, or nil). A piece ends before a line that starts with a
// tag ([Name "value"] alone on it) and follows a line that is not a tag
// line (an empty line, the moves): where a game starts in every PGN but
// odd ones, which the chunk reader recognises (Reader.Torn). A piece of
// MaxPiece bytes without such a line is open: it ends at its last line
// break, or inside a line that has none. At the end Next returns io.EOF;
// a read error is returned after the text before it was given as a last
// piece.
func (s *Splitter) Next(buf []byte) (Piece, error) {
	if s.err != nil && len(s.carry) == 0 {
		return Piece{}, s.err
	}
	if cap(buf) < s.maxPiece {
		buf = make([]byte, 0, s.maxPiece)
	}
	buf = append(buf[:0], s.carry...)
	s.carry = s.carry[:0]
	midLine := s.midLine
	s.midLine = false
	want, from := s.size, 0 // lines before from hold no cut
	for {
		for len(buf) < want && s.err == nil {
			n, err := s.r.Read(buf[len(buf):s.maxPiece])
			buf = buf[:len(buf)+n]
			if err != nil {
				s.err = err
			}
		}
		if s.err != nil {
			if len(buf) == 0 {
				return Piece{}, s.err
			}
			// The rest; a read error comes with the next call.
			return Piece{Text: buf, Line: s.line, Last: s.err == io.EOF}, nil
		}
		if cut := lastCut(buf, from, s.line == 1 && !midLine, midLine); cut > 0 {
			return s.cut(buf, cut, false), nil
		}
		if len(buf) == s.maxPiece {
			cut := bytes.LastIndexByte(buf, '\n') + 1
			if cut == 0 { // inside a line longer than a piece
				cut, s.midLine = len(buf), true
			}
			return s.cut(buf, cut, true), nil
		}
		// No cut yet: read on; only the last, unfinished line can still
		// hold one.
		if nl := bytes.LastIndexByte(buf[from:], '\n'); nl >= 0 {
			from += nl
		}
		want = s.maxPiece
	}
}

// cut ends a piece at buf[cut], keeping the rest for the next.
func (s *Splitter) cut(buf []byte, cut int, open bool) Piece {
	s.carry = append(s.carry, buf[cut:]...)
	p := Piece{Text: buf[:cut], Line: s.line, Open: open}
	s.line += bytes.Count(p.Text, []byte{'\n'})
	return p
}

// lastCut returns the start of the last line of buf, at from or after,
// that can start a piece, or 0. The line must be whole (its '\n' in buf).
// streamStart says buf starts the stream, whose first line the reader
// reads without a UTF-8 BOM; midLine that it starts inside a line (one
// longer than a piece, so not a tag line).
func lastCut(buf []byte, from int, streamStart, midLine bool) int {
	end := len(buf)
	for {
		// Only from on: a piece read a little at a time must not rescan
		// what it has already searched.
		q := bytes.LastIndex(buf[from:end], []byte("\n["))
		if q < 0 {
			return 0
		}
		q += from
		end = q
		p := q + 1
		nl := bytes.IndexByte(buf[p:], '\n')
		if nl < 0 || !looksLikeTag(buf[p:p+nl]) {
			continue
		}
		ps := bytes.LastIndexByte(buf[:q], '\n') + 1
		if ps == 0 && midLine {
			return p
		}
		prev := buf[ps:q]
		if ps == 0 && streamStart {
			prev = bytes.TrimPrefix(prev, []byte("\xef\xbb\xbf"))
		}
		if _, tag := lineKind(prev); tag {
			continue // the line before is a tag line: the same game's tags
		}
		return p
	}
}

// lineKind says whether a line (without its line break) is empty, or a
// tag line where the reader looks for a game's start ('[' first after
// blanks): only a line of at most shortLine bytes can be either.
func lineKind(line []byte) (blank, tag bool) {
	if len(line) > shortLine {
		return false, false
	}
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	if i == len(line) {
		return true, false
	}
	return false, line[i] == '['
}
