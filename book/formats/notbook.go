package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/polyproxy/polyproxy/internal/lazy"
	"github.com/polyproxy/polyproxy/internal/plainerr"
)

// What is given as a book and is none: a PGN file (BookFile = games.pgn),
// positions, a text book before compile-book, an ini, a counts file, a
// compressed file. Read as a Polyglot book, its bytes are entries of
// nonsense with no word of why; told by its content, the error says what
// the file is and what to do with it.

// openBookFile opens the book file at path for Recognise, once its kind
// is known (opening a FIFO would block), with errors in plain words.
func openBookFile(path string) (*os.File, int64, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, 0, fileError(path, err)
	case st.IsDir():
		return nil, 0, fmt.Errorf("%s is a folder, not a book file", path)
	case !st.Mode().IsRegular():
		return nil, 0, fmt.Errorf("%s is not a regular file (a device or a pipe), not a book file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fileError(path, err)
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, 0, fileError(path, err)
	}
	return f, st.Size(), nil
}

// fileError is an operating system's error said in plain words, still
// wrapping it.
func fileError(path string, err error) error {
	return plainerr.Wrap(plainerr.Path(path, unwrapPath(err)), err)
}

// unwrapPath is the reason an *fs.PathError gives, else err.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// NotABookError is a file given as a book that is something else.
type NotABookError struct {
	Path string
	What string // "holds PGN games"
	Do   string // what to do instead
}

func (e *NotABookError) Error() string {
	return fmt.Sprintf("%s %s, not an opening book: %s", e.Path, e.What, e.Do)
}

// countsMagic starts a counts file (build.CountsMagic; the tests hold them
// equal: this package is below build).
const countsMagic = "PGCOUNTS"

// sniffSize is how much of a file tells text from a book: a Polyglot
// entry holds bytes that no text has (a learn field of zeros, random key
// bytes below a blank), so 4 KB of a book are never all text.
const sniffSize = 4096

// compressedFile are the first bytes of compressed files: gzip's magic
// with deflate and its flags' unused bits clear, bzip2's with its block
// size and first block's magic.
var compressedFile = []struct {
	name  string
	start func(b []byte) bool
}{
	{"gzip", func(b []byte) bool { return len(b) >= 4 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8 && b[3] < 0x20 }},
	{"bzip2", func(b []byte) bool {
		return len(b) >= 10 && string(b[:3]) == "BZh" && b[3] >= '1' && b[3] <= '9' && string(b[4:10]) == "1AY&SY"
	}},
	{"zstd", func(b []byte) bool { return bytes.HasPrefix(b, []byte("\x28\xb5\x2f\xfd")) }},
	{"xz", func(b []byte) bool { return bytes.HasPrefix(b, []byte("\xfd7zXZ\x00")) }},
	{"zip", func(b []byte) bool { return bytes.HasPrefix(b, []byte("PK\x03\x04")) }},
}

// notABook says what the file at path is when it is no book: text of any
// kind, a counts file, or, when it fits no book format (fitsAny false), a
// compressed file (whose first bytes a book's first key could be).
func notABook(path string, f io.ReaderAt, size int64, fitsAny bool) error {
	head := make([]byte, min(size, sniffSize))
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	if bytes.HasPrefix(head, []byte(countsMagic)) {
		return &NotABookError{path, "is a counts file (make-book -counts)",
			fmt.Sprintf("make a book of it with \"polyproxy make-book -from-counts %s -bin book.bin\"", path)}
	}
	if !fitsAny {
		for _, c := range compressedFile {
			if c.start(head) {
				return &NotABookError{path, "is a compressed (" + c.name + ") file",
					fmt.Sprintf("if it holds PGN games, make a book of them with \"polyproxy make-book -pgn %s -bin book.bin\"", path)}
			}
		}
	}
	if len(head) == 0 || !isText(head) {
		return nil
	}
	return textKind(path, head)
}

// isText tells whether b has only the bytes of text: no control
// character but tab, line feed, form feed and carriage return, and nine
// in ten bytes printable ASCII (a PGN in Latin-1 or UTF-8 has a few
// others; a book's random keys have them everywhere).
func isText(b []byte) bool {
	ascii := 0
	for _, c := range b {
		switch {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r' || c == 0x7f:
			return false
		case c < 0x7f:
			ascii++
		}
	}
	return ascii*10 >= len(b)*9
}

// The patterns are compiled on first use, not at start-up: only a file
// that is not a book needs them, and every run of the proxy would pay.
var (
	pgnTag    = lazy.Regexp{Expr: `(?m)^\s*\[[A-Za-z0-9_]+\s+"`}
	pgnMoves  = lazy.Regexp{Expr: `(?m)^\s*1\.\s*([a-h][1-8]|[NBRQK][a-h]?[1-8]?x?[a-h][1-8]|O-O)`}
	iniLine   = lazy.Regexp{Expr: `(?mi)^\s*\[(polyglot|engine)\]\s*$`}
	fenLine   = lazy.Regexp{Expr: `(?m)^\s*[pnbrqkPNBRQK1-8]+(/[pnbrqkPNBRQK1-8]+){7}\s+[wb]\b`}
	textMoves = lazy.Regexp{Expr: `(?m)^\s*[a-h][1-8][a-h][1-8][nbrq]?[?x]?(\s+[a-h][1-8][a-h][1-8][nbrq]?[?x]?)*\s*(\(.*)?$`}
)

// textKind says what a text file given as a book is, and what to do.
func textKind(path string, head []byte) error {
	switch {
	case pgnTag.Get().Match(head) || pgnMoves.Get().Match(head):
		return &NotABookError{path, "holds PGN games",
			fmt.Sprintf("make a book of them with \"polyproxy make-book -pgn %s -bin book.bin\"", path)}
	case iniLine.Get().Match(head):
		return &NotABookError{path, "is an ini file (settings)",
			"name the book in it with BookFile, and give the ini to polyproxy as its first argument"}
	case fenLine.Get().Match(head):
		return &NotABookError{path, "holds positions (EPD or FEN)",
			"a book is made from games (polyproxy make-book -pgn GAMES.pgn -bin book.bin); probe -fen looks a position up in a book"}
	case textMoves.Get().Match(head):
		return &NotABookError{path, "is a text book (lines of moves)",
			fmt.Sprintf("compile it with \"polyproxy compile-book -txt %s -bin book.bin\"", path)}
	}
	return &NotABookError{path, "is a text file",
		"a book is a Polyglot (.bin), ABK (.abk) or CTG (.ctg) file; polyproxy make-book -pgn makes one from PGN games"}
}
