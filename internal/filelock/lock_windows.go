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

// tryLock takes the lock on f, shared or exclusive, when no other holds
// it; got is false when another does.
func tryLock(f *os.File, exclusive bool) (got bool, err error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	switch err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &ol); err {
	case nil:
		return true, nil
	case windows.ERROR_LOCK_VIOLATION, windows.ERROR_IO_PENDING:
		return false, nil
	default:
		return false, wrap("LockFileEx", err)
	}
}

// Unlock releases the lock on f.
func Unlock(f *os.File) error {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	return wrap("UnlockFileEx", windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol))
}
