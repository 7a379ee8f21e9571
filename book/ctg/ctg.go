// Package ctg reads ChessBase's CTG opening books: three files beside
// each other, NAME.ctg (the positions, in 4096-byte pages), NAME.cto (a
// hash table from a position's key to its page) and NAME.ctb (the table's
// bounds). ChessBase does not publish the format; what this package knows
// of it is what DroidFish's reader (the oracle its tests are held to)
// knows. The package is read-only: no program here can check a CTG file
// against ChessBase's own, so polyproxy writes none.
//
// A book is asked about a position, not a key: the position is encoded
// (see Key), hashed, and looked up in the pages the table names. The
// answer holds the position's statistics and, for each move, its
// annotation, the statistics of the position it leads to, and the weight
// DroidFish plays it by.
package ctg

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// PageSize is the size of a .ctg page. Page 0 of the file is its header;
// page N of the table is the file's page N+1.
const PageSize = 4096

// The .cto's entries start at byte 16, four bytes each; the .ctb holds the
// lower and upper page bounds at bytes 4-11. Integers are big-endian.
const (
	ctoHeaderSize = 16
	ctbBoundsEnd  = 12
	gamesOffset   = 28 // in the .ctg's header page: the games the book was made from
)

// pageHeaderSize is a page's position count and used bytes, two bytes each.
const pageHeaderSize = 4

// IsPath reports a file name ending in .ctg, .cto or .ctb (any case): any
// of a CTG book's three files names the book.
func IsPath(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".ctg", ".cto", ".ctb":
		return true
	}
	return false
}

// Paths are the book's three files, from any of them: the name with its
// extension replaced, keeping the extension's case (BOOK.CTG gives
// BOOK.CTO and BOOK.CTB).
func Paths(name string) (ctg, cto, ctb string) {
	ext := filepath.Ext(name)
	base := name[:len(name)-len(ext)]
	upper := ext != "" && ext[1:] == strings.ToUpper(ext[1:])
	with := func(e string) string {
		if upper {
			e = strings.ToUpper(e)
		}
		return base + e
	}
	return with(".ctg"), with(".cto"), with(".ctb")
}

// Book is an open CTG book. Its methods may be called from several
// goroutines at once.
type Book struct {
	name         string
	ctg, cto     *os.File
	lower, upper int32
	ctgSize      int64
	ctoEntries   int64
	games        uint32

	mu       sync.Mutex
	problems []Problem
	reported map[string]bool
}

// Problem is a corrupt part of a book, met while reading it: the rest of
// the book is still used.
type Problem struct {
	File   string `json:"file"` // the file it is in: ".ctg", ".cto"
	Page   int32  `json:"page"` // the table's page number, or -1
	Reason string `json:"reason"`
}

func (p Problem) Error() string {
	if p.Page >= 0 {
		return fmt.Sprintf("%s page %d: %s", p.File, p.Page, p.Reason)
	}
	return p.File + ": " + p.Reason
}

// Open opens the CTG book named by any of its three files. A missing file
// is an error that names it; so is a .ctb too short to hold the bounds
// (nothing can be looked up without them). A .ctg or .cto cut short is
// served as far as it goes, its faults reported as they are met.
func Open(name string) (*Book, error) {
	ctgPath, ctoPath, ctbPath := Paths(name)
	var missing []string
	for _, p := range []string{ctgPath, ctoPath, ctbPath} {
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			missing = append(missing, filepath.Base(p))
		case err != nil:
			return nil, fmt.Errorf("open CTG book %s: %w", name, err)
		case !st.Mode().IsRegular():
			// Checked before opening any: opening a FIFO would block.
			return nil, fmt.Errorf("open CTG book %s: %s is not a regular file", name, p)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("open CTG book %s: %s missing (a CTG book is three files side by side: .ctg, .cto and .ctb)", name, strings.Join(missing, " and "))
	}
	b := &Book{name: name, reported: map[string]bool{}}
	ok := false
	defer func() {
		if !ok {
			b.Close()
		}
	}()
	ctb, err := os.ReadFile(ctbPath)
	if err != nil {
		return nil, fmt.Errorf("open CTG book %s: %w", name, err)
	}
	if len(ctb) < ctbBoundsEnd {
		return nil, fmt.Errorf("open CTG book %s: %s is %d bytes, too short for its page bounds (bytes 4-11)", name, filepath.Base(ctbPath), len(ctb))
	}
	b.lower = int32(binary.BigEndian.Uint32(ctb[4:]))
	b.upper = int32(binary.BigEndian.Uint32(ctb[8:]))
	if b.ctg, err = os.Open(ctgPath); err != nil {
		return nil, fmt.Errorf("open CTG book %s: %w", name, err)
	}
	if b.cto, err = os.Open(ctoPath); err != nil {
		return nil, fmt.Errorf("open CTG book %s: %w", name, err)
	}
	for _, f := range []struct {
		file *os.File
		size *int64
	}{{b.ctg, &b.ctgSize}, {b.cto, &b.ctoEntries}} {
		st, err := f.file.Stat()
		if err != nil {
			return nil, fmt.Errorf("open CTG book %s: %w", name, err)
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("open CTG book %s: %s is not a regular file", name, f.file.Name())
		}
		*f.size = st.Size()
	}
	b.ctoEntries = max(b.ctoEntries-ctoHeaderSize, 0) / 4
	var head [4]byte
	if _, err := b.ctg.ReadAt(head[:], gamesOffset); err == nil {
		b.games = binary.BigEndian.Uint32(head[:])
	}
	if b.ctgSize%PageSize != 0 {
		b.problem(".ctg", -1, fmt.Sprintf("%d bytes is not a whole number of %d-byte pages: the file is cut short in page %d", b.ctgSize, PageSize, b.ctgSize/PageSize-1))
	}
	ok = true
	return b, nil
}

