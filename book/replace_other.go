//go:build !windows

package book

import "os"

// OpenFilesBlockReplace reports a system where a file open or mapped
// stops a new file being renamed over its path. Not here: the open one
// keeps reading the old file, so a format maps its books and LearnFile
// keeps its file open.
const OpenFilesBlockReplace = false

// replaceFile renames tmp over path.
func replaceFile(tmp, path string) error { return os.Rename(tmp, path) }

// waitReplaceable: nothing here stops a file being replaced.
func waitReplaceable(string) error { return nil }
