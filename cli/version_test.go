package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/version"
)

// "polyproxy version", -version and --version print the one version line
// on stdout and exit 0; help starts with it; an argument after it is a
// usage error, not a file to read.
func TestVersionCommand(t *testing.T) {
	want := version.Get().String() + "\n"
	if !strings.HasPrefix(want, "polyproxy ") || !strings.Contains(want, "(commit ") {
		t.Fatalf("version line %q", want)
	}
	for _, arg := range []string{"version", "-version", "--version"} {
		var out, errb bytes.Buffer
		if code := Run([]string{arg}, strings.NewReader(""), &out, &errb); code != 0 || out.String() != want || errb.Len() != 0 {
			t.Errorf("polyproxy %s: exit %d, stdout %q, stderr %q; want 0, %q, nothing", arg, code, out.String(), errb.String(), want)
		}
	}
	var out, errb bytes.Buffer
	if code := Run([]string{"version", "extra"}, strings.NewReader(""), &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "version takes no argument") {
		t.Errorf("polyproxy version extra: exit %d, stdout %q, stderr %q; want 2 and a usage error", code, out.String(), errb.String())
	}
	out.Reset()
	if code := Run([]string{"help"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.HasPrefix(out.String(), want) {
		t.Errorf("polyproxy help: exit %d, output %q; want it to start with %q", code, out.String(), want)
	}
}
