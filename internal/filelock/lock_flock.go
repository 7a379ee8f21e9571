//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package filelock

import (
	"os"

	"golang.org/x/sys/unix"
)

// flock, not fcntl (POSIX) locks: flock belongs to the open file, so two
// Files in one process exclude each other too, and closing some other
// descriptor of the same file does not silently drop the lock as it does
// with fcntl locks. Locks are advisory: every writer of learn fields goes
// through here.

// tryLock takes the lock on f, shared or exclusive, when no other holds
// it; got is false when another does.
func tryLock(f *os.File, exclusive bool) (got bool, err error) {
	how := unix.LOCK_SH | unix.LOCK_NB
	if exclusive {
		how = unix.LOCK_EX | unix.LOCK_NB
	}
	for {
		switch err := unix.Flock(int(f.Fd()), how); err {
		case nil:
			return true, nil
		case unix.EWOULDBLOCK:
			return false, nil
		case unix.EINTR:
		default:
			return false, wrap("flock", err)
		}
	}
}

// Unlock releases the lock on f.
func Unlock(f *os.File) error {
	return wrap("flock unlock", unix.Flock(int(f.Fd()), unix.LOCK_UN))
}
