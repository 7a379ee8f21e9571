package cli

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// helperEnv makes the test binary run polyproxy's command line (its
// arguments) instead of the tests, stopping each tool where it would put
// its outputs in place: the signal tests stop it there.
const helperEnv = "POLYPROXY_CLI_PAUSED_HELPER"

// unpaused, as helperEnv's value, runs the command line without a pause.
const unpaused = "unpaused"

// pausedMark is what the helper prints on stderr once paused.
const pausedMark = "paused before putting the outputs in place"

// TestMain runs the tests from the repository's root, where the commands'
// tests name their inputs as a user at the root would (testdata/...), and
// removes the programs they built (testenv.Polyproxy).
func TestMain(m *testing.M) {
	if how := os.Getenv(helperEnv); how != "" {
		if how != unpaused {
			pauseBeforeFinish = func() {
				fmt.Fprintln(os.Stderr, pausedMark)
				select {}
			}
		}
		haltGrace = 50 * time.Millisecond
		os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	testenv.Cleanup()
	os.Exit(code)
}
