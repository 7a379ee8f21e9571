//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package book

import (
	"os"

	"golang.org/x/sys/unix"
)

// flock, not fcntl (POSIX) locks: flock belongs to the open file, so two
// Files in one process exclude each other too, and closing some other
// descriptor of the same file does not silently drop the lock as it does
// with fcntl locks. Locks are advisory: every writer of learn fields goes
// through here.
func lockFile(f *os.File, exclusive bool) error {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	for {
		err := unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			return wrapLockErr("flock", err)
		}
	}
}

func unlockFile(f *os.File) error {
	return wrapLockErr("flock unlock", unix.Flock(int(f.Fd()), unix.LOCK_UN))
}
