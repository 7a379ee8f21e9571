//go:build !linux

package adapter

import (
	"os"
	"testing"

	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// The poll loop is Linux only: these are never called (onPollLoop is
// false unless a Linux run set it).
func osPipe(t testing.TB) (*os.File, *os.File) { panic("no poll loop here") }

func withOutputFD(t testing.TB, e *ucitest.Engine) Engine { panic("no poll loop here") }
