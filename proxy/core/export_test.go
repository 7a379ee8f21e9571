package core

// The core's insides, for the package's own tests (core_test).

import (
	"reflect"
)

// Polling reports whether the poll loop runs (else the goroutine loop).
func (c *Core) Polling() bool { return c.loop.Polling() }

// Made is what a change of settings makes anew: the chooser, the books
// opened, the log's file (each compared by identity); read on the loop.
// The book play's are its own: they are told apart by their addresses.
func (c *Core) Made() (chooser any, books []uintptr, log any) {
	bp := reflect.ValueOf(c.books).Elem()
	open := bp.FieldByName("open")
	for i := range open.Len() {
		books = append(books, open.Index(i).Pointer())
	}
	return bp.FieldByName("chooser").Pointer(), books, c.log.File()
}

// HoldBookReads holds every reading of the books changed on disk, which
// runs beside the loop, until release is called; called on the loop.
func (c *Core) HoldBookReads() (release func()) {
	hold := make(chan struct{})
	c.holdBookReads = hold
	return func() { close(hold) }
}
