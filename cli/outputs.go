package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/polyproxy/polyproxy/book"

	"github.com/polyproxy/polyproxy/internal/paths"
	"github.com/polyproxy/polyproxy/internal/plainerr"
)

// fileArg is a file named on a command line, with the flag that named it
// (for the message).
type fileArg struct{ flag, path string }

// inPlaceWriter is a command whose outputs are written in place (learn's
// book), not replaced: they need no temporary file beside them.
type inPlaceWriter interface{ writesInPlace() }

// inputReplacer is a command whose output may be one of its inputs
// (merge-book a.bin b.bin -out a.bin): it takes the output's lock
// (lockOutput) and checks that input under it before it replaces it.
type inputReplacer interface{ replacesInputs() }

// checkOutputs checks a command's outputs before anything is read: each
// must be a file other than the inputs and the other outputs (see
// sameFiles), and one the batch can write (a folder that is not there or
// not writable is found now, not after the work, and nothing is
// written).
func checkOutputs(b *book.Batch, opts options) error {
	inputs, outputs := opts.files()
	if _, ok := opts.(inputReplacer); ok {
		inputs = nil
	}
	if err := sameFiles(inputs, outputs); err != nil {
		return err
	}
	if _, ok := opts.(inPlaceWriter); ok {
		return nil
	}
	for _, out := range outputs {
		if out.path == "" {
			continue
		}
		if st, err := os.Stat(out.path); err == nil && !st.Mode().IsRegular() {
			what := "is not a regular file (a device or a pipe)"
			if st.IsDir() {
				what = "is a folder"
			}
			return fmt.Errorf("%s %s %s: name the file to write; nothing written", out.flag, out.path, what)
		}
		if err := b.Check(out.path); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				// The file the check wrote is a temporary one beside
				// the output: what the user named is the output.
				return fmt.Errorf("%s %s: %s; nothing written", out.flag, out.path, plainerr.Why(pe.Path, pe.Err))
			}
			return fmt.Errorf("%s: %w; nothing written", out.flag, err)
		}
	}
	return nil
}

// sameFiles refuses an output file that is one of the inputs or another
// output: writing it would replace an input (a PGN by the book made from
// it) or lose one of two outputs. The same file is found through another
// spelling of the path, a symbolic link (to the file or to a folder on the
// way) or a hard link; "-" is standard input, refused when it is
// redirected from the output. Empty paths (an output not asked for) are
// skipped.
func sameFiles(inputs, outputs []fileArg) error {
	for i, out := range outputs {
		if out.path == "" {
			continue
		}
		for _, in := range inputs {
			same := false
			switch in.path {
			case "":
			case "-":
				same = isStdin(out.path)
			default:
				same = paths.Same(out.path, in.path)
			}
			if same {
				return usageErrorf("%s %s is the input %s %s: give another output file; nothing written", out.flag, out.path, in.flag, in.path)
			}
		}
		for _, other := range outputs[:i] {
			if other.path != "" && paths.Same(out.path, other.path) {
				return usageErrorf("%s %s and %s %s are the same file: give two files; nothing written", other.flag, other.path, out.flag, out.path)
			}
		}
	}
	return nil
}

// isStdin tells whether standard input (what "-" reads) is the file at
// path, as in "make-book -pgn - -bin games.pgn < games.pgn".
func isStdin(path string) bool {
	f, ok := pgnStdin.(*os.File)
	if !ok {
		return false
	}
	in, err := f.Stat()
	if err != nil {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && os.SameFile(in, st)
}

// outputLock is a book a command replaces, locked (lockOutput), and the
// inputs it read that are that book, as they were read.
type outputLock struct {
	path string
	read []readInput
}

// readInput is an input as os.Stat gave it before it was read.
type readInput struct {
	path string
	st   os.FileInfo
}

// lockOutput takes the lock of the book at path, when it exists, that
// every learner takes to write into it (book.Batch.Lock), before the
// command reads its inputs: no learner writes into the old book while it
// is replaced, and one waiting then finds the new book. It is held until
// the outputs are in place. A signal ends the wait, the tool stopped with
// nothing written. Before the outputs are put in place, every input read
// that is the output (reading) must be the file read, of its size and
// time, else nothing is written.
func lockOutput(e *env, path string) (*outputLock, error) {
	if err := e.stop.stoppedBy(e.outs.Lock(e.stop.lockWait(path), path)); err != nil {
		return nil, fmt.Errorf("%w; nothing written", err)
	}
	l := &outputLock{path: path}
	e.unchanged = l.unchanged
	return l, nil
}

// reading notes the input at path as it is before it is read, when it is
// the output.
func (l *outputLock) reading(path string) {
	if !paths.Same(path, l.path) {
		return
	}
	if st, err := os.Stat(path); err == nil {
		l.read = append(l.read, readInput{path, st})
	}
}

// unchanged refuses an input that is the output and changed on disk
// since it was read (overwritten, truncated, replaced): the book written
// from it would lose what was written meanwhile.
func (l *outputLock) unchanged() error {
	for _, r := range l.read {
		now, err := os.Stat(r.path)
		if err != nil || !os.SameFile(now, r.st) || now.Size() != r.st.Size() || !now.ModTime().Equal(r.st.ModTime()) {
			return fmt.Errorf("%s changed while it was read; nothing written; run again", r.path)
		}
	}
	return nil
}
