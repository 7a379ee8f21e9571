package pgn

import (
	"bytes"
	"io"
)

// Piece is a part of a PGN stream cut by a Splitter, to be read with
// NewChunkReader(Text, Line, Last).
type Piece struct {
	Text []byte
	Line int  // the number of its first line in the stream
	Last bool // it ends at the end of the stream
}

// Splitter cuts a PGN stream into pieces of about a given size, each
// ending just before a game's first tag line, so that pieces can be read
// in parallel. It reads ahead at most one piece.
type Splitter struct {
	r     io.Reader
	size  int
	carry []byte // text read past the last cut
	line  int
	err   error
}

// NewSplitter cuts r into pieces of at least size bytes (except the last).
func NewSplitter(r io.Reader, size int) *Splitter {
	return &Splitter{r: r, size: max(size, 1), line: 1}
}

// Next returns the next piece, its text appended to buf[:0] (pass a
// buffer to reuse, or nil). A piece ends before a line that starts with a
// tag ([Name "value"] alone on it) and follows a line that is not a tag
// line (an empty line, the moves): where a game starts in every PGN but
// odd ones, which the chunk reader recognises (Reader.Torn). A stream
// without such a line is one piece. At the end Next returns io.EOF; a read
// error is returned after the text before it was given as a last piece.
func (s *Splitter) Next(buf []byte) (Piece, error) {
	if s.err != nil && len(s.carry) == 0 {
		return Piece{}, s.err
	}
	buf = append(buf[:0], s.carry...)
	s.carry = s.carry[:0]
	want, from := s.size, 0 // lines before from hold no cut
	for {
		for len(buf) < want && s.err == nil {
			if cap(buf)-len(buf) < 32<<10 {
				buf = append(buf, make([]byte, max(s.size, 64<<10))...)[:len(buf)]
			}
			n, err := s.r.Read(buf[len(buf):cap(buf)])
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
		if cut := lastCut(buf, from, s.line == 1); cut > 0 {
			s.carry = append(s.carry, buf[cut:]...)
			p := Piece{Text: buf[:cut], Line: s.line}
			s.line += bytes.Count(p.Text, []byte{'\n'})
			return p, nil
		}
		// No cut yet (a huge game, or no tag lines): read on; only the
		// last, unfinished line can still hold one.
		if nl := bytes.LastIndexByte(buf[from:], '\n'); nl >= 0 {
			from += nl
		}
		want = len(buf) + s.size
	}
}

// lastCut returns the start of the last line of buf, at from or after,
// that can start a piece, or 0. The line must be whole (its '\n' in buf).
// streamStart says buf starts the stream, whose first line the reader
// reads without a UTF-8 BOM.
func lastCut(buf []byte, from int, streamStart bool) int {
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
	return i == len(line), i < len(line) && line[i] == '['
}
