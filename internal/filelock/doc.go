// Package filelock takes and releases the advisory whole-file locks that
// every process sharing a file it updates in place goes through: the learn
// fields of a book, the claims on a host's PGN games.
package filelock

import "os"

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return &os.SyscallError{Syscall: op, Err: err}
}
