package core

// The core's insides, for the package's own tests (core_test).

import (
	"reflect"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/config"
)

// Polling reports whether the poll loop runs (else the goroutine loop).
func (c *Core) Polling() bool { return c.loop.Polling() }

// GameState is the game followed, for tests.
type GameState struct {
	OK         bool
	Err        string
	Cur        *board.Line
	Moves      []board.Move // given
	EngineLine string
	Number     int
}

// State is the game followed; read on the loop.
func (c *Core) State() GameState {
	g := c.game
	_, moves := g.Given()
	return GameState{OK: g.OK(), Err: g.Problem(), Cur: g.Current(), Moves: moves, EngineLine: g.EngineLine(), Number: g.Number()}
}

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

// Setting is the value of setting s; read on the loop.
func (c *Core) Setting(s config.Setting) string { return s.Value(c.settings) }
