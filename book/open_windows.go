//go:build windows

package book

import (
	"os"

	"golang.org/x/sys/windows"
)

// openLocked opens a book for learning or editing. Windows refuses to
// replace a file that a handle without FILE_SHARE_DELETE holds (Go's
// os.OpenFile gives none), and an edit that rewrites the book renames the
// new file over the old one while it holds the old one's lock: so the
// handle shares deletion.
func openLocked(path string, writable bool) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	access := uint32(windows.GENERIC_READ)
	if writable {
		access |= windows.GENERIC_WRITE
	}
	h, err := windows.CreateFile(p, access, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}
