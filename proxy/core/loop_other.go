//go:build !linux

package core

import "io"

// pollLoop is Linux only: elsewhere the goroutine loop runs (Windows has
// no poll for anonymous pipes; the other systems keep the loop that runs
// everywhere).
type pollLoop struct{}

func (c *Core) newPollLoop(io.Reader) *pollLoop { return nil }
func (*pollLoop) attach(Engine) bool            { return false }
func (*pollLoop) wake()                         {}
func (*pollLoop) close()                        {}
func (*pollLoop) run() error                    { return nil }
