//go:build !unix

package polyglot_test

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
