package book

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/polyproxy/polyproxy/internal/filelock"
)

// Lock takes, for a batch that is to replace the book at path (merge-book,
// convert-book), the lock every learner takes to write into it
// (LearnFile), held until the batch ends (Commit's renames done, or
// Abort): no learner writes into the old file meanwhile, where its counts
// would be lost, and a learner waiting for it then finds the new file. A
// wait ends with ctx. A path that names no file has no lock to take.
func (b *Batch) Lock(ctx context.Context, path string) error {
	open := func() (*os.File, error) { return openLocked(path, false) }
	held, _, err := lockNamed(ctx, "replace", path, nil, open, true)
	if err != nil {
		if held != nil {
			held.Close()
		}
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrBookDeleted) {
			return nil
		}
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.locked = append(b.locked, held)
	if b.aborted || b.done {
		b.unlock()
		return fmt.Errorf("replace %s: the batch was ended", path)
	}
	return nil
}

// unlock releases the batch's locks (Lock); b.mu held.
func (b *Batch) unlock() {
	for _, f := range b.locked {
		filelock.Unlock(f)
		f.Close()
	}
	b.locked = nil
}
