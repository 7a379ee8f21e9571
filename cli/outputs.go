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

// checkOutputs checks a command's outputs before anything is read: each
// must be a file other than the inputs and the other outputs (see
// sameFiles), and one the batch can write (a folder that is not there or
// not writable is found now, not after the work, and nothing is
// written).
func checkOutputs(b *book.Batch, opts options) error {
	inputs, outputs := opts.files()
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
