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
//
// Lock takes the lock on f, shared or exclusive, waiting for it.
func Lock(f *os.File, exclusive bool) error {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	for {
		err := unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			return wrap("flock", err)
		}
	}
}

// Unlock releases the lock on f.
func Unlock(f *os.File) error {
	return wrap("flock unlock", unix.Flock(int(f.Fd()), unix.LOCK_UN))
}
