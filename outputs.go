package main

import (
	"os"
	"path/filepath"
)

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
			if in.path != "-" && in.path != "" && sameFile(out.path, in.path) {
				return usageErrorf("%s %s is the input %s %s: give another output file; nothing written", out.flag, out.path, in.flag, in.path)
			}
		}
		for _, other := range outputs[:i] {
			if other.path != "" && sameFile(out.path, other.path) {
				return usageErrorf("%s %s and %s %s are the same file: give two files; nothing written", other.flag, other.path, out.flag, out.path)
			}
		}
	}
	return nil
}

// sameFile tells whether paths a and b name the same file: the same file
// on disk when both exist (os.SameFile, which sees through links), else the
// same place once made absolute with the links in their folders resolved.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	return place(a) == place(b)
}

// place is where a path that may not exist yet would be created: its
// folder with every link resolved, and its name; a dangling link is
// followed to where it points.
func place(p string) string {
	if target, err := os.Readlink(p); err == nil {
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	dir, name := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, name)
}
