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
// writes a temporary file in the file's directory, syncs it and renames it
// over the file, so path holds either its old content or the whole new file,
// never a half-written one; on any error, write's own returned as it is,
// the temporary file is removed. On Windows the rename is retried while
// another program holds path (replaceFile).
//
// A new file gets mode 0644; a replaced one keeps its mode (a book shared
// for learning may be group-writable). A symbolic link at path is written
// through, as PolyGlot does: its target is replaced (created when the
// link dangles) and the link kept, so current.bin -> v7.bin still names
// the book just written.
func WriteFileFrom(path string, write func(io.Writer) error) (err error) {
	target, err := linkTarget(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if st, serr := os.Stat(target); serr == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		mode = st.Mode().Perm()
	}
	// The temporary file goes beside the target: a rename stays within
	// one file system only there.
	dir, base := filepath.Split(target)
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
	if err = replaceFile(tmp, target); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// maxLinks bounds the symbolic links followed to a file (a loop of links
// must end in an error, as the system's own limit makes open fail).
const maxLinks = 40

// linkTarget is the file a path names once symbolic links at its last
// element are followed (path itself when it is no link, or does not
// exist). A link's target that does not exist yet is where the file is
// to be created. A relative target is read from the folder the link
// really is in: "../v7.bin" in a linked folder leads beside the folder
// linked to, not beside the link to it.
func linkTarget(path string) (string, error) {
	for range maxLinks {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			dir, err := filepath.EvalSymlinks(filepath.Dir(path))
			if err != nil {
				return "", err
			}
			to = filepath.Join(dir, to)
		}
		path = to
	}
	return "", fmt.Errorf("more than %d symbolic links in a row", maxLinks)
}
