//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly || windows)

package filelock

import (
	"errors"
	"os"
)

// Without a file lock concurrent updates could be lost, so learning is
// refused rather than done unsafely.
//
// tryLock always fails here.
func tryLock(*os.File, bool) (bool, error) {
	return false, errors.New("file locking is not supported on this system")
}

// Unlock releases the lock on f.
func Unlock(f *os.File) error { return nil }