// Close closes the book's files.
func (b *Book) Close() error {
	var errs []error
	for _, f := range []*os.File{b.ctg, b.cto} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	return errors.Join(errs...)
}

// Name is the name the book was opened by.
func (b *Book) Name() string { return b.name }

// Bounds are the .ctb's lower and upper page bounds.
func (b *Book) Bounds() (lower, upper int32) { return b.lower, b.upper }

// Pages is the number of data pages the .ctg holds (a page cut short
// counts).
func (b *Book) Pages() int64 { return max((b.ctgSize+PageSize-1)/PageSize-1, 0) }

// TableSize is the number of entries of the .cto's table.
func (b *Book) TableSize() int64 { return b.ctoEntries }

// Games is the number of games the header says the book was made from.
func (b *Book) Games() uint32 { return b.games }

// Problems are the faults found so far, each once, in the order met.
func (b *Book) Problems() []Problem {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Problem(nil), b.problems...)
}

// problem records a fault the first time it is met.
func (b *Book) problem(file string, page int32, reason string) {
	p := Problem{File: file, Page: page, Reason: reason}
	b.problemOnce(p.Error(), p)
}

// problemOnce records p unless a problem of the same id was recorded.
func (b *Book) problemOnce(id string, p Problem) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.reported[id] {
		return
	}
	b.reported[id] = true
	b.problems = append(b.problems, p)
}

// tableEntry is the page the .cto's entry i names; ok is false where
// there is none (a negative page number marks an empty slot) or the entry
// is past the file's end (reported).
func (b *Book) tableEntry(i int32) (page int32, ok bool, err error) {
	if int64(i) >= b.ctoEntries {
		b.problemOnce("cto short", Problem{File: ".cto", Page: -1, Reason: fmt.Sprintf("the table has %d entries, too few for the page bounds %d-%d (entry %d was wanted first): the file is cut short", b.ctoEntries, b.lower, b.upper, i)})
		return 0, false, nil
	}
	var buf [4]byte
	if _, err := b.cto.ReadAt(buf[:], ctoHeaderSize+4*int64(i)); err != nil {
		return 0, false, fmt.Errorf("read %s: %w", b.cto.Name(), err)
	}
	page = int32(binary.BigEndian.Uint32(buf[:]))
	return page, page >= 0, nil
}

// readPage reads a data page into buf as readers see it: bytes past the
// page's used bytes are zero. It returns the page's position count and
// used bytes (read before the clearing, which may reach them); a
// page past the file's end is reported and gives ok false; one cut short
// is read as far as it goes (its end was reported at open). Entry
// index is the table entry that named the page, for the report.
func (b *Book) readPage(index, page int32, buf *[PageSize]byte) (positions, used int, ok bool, err error) {
	off := (int64(page) + 1) * PageSize
	if off >= b.ctgSize {
		b.problem(".cto", -1, fmt.Sprintf("entry %d names page %d, out of range: the .ctg has %d data pages", index, page, b.Pages()))
		return 0, 0, false, nil
	}
	n, err := b.ctg.ReadAt(buf[:], off)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, false, fmt.Errorf("read %s: %w", b.ctg.Name(), err)
	}
	clear(buf[n:])
	positions = int(binary.BigEndian.Uint16(buf[0:]))
	used = int(binary.BigEndian.Uint16(buf[2:]))
	if used < PageSize {
		clear(buf[used:])
	}
	return positions, used, true, nil
}
