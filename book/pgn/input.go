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
	"slices"
	"sync"
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

	mu       sync.Mutex
	warnings []string
}

// Warnings are what reading found wrong but could read past, as gzip and
// bzip2 do: padding or garbage after the last compressed member. Complete
// once the input has been read to its end.
func (in *Input) Warnings() []string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return slices.Clone(in.warnings)
}

func (in *Input) warn(format string, args ...any) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.warnings = append(in.warnings, fmt.Sprintf(format, args...))
}

// offset is how far into the file the decompressor has read: the bytes
// read from the file less those still in br's buffer.
func (in *Input) offset(br *bufio.Reader) int64 { return in.raw.n.Load() - int64(br.Buffered()) }

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
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("gzip: %w", err)
		}
		zr.Multistream(false)
		in.closer = append(in.closer, zr.Close)
		in.Reader = &gzipMembers{in: in, zr: zr, br: br}
	case bytes.HasPrefix(head, bzip2Magic) && len(head) == 4 && head[3] >= '1' && head[3] <= '9':
		in.Compression = Bzip2
		in.Reader = &bzip2Streams{in: in, r: bzip2.NewReader(br)}
	case bytes.HasPrefix(head, zstdMagic):
		in.Compression = Zstd
		// Decoded in the reading goroutine: make-book's parsers already
		// use every core.
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return fmt.Errorf("zstd: %w", err)
		}
		in.closer = append(in.closer, func() error { zr.Close(); return nil })
		in.Reader = &zstdFrames{zr}
	default:
		in.Compression = Plain
		in.Reader = br
	}
	return nil
}

// gzipMembers reads concatenated gzip members (pigz writes them) one at a
// time, to judge what follows the last one as gzip does: zero padding (tape
// blocks, some downloaders) and other trailing bytes are read past with a
// warning ("decompression OK, trailing garbage ignored"); a member that is
// cut short or has a bad header is an error saying so.
type gzipMembers struct {
	in      *Input
	zr      *gzip.Reader
	br      *bufio.Reader
	members int
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for {
		n, err := g.zr.Read(p)
		switch {
		case err == io.ErrUnexpectedEOF:
			return n, fmt.Errorf("gzip: the data ends in the middle of member %d (a cut file?)", g.members+1)
		case err != io.EOF:
			return n, err
		}
		if n > 0 {
			return n, nil // the next call goes on to what follows
		}
		g.members++
		head, _ := g.br.Peek(len(gzipMagic))
		switch {
		case len(head) == 0:
			return 0, io.EOF
		case bytes.Equal(head, gzipMagic):
			at := g.in.offset(g.br)
			if err := g.zr.Reset(g.br); err != nil {
				switch err {
				case io.ErrUnexpectedEOF:
					return 0, fmt.Errorf("gzip: member %d at byte %d is cut short", g.members+1, at)
				case gzip.ErrHeader:
					return 0, fmt.Errorf("gzip: member %d at byte %d has an invalid header", g.members+1, at)
				}
				return 0, fmt.Errorf("gzip: member %d at byte %d: %w", g.members+1, at, err)
			}
			g.zr.Multistream(false)
		default:
			at := g.in.offset(g.br)
			size, zeros, err := countTrailing(g.br)
			if err != nil {
				return 0, err
			}
			if zeros {
				g.in.warn("%d bytes of zero padding after the gzip data (byte %d on) ignored", size, at)
			} else {
				g.in.warn("%d bytes of trailing garbage after the gzip data (byte %d on) ignored, as gzip does", size, at)
			}
			return 0, io.EOF
		}
	}
}

// countTrailing reads r to its end and tells how many bytes there were
// and whether all were zero.
func countTrailing(r io.Reader) (n int64, zeros bool, err error) {
	buf := make([]byte, 32<<10)
	zeros = true
	for {
		k, err := r.Read(buf)
		n += int64(k)
		if zeros && slices.ContainsFunc(buf[:k], func(b byte) bool { return b != 0 }) {
			zeros = false
		}
		if err == io.EOF {
			return n, zeros, nil
		}
		if err != nil {
			return n, zeros, err
		}
	}
}

// bzip2Streams reads past what follows the last bzip2 stream with a
// warning, as bzip2 does ("trailing garbage after EOF ignored"): Go's
// reader reports it as a stream that does not start with "BZ".
type bzip2Streams struct {
	in *Input
	r  io.Reader
}

func (b *bzip2Streams) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	var se bzip2.StructuralError
	if errors.As(err, &se) && se == "bad magic value in continuation file" {
		b.in.warn("trailing garbage after the bzip2 data ignored, as bzip2 does")
		return n, io.EOF
	}
	return n, err
}

// zstdFrames names the error for what follows the last frame when it is
// not a frame: zstd refuses such a file ("unsupported format") and so do we.
type zstdFrames struct{ r io.Reader }

func (z *zstdFrames) Read(p []byte) (int, error) {
	n, err := z.r.Read(p)
	if errors.Is(err, zstd.ErrMagicMismatch) {
		err = errors.New("zstd: what follows the last frame is not zstd data (zero padding or garbage; zstd -t refuses it too)")
	}
	return n, err
}
