//go:build !windows

package book

import "os"

// openLocked opens a book for learning or editing.
func openLocked(path string, writable bool) (*os.File, error) {
	flag := os.O_RDONLY
	if writable {
		flag = os.O_RDWR
	}
	return os.OpenFile(path, flag, 0)
}
