//go:build !windows

package book

import "os"

// openFilesBlockReplace: a file open or mapped here does not stop a new
// file being renamed over its path (the open one keeps reading the old
// file), so Open maps books and LearnFile keeps its file open.
const openFilesBlockReplace = false

// replaceFile renames tmp over path.
func replaceFile(tmp, path string) error { return os.Rename(tmp, path) }

// waitReplaceable: nothing here stops a file being replaced.
func waitReplaceable(string) error { return nil }
