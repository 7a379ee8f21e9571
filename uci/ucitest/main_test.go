package ucitest

import (
	"os"
	"testing"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestMain removes the programs the tests built (testenv.FakeEngine).
func TestMain(m *testing.M) {
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}
