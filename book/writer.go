package book

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes entries, in the order given, as a book file at path,
// through WriteFileFrom.
func WriteFile(path string, entries []Entry) error {
	return WriteFileFrom(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		var buf [EntrySize]byte
		for _, e := range entries {
			e.Encode(buf[:])
			if _, err := bw.Write(buf[:]); err != nil {
				return fmt.Errorf("write book %s: %w", path, err)
			}
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("write book %s: %w", path, err)
		}
		return nil
	})
}

// WriteFileFrom writes the file at path with what write writes: the one
// way the tools replace a file (a book, counts, a dump, an export). It
// writes a temporary file in the same directory, syncs it and renames it
// over path, so path holds either its old content or the whole new file,
// never a half-written one; on any error, write's own returned as it is,
// the temporary file is removed. On Windows the rename is retried while
// another program holds path (replaceFile).
//
// A new file gets mode 0644; a replaced one keeps its mode (a book shared
// for learning may be group-writable).
func WriteFileFrom(path string, write func(io.Writer) error) (err error) {
	mode := os.FileMode(0o644)
	if st, serr := os.Stat(path); serr == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		mode = st.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	// CreateTemp makes the file 0600.
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = replaceFile(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
