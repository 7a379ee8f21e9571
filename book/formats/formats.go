// Package formats is where a book file's format is recognised: the one
// table of the formats polyproxy reads, and the ways to open a book of any
// of them (Open, OpenWhole, OpenLearnFile), write one (Write) and read
// what a format knows beyond its entries (Named) that every command and
// the proxy use: none of them names a format. A format is a package of its
// own (book/polyglot, Arena's book/abk, ChessBase's book/ctg) exporting a
// book.Format; adding one is one line in the table below.
package formats

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/abk"
	"github.com/polyproxy/polyproxy/book/ctg"
	"github.com/polyproxy/polyproxy/book/polyglot"
)

// table is the formats, one line each, Polyglot first: the format of a
// file whose name claims no other. under, when set, is the format reading
// a book's weights under Options.
var table = []struct {
	book.Format
	under func(Options) book.Format
}{
	{polyglot.Format, nil},
	{abk.Format, nil},
	{ctg.Format, func(o Options) book.Format {
		return ctg.WithOptions(ctg.Options{TournamentMode: o.CTGTournamentMode, PreferMainLines: o.CTGPreferMainLines})
	}},
}

// All are the formats, in the table's order.
var All = func() []book.Format {
	out := make([]book.Format, len(table))
	for i, f := range table {
		out[i] = f.Format
	}
	return out
}()

// A claimer is a format known by its files' names alone: a book of
// several files without a signature (CTG's three), which no one file's
// structure can tell. A name it claims is its book, whatever the file
// holds; its reader's errors say what is wrong.
type claimer interface {
	Claims(path string) bool
}

// claimedByName is the format that claims path by name alone, or nil.
func claimedByName(path string) book.Format {
	for _, f := range All {
		if c, ok := f.(claimer); ok && c.Claims(path) {
			return f
		}
	}
	return nil
}

// Claimed is the format a file's name claims: a format known by its
// files' names (CTG), else the one whose extension it has (any case),
// else Polyglot, as the tools write a book of any other name.
func Claimed(path string) book.Format {
	if f := claimedByName(path); f != nil {
		return f
	}
	ext := filepath.Ext(path)
	for _, f := range All {
		if strings.EqualFold(ext, f.Ext()) {
			return f
		}
	}
	return All[0]
}

// Recognise tells the format of the book file at path: a format known by
// its files' names (CTG) by the name alone; else by its structure, the
// format whose every structural fact (Format.Fits) the file has. A
// file that fits several, or none, is taken for the format its name claims
// (Claimed) when that is among those it fits, or fits none: that format's
// reader then reads what it can, and its warnings and errors speak of it.
// A file fitting several formats, none of them the one its name claims,
// is an error naming them.
func Recognise(path string) (book.Format, error) {
	if f := claimedByName(path); f != nil {
		return f, nil
	}
	f, size, err := openBookFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var fits []book.Format
	for _, format := range All {
		if format.Fits(f, size) == nil {
			fits = append(fits, format)
		}
	}
	if err := notABook(path, f, size, len(fits) > 0); err != nil {
		return nil, err
	}
	claimed := Claimed(path)
	switch {
	case len(fits) == 1:
		return fits[0], nil
	case len(fits) == 0:
		return claimed, nil
	}
	for _, format := range fits {
		if format == claimed {
			return format, nil
		}
	}
	names := make([]string, len(fits))
	for i, format := range fits {
		names[i] = format.Name() + " (" + format.Ext() + ")"
	}
	return nil, fmt.Errorf("open book %s: the file fits the %s formats alike, and its name claims the %s format: name it for the format it is", path, strings.Join(names, " and "), claimed.Name())
}

// Options are the settings of how the formats read a book's weights,
// each format taking its own (the zero value: each format's defaults).
type Options struct {
	// CTGTournamentMode and CTGPreferMainLines are DroidFish's choices
	// over a CTG book's weights.
	CTGTournamentMode, CTGPreferMainLines bool
}

// format is f reading under o.
func (o Options) format(f book.Format) book.Format {
	for _, t := range table {
		if t.Format == f && t.under != nil {
			return t.under(o)
		}
	}
	return f
}

// Open opens the book at path in its format (Recognise), under the
// formats' defaults.
func Open(path string) (*book.Book, error) { return OpenWith(path, Options{}) }

// OpenWith opens the book at path in its format (Recognise), reading its
// weights under o: the book the proxy plays from and probe shows (a CTG
// book found a position at a time).
func OpenWith(path string, o Options) (*book.Book, error) {
	f, err := Recognise(path)
	if err != nil {
		return nil, err
	}
	return o.format(f).Open(path)
}

// OpenWhole opens the book at path as the tools that read every entry
// need it (book.Book.Whole): a book found by position (CTG) is read whole
// through its walk from the start position, up to maxPly plies of moves
// (0: no limit).
func OpenWhole(path string, o Options, maxPly int) (*book.Book, error) {
	b, err := OpenWith(path, o)
	if err != nil {
		return nil, err
	}
	w, err := b.Whole(maxPly)
	if w != b {
		b.Close()
	}
	return w, err
}

// OpenLearnFile opens the book at path, in its format, for counting game
// results into it (book.OpenLearnFile).
func OpenLearnFile(path string) (*book.LearnFile, error) {
	f, err := Recognise(path)
	if err != nil {
		return nil, err
	}
	return book.OpenLearnFile(path, f)
}

// OpenLearnFileReadOnly opens the book at path, in its format, to preview
// updates (book.OpenLearnFileReadOnly).
func OpenLearnFileReadOnly(path string) (*book.LearnFile, error) {
	f, err := Recognise(path)
	if err != nil {
		return nil, err
	}
	return book.OpenLearnFileReadOnly(path, f)
}

// MaxPly is the deepest line a format of lines from the start position
// holds (ABK's tree), and so what a writer's maxPly goes up to.
const MaxPly = abk.MaxPly

// ByExt is the format whose extension is ext (".bin", ".abk"), or nil: a
// tool's flag for a book of one format (make-book's -bin, -abk).
func ByExt(ext string) book.Format {
	for _, f := range All {
		if strings.EqualFold(ext, f.Ext()) {
			return f
		}
	}
	return nil
}

// Write writes src as a book at path, in the format its name claims
// (Claimed), into the batch b (see WriteAs).
func Write(b *book.Batch, path string, src *book.Book, maxPly int) (book.Written, error) {
	return WriteAs(Claimed(path), b, path, src, maxPly)
}

// WriteAs writes src as a book of format f at path into the batch b,
// maxPly bounding a format of lines (book.Writer); a format polyproxy
// does not write is an error.
func WriteAs(f book.Format, b *book.Batch, path string, src *book.Book, maxPly int) (book.Written, error) {
	w, ok := f.(book.Writer)
	if !ok {
		return book.Written{}, fmt.Errorf("write %s: polyproxy writes no %s book (name it .bin for a Polyglot book)", path, f.Name())
	}
	return w.Write(b, path, src, maxPly)
}

// Stats summarise a whole book, read as entries, for info-book.
type Stats = polyglot.Stats

// Scan reads the whole book once and summarises it (polyglot.Scan: every
// format's book is read as entries).
func Scan(b *book.Book) (*Stats, error) { return polyglot.Scan(b) }

// Chess960 reports a book that says it holds Chess960 positions (a
// Polyglot book's @PG@ header names the variant).
func Chess960(b *book.Book) bool { return polyglot.Chess960(b) }
