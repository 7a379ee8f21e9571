//go:build !linux

package loop

import (
	"errors"
	"io"
)

// pollLoop is Linux only: elsewhere the goroutine loop runs (Windows has
// no poll for anonymous pipes; the other systems keep the loop that runs
// everywhere).
type pollLoop struct{}

// ErrPoll is never returned here.
var ErrPoll = errors.New("poll")

func newPollLoop(*Loop, io.Reader) *pollLoop { return nil }
func (*pollLoop) attach(Engine) bool         { return false }
func (*pollLoop) wake()                      {}
func (*pollLoop) close()                     {}
func (*pollLoop) run() error                 { return nil }
func (*pollLoop) spinsSoFar() int            { return 0 }
