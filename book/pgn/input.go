package pgn

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

// Compression formats an input can have, told by its first bytes.
const (
	Plain = "plain"
	Gzip  = "gzip"
	Bzip2 = "bzip2"
	Zstd  = "zstd"
)

// magic numbers of the compressed formats (RFC 1952, bzip2's "BZh" and a
// block size digit, RFC 8878).
var (
	gzipMagic  = []byte{0x1f, 0x8b}
	bzip2Magic = []byte("BZh")
	zstdMagic  = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Input is a PGN stream opened by Open: the text, decompressed if need
// be, and how much of the underlying file has been read, for progress.
type Input struct {
	io.Reader
	Name        string // as given; "-" is standard input
	Compression string // Plain, Gzip, Bzip2 or Zstd
	Size        int64  // the file's size in bytes; 0 when unknown (a pipe)

	raw    *countingReader
	closer []func() error
}

// Consumed is how many bytes of the file (compressed bytes for a
// compressed one) have been read so far. Safe to call from another
// goroutine.
func (in *Input) Consumed() int64 { return in.raw.n.Load() }

// Close releases the file and the decompressor.
func (in *Input) Close() error {
	var err error
	for i := len(in.closer) - 1; i >= 0; i-- {
		if e := in.closer[i](); e != nil && err == nil {
			err = e
		}
	}
	in.closer = nil
	return err
}

type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// Open opens a PGN file, or stdin when name is "-", and decompresses it
// when its content starts like gzip, bzip2 or zstd data (the name does
// not matter: a .pgn that is really gzip is read too). Reading streams:
// nothing is held beyond the decompressor's window.
func Open(name string, stdin io.Reader) (*Input, error) {
	in := &Input{Name: name}
	var r io.Reader
	if name == "-" {
		if stdin == nil {
			return nil, errors.New("no standard input")
		}
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		if st.IsDir() {
			f.Close()
			return nil, fmt.Errorf("%s is a directory", name)
		}
		if st.Mode().IsRegular() {
			in.Size = st.Size()
		}
		in.closer = append(in.closer, f.Close)
		r = f
	}
	in.raw = &countingReader{r: r}
	if err := in.decompress(in.raw); err != nil {
		in.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return in, nil
}

// NewInput reads PGN from r, decompressing it as Open does.
func NewInput(r io.Reader, name string) (*Input, error) {
	in := &Input{Name: name, raw: &countingReader{r: r}}
	if err := in.decompress(in.raw); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return in, nil
}

func (in *Input) decompress(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(4)
	if err != nil && err != io.EOF {
		return err
	}
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		in.Compression = Gzip
		zr, err := gzip.NewReader(br) // reads concatenated members too
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		in.closer = append(in.closer, zr.Close)
		in.Reader = zr
	case bytes.HasPrefix(head, bzip2Magic) && len(head) == 4 && head[3] >= '1' && head[3] <= '9':
		in.Compression = Bzip2
		in.Reader = bzip2.NewReader(br)
	case bytes.HasPrefix(head, zstdMagic):
		in.Compression = Zstd
		// Decoded in the reading goroutine: make-book's parsers already
		// use every core.
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return fmt.Errorf("zstd: %w", err)
		}
		in.closer = append(in.closer, func() error { zr.Close(); return nil })
		in.Reader = zr
	default:
		in.Compression = Plain
		in.Reader = br
	}
	return nil
}
