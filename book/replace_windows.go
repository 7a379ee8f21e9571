//go:build windows

package book

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// OpenFilesBlockReplace reports a system where a file open or mapped
// stops a new file being renamed over its path. On Windows a file that is open (without
// FILE_SHARE_DELETE, as Go opens files) or has a mapped view cannot be
// deleted or replaced, so a book a proxy had open made make-book and
// merge-book fail with "Access denied" when renaming the new book over
// it. So nothing holds a book here between uses: a format reads the book
// into memory and closes it, and LearnFile opens its file for each batch of
// updates only. The tools then replace a book in use as on Linux, and the
// proxy notices and opens the new book. The cost: the book's size in
// memory, and learn updates written meanwhile are seen by the choice of
// moves (BookLearnWeight) once the book is opened again.
const OpenFilesBlockReplace = true

// replaceWait is how long replaceFile retries while the path is in use.
const replaceWait = 5 * time.Second

// replaceFile renames tmp over path. Another program may hold path for a
// moment (a proxy reading the book or writing learn fields, a virus
// scanner), and Windows then refuses: the rename is retried for up to
// replaceWait. A path still held says so, and the old file is intact.
func replaceFile(tmp, path string) error {
	deadline := time.Now().Add(replaceWait)
	for {
		err := os.Rename(tmp, path)
		if err == nil || !inUse(err) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w (%s stayed in use by another program for %v; it is unchanged)", err, path, replaceWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitReplaceable waits, up to replaceWait, while another program holds
// path so that it cannot be replaced (opened without FILE_SHARE_DELETE,
// as Go and PolyGlot open files), and then says so: a Batch asks before
// it renames anything, so that such a file fails it with every file as
// it was, and no second name of a held file is left behind.
func waitReplaceable(path string) error {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(replaceWait)
	for {
		h, err := windows.CreateFile(p, windows.DELETE, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
			nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
		if err == nil {
			windows.CloseHandle(h)
			return nil
		}
		if !inUse(err) {
			return nil // not there, or another trouble the rename reports
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w (%s stayed in use by another program for %v; it is unchanged)", err, path, replaceWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func inUse(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)
}
