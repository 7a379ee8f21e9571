// Package uci reads and writes the UCI line protocol: tolerant parsing of
// GUI commands and engine output into typed values, a line reader without a
// length limit, a line writer, and the engine child process.
package uci

import (
	"bufio"
	"bytes"
	"io"
)

// LineReader reads lines of any length (a 2,000-ply position line is about
// 10 KB; bufio.Scanner would stop at 64 KB and PolyGlot at 4 KB).
type LineReader struct {
	r    *bufio.Reader
	long []byte // assembles lines longer than the buffer
}

// NewLineReader reads from r with a buffer of size bytes (at least 4 KB).
func NewLineReader(r io.Reader, size int) *LineReader {
	if size < 4096 {
		size = 4096
	}
	return &LineReader{r: bufio.NewReaderSize(r, size)}
}

// ReadLine returns the next line without its terminator ("\n" or "\r\n").
// The slice is only valid until the next call. A last line without a
// terminator is returned before io.EOF.
func (lr *LineReader) ReadLine() ([]byte, error) {
	line, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.long = append(lr.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = lr.r.ReadSlice('\n')
			lr.long = append(lr.long, line...)
		}
		line = lr.long
	}
	if err != nil && (err != io.EOF || len(line) == 0) {
		return nil, err
	}
	return trimEOL(line), nil
}

// HasBufferedLine reports whether a complete line is already in the
// buffer, so the caller can batch it with the previous ones instead of
// flushing its output first.
func (lr *LineReader) HasBufferedLine() bool {
	n := lr.r.Buffered()
	if n == 0 {
		return false
	}
	b, _ := lr.r.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

func trimEOL(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	return line
}
