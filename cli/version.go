package cli

import (
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/internal/version"
)

// runVersion prints which polyproxy this is on stdout, where a script or a
// bug report reads it: "polyproxy 1.2.3 (commit 0123456789ab, go1.26.8
// linux/amd64)". "polyproxy -version" and "--version" run it too.
func runVersion(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return usageErrorf("version takes no arguments, got %q", args[0])
	}
	_, err := fmt.Fprintln(stdout, version.Get())
	return err
}
