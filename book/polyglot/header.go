package polyglot

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/board"
)

// Header is the optional @PG@ header: entries with key 0 at the start of
// the file whose other 8 bytes, joined, read
// "@PG@\nVERSION\nNEXTRA\nVARIANTCOUNT\nVARIANT...\nCOMMENT" padded with NULs.
type Header struct {
	Entries  int      `json:"entries"` // key-0 entries at the start of the file
	Version  string   `json:"version"`
	Variants []string `json:"variants"`
	Comment  string   `json:"comment"`
}

// HeaderEntries counts the key-0 entries at the start of b: the @PG@
// header, or entries that look like one.
func HeaderEntries(b *book.Book) (n int) {
	read(b, func() { n = headerEntries(b) })
	return n
}

func headerEntries(b *book.Book) int {
	n := 0
	for n < b.Len() && b.Entry(n).Key == 0 {
		n++
	}
	return n
}

// ReadHeader parses b's @PG@ header. It reads only the leading key-0
// entries (the book stays O(1) to open). It returns nil, nil for a book
// without key-0 entries and an error when they are not a well-formed
// header.
func ReadHeader(b *book.Book) (h *Header, err error) {
	if rerr := read(b, func() { h, err = header(b, headerEntries(b)) }); rerr != nil {
		return nil, rerr
	}
	return h, err
}

// header parses the header of b's n leading key-0 entries.
func header(b *book.Book, n int) (*Header, error) {
	if n == 0 {
		return nil, nil
	}
	raw := make([]byte, 0, 8*n)
	for i := range n {
		e := b.Entry(i)
		raw = binary.BigEndian.AppendUint16(raw, uint16(e.Move))
		raw = binary.BigEndian.AppendUint16(raw, e.Weight)
		raw = binary.BigEndian.AppendUint32(raw, uint32(e.Learn))
	}
	h, err := parseHeader(raw)
	if err != nil {
		return nil, fmt.Errorf("%d entries with key 0 at the start: %w", n, err)
	}
	h.Entries = n
	return h, nil
}

// Chess960 reports a book whose @PG@ header names Chess960 among its
// variants.
func Chess960(b *book.Book) bool {
	h, err := ReadHeader(b)
	return err == nil && h != nil && h.Chess960()
}

// read runs fn, which reads b's entries, under the guard of a mapped
// Polyglot file when b is one.
func read(b *book.Book, fn func()) error {
	if t, ok := b.Source().(*table); ok {
		return t.guard(fn)
	}
	fn()
	return nil
}

func parseHeader(raw []byte) (*Header, error) {
	raw = bytes.TrimRight(raw, "\x00")
	fields := strings.Split(string(raw), "\n")
	if fields[0] != "@PG@" {
		return nil, fmt.Errorf("not a @PG@ header")
	}
	if len(fields) < 3 {
		return nil, fmt.Errorf("@PG@ header: missing version or field count")
	}
	h := &Header{Version: fields[1]}
	extra, err := strconv.Atoi(fields[2])
	if err != nil || extra < 0 || 3+extra > len(fields) {
		return nil, fmt.Errorf("@PG@ header: bad number of extra fields %q", fields[2])
	}
	// The extra fields are a variant count followed by the variant names.
	if extra > 0 {
		nv, err := strconv.Atoi(fields[3])
		if err != nil || nv != extra-1 {
			return nil, fmt.Errorf("@PG@ header: variant count %q does not match %d extra fields", fields[3], extra)
		}
		h.Variants = append(h.Variants, fields[4:3+extra]...)
	}
	h.Comment = strings.Join(fields[3+extra:], "\n")
	return h, nil
}

// Variant names in a @PG@ header's variant list, as xboard and
// cutechess-cli name the variants.
const (
	VariantNormal   = "normal"
	VariantChess960 = "fischerandom"
)

// HeaderEntriesFor encodes a @PG@ header (version 1.0) naming variants,
// then comment, as the key-0 entries that start a book: the text 8 bytes
// an entry in the move, weight and learn fields, padded with NULs.
func HeaderEntriesFor(variants []string, comment string) []book.Entry {
	text := "@PG@\n1.0\n" + strconv.Itoa(len(variants)+1) + "\n" + strconv.Itoa(len(variants)) + "\n"
	for _, v := range variants {
		text += v + "\n"
	}
	text += strings.ReplaceAll(comment, "\x00", "")
	raw := append([]byte(text), 0) // at least one NUL ends the text
	for len(raw)%8 != 0 {
		raw = append(raw, 0)
	}
	out := make([]book.Entry, 0, len(raw)/8)
	for i := 0; i < len(raw); i += 8 {
		out = append(out, book.Entry{
			Move:   board.Move(binary.BigEndian.Uint16(raw[i:])),
			Weight: binary.BigEndian.Uint16(raw[i+2:]),
			Learn:  book.Learn(binary.BigEndian.Uint32(raw[i+4:])),
		})
	}
	return out
}

// Chess960 reports a header whose variant list names Chess960.
func (h *Header) Chess960() bool {
	for _, v := range h.Variants {
		if v == VariantChess960 {
			return true
		}
	}
	return false
}
