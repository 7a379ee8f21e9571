//go:build windows

package filelock

import (
	"os"

	"golang.org/x/sys/windows"
)

// Windows byte-range locks are mandatory: a locked range cannot be read
// through other handles. So the lock is taken on one byte far past the end
// of any book rather than on the entries: writers that all lock that byte
// exclude each other, while readers (our memory-mapped books, other
// programs reading the book) are never blocked.
const (
	lockOffsetLow  = 0
	lockOffsetHigh = 0x7fff0000
)

// Lock takes the lock on f, shared or exclusive, waiting for it.
func Lock(f *os.File, exclusive bool) error {
	var flags uint32
	if exclusive {
		flags = windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	return wrap("LockFileEx", windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &ol))
}

// Unlock releases the lock on f.
func Unlock(f *os.File) error {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	return wrap("UnlockFileEx", windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol))
}
