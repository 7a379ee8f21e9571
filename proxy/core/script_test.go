package core_test

import (
	"testing"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci/ucitest"
)

// The core's tests run it without either of the proxy's fronts: the
// harness's Script front gives it the commands a script of UCI lines
// asks for, and writes down what it hands a front.

// start runs the core for cfg and obs behind the Script front.
func start(t testing.TB, cfg *config.Config, setup func(n int, s *ucitest.Settings), obs core.GameObserver, adjust ...func(*core.Options)) *proxytest.Harness {
	return proxytest.Start(t, cfg, proxytest.Script, setup, obs, adjust...)
}

// Every test of the package again, on the poll loop.
func TestSuiteOnPollLoop(t *testing.T) { proxytest.RunOnPollLoop(t) }
