package uci

import (
	"bufio"
	"io"
)

// Writer writes protocol lines. Lines are buffered until Flush so a burst
// of lines costs one write; callers flush when they have nothing more to
// send right away, so no line waits for the next one.
type Writer struct {
	w   *bufio.Writer
	err error
}

// NewWriter writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// WriteLine buffers s followed by "\n".
func (w *Writer) WriteLine(s string) {
	if w.err != nil {
		return
	}
	w.w.WriteString(s)
	w.err = w.w.WriteByte('\n')
}

// WriteLineBytes buffers b followed by "\n".
func (w *Writer) WriteLineBytes(b []byte) {
	if w.err != nil {
		return
	}
	w.w.Write(b)
	w.err = w.w.WriteByte('\n')
}

// WriteLinesRaw buffers b as it is; b must be whole lines, each ending in
// "\n" (a run of relayed lines written with one copy).
func (w *Writer) WriteLinesRaw(b []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.w.Write(b)
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error {
	if w.err == nil {
		w.err = w.w.Flush()
	}
	return w.err
}

// Err is the first write error, which sticks.
func (w *Writer) Err() error { return w.err }
