package book

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book/board"
)

// Variant names in a @PG@ header's variant list, as xboard and
// cutechess-cli name the variants.
const (
	VariantNormal   = "normal"
	VariantChess960 = "fischerandom"
)

// HeaderEntriesFor encodes a @PG@ header (version 1.0) naming variants,
// then comment, as the key-0 entries that start a book: the text 8 bytes
// an entry in the move, weight and learn fields, padded with NULs.
func HeaderEntriesFor(variants []string, comment string) []Entry {
	text := "@PG@\n1.0\n" + strconv.Itoa(len(variants)+1) + "\n" + strconv.Itoa(len(variants)) + "\n"
	for _, v := range variants {
		text += v + "\n"
	}
	text += strings.ReplaceAll(comment, "\x00", "")
	raw := append([]byte(text), 0) // at least one NUL ends the text
	for len(raw)%8 != 0 {
		raw = append(raw, 0)
	}
	out := make([]Entry, 0, len(raw)/8)
	for i := 0; i < len(raw); i += 8 {
		out = append(out, Entry{
			Move:   board.Move(binary.BigEndian.Uint16(raw[i:])),
			Weight: binary.BigEndian.Uint16(raw[i+2:]),
			Learn:  Learn(binary.BigEndian.Uint32(raw[i+4:])),
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
