// Package filelock takes and releases the advisory whole-file locks that
// every process sharing a file it updates in place goes through: the learn
// fields of a book, the claims on a host's PGN games.
package filelock

import (
	"context"
	"os"
	"time"
)

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return &os.SyscallError{Syscall: op, Err: err}
}

// Lock takes the lock on f, shared or exclusive, waiting for it until ctx
// ends (a signal, a request given up): then it returns ctx's error, and
// holds nothing. The wait asks again and again, a little longer apart each
// time up to a hundredth of a second, rather than blocking in the system:
// a blocked flock cannot be called off.
func Lock(ctx context.Context, f *os.File, exclusive bool) error {
	wait := time.Millisecond
	for first := true; ; first = false {
		got, err := tryLock(f, exclusive)
		if err != nil || got {
			return err
		}
		if said, ok := ctx.Value(onWaitKey{}).(func()); ok && first {
			said()
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return context.Cause(ctx)
		case <-t.C:
		}
		wait = min(2*wait, 10*time.Millisecond)
	}
}

type onWaitKey struct{}

// OnWait is ctx with said called whenever a Lock under it finds the lock
// held by another and starts to wait: a tool tells its user why it
// waits.
func OnWait(ctx context.Context, said func()) context.Context {
	return context.WithValue(ctx, onWaitKey{}, said)
}
