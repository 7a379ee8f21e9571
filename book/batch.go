package book

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// writeFile replaces the file at path with what write writes: a Batch
// of one file.
func writeFile(path string, write func(io.Writer) error) error {
	var b Batch
	defer b.Abort()
	if err := b.WriteFileFrom(path, write); err != nil {
		return err
	}
	return b.Commit()
}

// Batch is the one way the tools replace files (a book, counts, a dump, an
// export): one or several, all or nothing. Each is written to a temporary
// file in its directory and synced, and Commit renames them over their
// files only when every one was written: a path holds either its old
// content or the whole new file, never a half-written one, and after any
// failure every file keeps its old content. On Windows the rename is
// retried while another program holds the file (replaceFile). Abort may
// be called at any time from another goroutine (a signal): it removes the
// temporary files, and a Commit after it fails.
//
// A new file gets mode 0644; a replaced one keeps its mode (a book shared
// for learning may be group-writable). A symbolic link at path is written
// through, as PolyGlot does: its target is replaced (created when the
// link dangles) and the link kept, so current.bin -> v7.bin still names
// the book just written.
type Batch struct {
	mu      sync.Mutex
	staged  []stagedFile
	aborted bool
	done    bool       // committed
	locked  []*os.File // the files Lock locked, until the batch ends
}

// stagedFile is one file of a batch: its new content in tmp, to be
// renamed over target (path with its links followed).
type stagedFile struct {
	path, target, tmp string
	f                 *os.File // open while written
}

// stage creates the temporary file for path, with the mode path's file
// has (0644 for a new one).
func stage(path string) (stagedFile, error) {
	target, err := linkTarget(path)
	if err != nil {
		return stagedFile{}, fmt.Errorf("write %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if st, serr := os.Stat(target); serr == nil {
		if !st.Mode().IsRegular() {
			return stagedFile{}, fmt.Errorf("write %s: not a regular file", path)
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
		return stagedFile{}, fmt.Errorf("write %s: %w", path, err)
	}
	// CreateTemp makes the file 0600.
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return stagedFile{}, fmt.Errorf("write %s: %w", path, err)
	}
	return stagedFile{path: path, target: target, tmp: f.Name(), f: f}, nil
}

// Check tells, before any work, whether the batch could write path: a
// temporary file beside it is made and removed.
func (b *Batch) Check(path string) error {
	s, err := stage(path)
	if err != nil {
		return err
	}
	s.f.Close()
	return os.Remove(s.tmp)
}

// WriteFileFrom writes path's new content with write, to a temporary
// file that Commit puts in place. On an error, write's own returned as it
// is, the temporary file is removed and the batch holds nothing for path.
func (b *Batch) WriteFileFrom(path string, write func(io.Writer) error) error {
	s, err := stage(path)
	if err != nil {
		return err
	}
	b.mu.Lock()
	if b.aborted || b.done {
		b.mu.Unlock()
		s.f.Close()
		os.Remove(s.tmp)
		return fmt.Errorf("write %s: the batch was ended", path)
	}
	b.staged = append(b.staged, s)
	i := len(b.staged) - 1
	b.mu.Unlock()
	err = write(s.f)
	if err == nil {
		if err = s.f.Sync(); err != nil {
			err = fmt.Errorf("write %s: sync: %w", path, err)
		}
	}
	if cerr := s.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write %s: %w", path, cerr)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err == nil && b.aborted {
		err = fmt.Errorf("write %s: the batch was ended", path)
	}
	if err != nil {
		os.Remove(s.tmp)
		b.staged[i].tmp = ""
	}
	return err
}

// Pending is the temporary file that holds path's new content until
// Commit ("" when the batch holds none), for a file made from another
// one of the batch.
func (b *Batch) Pending(path string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, s := range b.staged {
		if s.path == path && !b.aborted {
			return s.tmp
		}
	}
	return ""
}

// Commit renames every file written over its file. A rename that fails
// puts back the files renamed before it, removes the rest, and returns
// the error: all or nothing. (Where the file system has no hard links, a
// file already renamed stays new, and the error says so.)
func (b *Batch) Commit() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.aborted || b.done {
		return errors.New("commit: the batch was ended")
	}
	b.done = true
	defer b.unlock()
	if OpenFilesBlockReplace {
		// Windows refuses to rename over a file that handles hold, ours
		// among them (Lock's): the locks go just before the renames, so
		// there a learner may still write into the old book in that
		// instant.
		b.unlock()
	}
	var files []stagedFile
	for _, s := range b.staged {
		if s.tmp != "" {
			files = append(files, s)
		}
	}
	// A file another program holds (Windows) is found before anything is
	// renamed. Each old file but the last one's is kept under a second
	// name, a hard link, until all are in place: a rename that fails puts
	// them back. "" for a file that did not exist.
	backups := make([]string, len(files))
	defer func() {
		for _, bk := range backups {
			if bk != "" && bk != "-" {
				os.Remove(bk)
			}
		}
	}()
	for i, s := range files {
		if len(files) == 1 {
			break // one file needs no putting back
		}
		if err := waitReplaceable(s.target); err != nil {
			for _, t := range files {
				os.Remove(t.tmp)
			}
			return fmt.Errorf("write %s: %w; no file replaced", s.path, err)
		}
		if _, err := os.Lstat(s.target); err == nil && i < len(files)-1 {
			backups[i] = s.tmp + ".old"
			if err := os.Link(s.target, backups[i]); err != nil {
				backups[i] = "-" // no hard links here: it cannot be put back
			}
		}
	}
	for i, s := range files {
		err := replaceFile(s.tmp, s.target)
		if err == nil {
			continue
		}
		var kept []string
		for j := range i {
			if !restore(files[j].target, backups[j]) {
				kept = append(kept, files[j].path)
			}
		}
		for _, t := range files[i:] {
			os.Remove(t.tmp)
		}
		if len(kept) > 0 {
			return fmt.Errorf("write %s: %w (%s already replaced, and could not be put back)", s.path, err, strings.Join(kept, ", "))
		}
		return fmt.Errorf("write %s: %w; no file replaced", s.path, err)
	}
	return nil
}

// restore puts a file's old content back from its backup, or removes a
// file that did not exist before (backup ""); it reports whether it
// could.
func restore(target, backup string) bool {
	switch backup {
	case "":
		return os.Remove(target) == nil
	case "-":
		return false
	}
	return replaceFile(backup, target) == nil
}

// Abort removes the temporary files of a batch not committed, and
// reports whether every file was left as it was: false once Commit
// began. A write under way then fails.
func (b *Batch) Abort() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done || b.aborted {
		return !b.done
	}
	b.aborted = true
	defer b.unlock()
	for _, s := range b.staged {
		if s.tmp != "" {
			s.f.Close() // Windows removes no open file
			os.Remove(s.tmp)
		}
	}
	return true
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
