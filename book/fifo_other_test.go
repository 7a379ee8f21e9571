//go:build !unix

package book_test

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs here") }
