//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly || windows)

package book

import (
	"errors"
	"os"
)

// Without a file lock concurrent updates could be lost, so learning is
// refused rather than done unsafely.
func lockFile(f *os.File, exclusive bool) error {
	return errors.New("file locking is not supported on this system")
}

func unlockFile(f *os.File) error { return nil }
