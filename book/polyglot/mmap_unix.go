//go:build unix

package polyglot

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the whole file read-only. The mapping is shared, so learn
// updates written through the file by this or other processes are seen.
func mapFile(f *os.File, size int64) ([]byte, error) {
	if size == 0 {
		return nil, nil
	}
	return unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
}

func unmapFile(b []byte) error {
	if b == nil {
		return nil
	}
	return unix.Munmap(b)
}
