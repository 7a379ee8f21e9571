package main

import "github.com/polyproxy/polyproxy/internal/paths"

// fileArg is a file named on a command line, with the flag that named it
// (for the message).
type fileArg struct{ flag, path string }

// checkOutputs refuses, before anything is read or written, an output
// file that is one of the inputs or another output: writing it would
// replace an input (a PGN by the book made from it) or lose one of two
// outputs. The same file is found through another spelling of the path,
// a symbolic link (to the file or to a folder on the way) or a hard link.
// "-" (standard input) and empty paths (an output not asked for) are
// skipped.
func checkOutputs(inputs, outputs []fileArg) error {
	for i, out := range outputs {
		if out.path == "" {
			continue
		}
		for _, in := range inputs {
			if in.path != "-" && in.path != "" && paths.Same(out.path, in.path) {
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
