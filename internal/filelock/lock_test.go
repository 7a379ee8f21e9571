package filelock_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/polyproxy/polyproxy/internal/filelock"
)

// TestLockWaitEnds: a wait for a lock another holds ends when its context
// does, holding nothing; once the other lets go, the lock is taken.
func TestLockWaitEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	holder, waiter := open(), open()
	if err := filelock.Lock(t.Context(), holder, true); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- filelock.Lock(ctx, waiter, false) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the wait ended with %v, want context.Canceled", err)
	}
	if err := filelock.Unlock(holder); err != nil {
		t.Fatal(err)
	}
	if err := filelock.Lock(t.Context(), waiter, true); err != nil {
		t.Fatalf("the lock let go: %v", err)
	}
}
