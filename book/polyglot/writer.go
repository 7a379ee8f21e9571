package polyglot

import (
	"bufio"
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/book"
)

// WriteFile writes entries, in the order given, as a book file at path,
// replacing it as a book.Batch does.
func WriteFile(path string, entries []book.Entry) error {
	var b book.Batch
	defer b.Abort()
	err := b.WriteFileFrom(path, func(w io.Writer) error {
		return writeEntries(w, path, len(entries), func(i int) book.Entry { return entries[i] })
	})
	if err != nil {
		return err
	}
	return b.Commit()
}

// writeEntries writes n entries, entry(i) the i-th, to w as a book file's
// 16-byte records.
func writeEntries(w io.Writer, path string, n int, entry func(i int) book.Entry) error {
	bw := bufio.NewWriterSize(w, 256<<10)
	var buf [EntrySize]byte
	for i := range n {
		PutEntry(buf[:], entry(i))
		if _, err := bw.Write(buf[:]); err != nil {
			return fmt.Errorf("write book %s: %w", path, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write book %s: %w", path, err)
	}
	return nil
}

// Write writes src's entries in its order as a Polyglot book at path into
// the batch b (book.Writer).
func (format) Write(b *book.Batch, path string, src *book.Book, _ int) (book.Written, error) {
	if err := src.Err(); err != nil {
		return book.Written{}, err
	}
	if err := b.WriteFileFrom(path, func(w io.Writer) error { return writeEntries(w, path, src.Len(), src.Entry) }); err != nil {
		return book.Written{}, err
	}
	n := fmt.Sprintf("%d entries", src.Len())
	return book.Written{Count: n, Said: "Polyglot book " + path + ": " + n}, nil
}
