//go:build !linux

package adapter

import (
	"io"
	"testing"

	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// The poll loop is Linux only: these are never called (onPollLoop is
// false unless a Linux run set it).
func osPipe(t testing.TB) (io.Reader, io.WriteCloser) { panic("no poll loop here") }

func withOutputFD(t testing.TB, e *ucitest.Engine) Engine { panic("no poll loop here") }
