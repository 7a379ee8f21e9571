package cli

import (
	"fmt"
	"os"
	"testing"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// TestMain runs the tests from the repository's root, where the commands'
// tests name their inputs as a user at the root would (testdata/...), and
// removes the programs they built (testenv.Polyproxy).
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}
