// Package paths tells whether two paths name the same file, so that no
// writer (a book tool's output, the proxy's log) replaces or appends to one
// of its inputs under another name.
package paths

import (
	"os"
	"path/filepath"
)

// Same tells whether paths a and b name the same file: the same file on
// disk when both exist (os.SameFile, which sees through symbolic and hard
// links), else the same place once made absolute with the links in their
// folders resolved and a dangling link followed.
func Same(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	return Place(a) == Place(b)
}

// Place is where a path that may not exist yet would be created: its
// folder, absolute, with every link resolved, and its name; a dangling
// link is followed to where it points. Processes started in different
// folders get the same place for one file.
func Place(p string) string {
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
