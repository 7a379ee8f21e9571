package cli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// The import graph keeps the commands on top: the root package (main.go)
// imports only cli, and no package of the module imports cli or the root,
// so the commands can change without touching what they stand on.
func TestCommandsAreOnTop(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const cliPath = testenv.Module + "/cli"
	packages := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		packages++
		for _, imp := range imports {
			if !strings.HasPrefix(imp, testenv.Module) {
				continue
			}
			switch {
			case pkg == testenv.Module && imp != cliPath:
				t.Errorf("main.go imports %s: the root only starts package cli", imp)
			case imp == testenv.Module:
				t.Errorf("%s imports the root package", pkg)
			case imp == cliPath && pkg != testenv.Module:
				t.Errorf("%s imports package cli: only main.go may", pkg)
			}
		}
	}
	if packages < 10 {
		t.Fatalf("go list named only %d packages:\n%s", packages, out)
	}
}
