package cli

import (
	"flag"
	"fmt"

	"github.com/polyproxy/polyproxy/internal/version"
)

var versionCommand = command{
	name: "version", summary: "print which polyproxy this is (also -version, --version)",
	usage: `usage: polyproxy version
Prints which polyproxy this is on standard output, where a script or a bug report reads it:
"polyproxy 1.2.3 (commit 0123456789ab, go1.26.8 linux/amd64)".
`,
	new: func() options { return versionOptions{} },
}

type versionOptions struct{}

func (versionOptions) define(*flag.FlagSet)               {}
func (versionOptions) validate(*commandLine) error        { return nil }
func (versionOptions) files() (inputs, outputs []fileArg) { return nil, nil }
func (versionOptions) run(e *env) error {
	_, err := fmt.Fprintln(e.stdout, version.Get())
	return err
}
