package formats_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// The formats stay behind package formats: no package of the module but
// formats, the whole-book jobs (book/build, which writes the Polyglot
// books it makes), the benchmarks and the test fixtures imports one format
// (the proxy, probe, explore, config and the commands reach them through
// formats and the format-neutral types of package book); and the table
// names every format's package once, so that a new format is one line.
func TestFormatsBehindFormats(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, testenv.Module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	formatPkgs := []string{testenv.Module + "/book/polyglot", testenv.Module + "/book/abk", testenv.Module + "/book/ctg"}
	allowed := []string{testenv.Module + "/book/formats", testenv.Module + "/book/build", testenv.Module + "/bench", testenv.Module + "/internal/fixture"}
	seen := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		for _, imp := range imports {
			if !slices.Contains(formatPkgs, imp) || slices.Contains(allowed, pkg) || slices.Contains(formatPkgs, pkg) {
				continue
			}
			t.Errorf("%s imports the format %s: reach it through book/formats", pkg, imp)
		}
		if pkg == testenv.Module+"/book/formats" {
			for _, f := range formatPkgs {
				if slices.Contains(imports, f) {
					seen++
				}
			}
		}
	}
	if seen != len(formatPkgs) || len(formats.All) != len(formatPkgs) {
		t.Errorf("formats imports %d of the %d format packages and lists %d formats", seen, len(formatPkgs), len(formats.All))
	}
}
