package build

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// TextError is one problem in a text book, at a 1-based line and
// column (in characters).
type TextError struct {
	Line, Column int
	Msg          string
}

func (e TextError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg) }

// TextStats counts what a text book holds.
type TextStats struct {
	Lines     int // lines with at least one move
	Moves     int // moves read
	Entries   int // distinct (position, move) pairs
	NeverPlay int // entries marked '?' or 'x' (weight 0)
}

// maxTextLine bounds one line of a text book.
const maxTextLine = 1 << 20

// CompileText reads a line-based text book: one variation per line, as
// from-to moves from the start position ("e2e4 e7e5 g1f3 b8c6 f1b5");
// castling as the king's move (e1g1); a pawn reaching the last rank
// becomes a queen unless a suffix says otherwise (e7e8n); a move followed
// by '?' or 'x' is known but never played by us (weight 0) and the line
// goes on from it. Leading blanks and several blanks between moves are
// fine; '(' starts a comment to the end of the line; a line whose first
// non-blank character is '#' is a comment; a UTF-8 BOM is skipped.
//
// Lines that reach the same position merge (transpositions), and so do
// duplicate moves. The weight of a move is the number of lines that play
// it in that position (at most 65535), or 0 if any line marks it '?' or
// 'x'. Entries are ordered as make-book orders them: key ascending, weight
// descending, ties in order of first appearance.
//
// Every line is checked; each bad token or illegal move is reported (the
// rest of its line cannot be followed and is not checked). With any error
// the entries are nil: nothing is half-compiled. err is a read error.
func CompileText(r io.Reader) (entries []book.Entry, stats TextStats, problems []TextError, err error) {
	type pair struct {
		key  board.Key
		move board.Move
	}
	type acc struct {
		white    bool
		lines    int
		lastLine int
		never    bool
	}
	index := map[pair]int{}
	var order []pair
	var accs []acc

	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxTextLine)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Bytes()
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if i := bytes.IndexByte(line, '('); i >= 0 {
			line = line[:i]
		}
		pos := *board.StartPosition()
		moves := 0
		for i := 0; i < len(line); {
			c := line[i]
			if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
				i++
				continue
			}
			if c == '#' && moves == 0 && isBlank(line[:i]) {
				break // a comment line
			}
			end := i
			for end < len(line) && line[end] != ' ' && line[end] != '\t' && line[end] != '\r' {
				end++
			}
			tok := line[i:end]
			col := utf8.RuneCount(line[:i]) + 1
			m, never, perr := parseTextMove(&pos, tok)
			if perr != nil {
				problems = append(problems, TextError{lineNo, col, perr.Error()})
				break // the rest of the line is unreachable
			}
			p := pair{pos.Key(), pos.ToBook(m)}
			k, ok := index[p]
			if !ok {
				k = len(accs)
				index[p] = k
				order = append(order, p)
				accs = append(accs, acc{white: pos.WhiteToMove()})
			}
			a := &accs[k]
			if a.lastLine != lineNo {
				a.lastLine = lineNo
				a.lines++
			}
			a.never = a.never || never
			pos.Play(m)
			moves++
			i = end
		}
		if moves > 0 {
			stats.Lines++
			stats.Moves += moves
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			err = fmt.Errorf("line %d is longer than %d bytes", lineNo+1, maxTextLine)
		}
		return nil, stats, problems, err
	}
	stats.Entries = len(order)
	if len(problems) > 0 {
		return nil, stats, problems, nil
	}
	entries = make([]book.Entry, len(order))
	for i, p := range order {
		w := uint16(min(accs[i].lines, 0xffff))
		if accs[i].never {
			w = 0
			stats.NeverPlay++
		}
		entries[i] = book.Entry{Key: p.key, Move: p.move, Weight: w}
	}
	// The same order as make-book's (stable: ties by first appearance).
	slices.SortStableFunc(entries, book.CompareEntries)
	return entries, stats, nil, nil
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// parseTextMove reads one from-to token ("e2e4", "e7e8n", "f2f4?",
// "g1f3x") and checks it is legal in pos; it returns the move as played.
func parseTextMove(pos *board.Position, tok []byte) (m board.Move, never bool, err error) {
	text := tok
	if n := len(text); n > 0 && (text[n-1] == '?' || text[n-1] == 'x') {
		never = true
		text = text[:n-1]
	}
	if (len(text) != 4 && len(text) != 5) || !utf8.Valid(tok) {
		return 0, false, fmt.Errorf("bad token %q: want a from-to move such as e2e4, e7e8n or f2f4?", tok)
	}
	raw, err := board.ParseMove(string(text))
	if err != nil {
		return 0, false, fmt.Errorf("bad token %q: want a from-to move such as e2e4, e7e8n or f2f4?", tok)
	}
	// A promotion written from-to promotes to a queen.
	if pc := pos.Piece(raw.From()); len(text) == 4 && pc != board.NoPiece && pc.Type() == board.Pawn &&
		(raw.To().Row() == 7 || raw.To().Row() == 0) {
		raw = board.NewMove(raw.From(), raw.To(), board.PromoQueen)
	}
	m, err = pos.LegalMove(raw)
	if err != nil {
		return 0, false, err
	}
	return m, never, nil
}
