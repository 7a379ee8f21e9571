//go:build !linux

package proxytest

import (
	"os"
	"testing"

	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// RunOnPollLoop: the poll loop is Linux only.
func RunOnPollLoop(t *testing.T) { t.Skip("no poll loop here") }

// The poll loop is Linux only: these are never called (OnPollLoop is
// false unless a Linux run set it).
func OSPipe(t testing.TB) (*os.File, *os.File) { panic("no poll loop here") }

func withOutputFD(t testing.TB, e *ucitest.Engine) core.Engine { panic("no poll loop here") }
