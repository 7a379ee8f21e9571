package version

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuild(t *testing.T) {
	rev := "4a9f8b7c1234567890abcdef1234567890abcdef"
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		name            string
		bi              *debug.BuildInfo
		version, commit string
		want            string
	}{
		{"no build info", nil, "", "",
			"polyproxy devel (commit unknown, " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ")"},
		{"local build without VCS", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, "", "",
			"polyproxy devel (commit unknown, go1.26.8 " + runtime.GOOS + "/" + runtime.GOARCH + ")"},
		{"checkout with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261126031800-4a9f8b7c1234+dirty"}, Settings: vcs}, "", "",
			"polyproxy 0.0.0-20261126031800-4a9f8b7c1234+dirty (commit 4a9f8b7c1234, modified, go1.26.8 " + runtime.GOOS + "/" + runtime.GOARCH + ")"},
		{"go install at a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}}, "", "",
			"polyproxy 1.2.3 (commit unknown, go1.26.8 " + runtime.GOOS + "/" + runtime.GOARCH + ")"},
		{"release ldflags win", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "1.2.4", "abcdef0123456789abcdef0123456789abcdef01",
			"polyproxy 1.2.4 (commit abcdef012345, go1.26.8 " + runtime.GOOS + "/" + runtime.GOARCH + ")"},
		{"snapshot version kept whole", nil, "1.2.4-SNAPSHOT-abcdef0", "abcdef0",
			"polyproxy 1.2.4-SNAPSHOT-abcdef0 (commit abcdef0, " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ")"},
	} {
		if got := fromBuild(c.bi, c.version, c.commit).String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestLdflags builds a program that prints Get() (testdata/printversion) with the release's -X flags
// and without them: the flags must reach the binary (a renamed variable or
// package would silently leave every release "devel").
func TestLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program; skipped with -short")
	}
	dir := t.TempDir()
	run := func(ldflags string) string {
		bin := filepath.Join(dir, "v")
		build := exec.Command("go", "build", "-o", bin, "-ldflags", ldflags, "./testdata/printversion")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		out, err := exec.Command(bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	pkg := "github.com/polyproxy/polyproxy/internal/version"
	got := run("-X " + pkg + ".Version=v9.8.7 -X " + pkg + ".Commit=0123456789abcdef0123456789abcdef01234567")
	if want := "polyproxy 9.8.7 (commit 0123456789ab, "; !strings.HasPrefix(got, want) {
		t.Errorf("with -X: %q, want it to start with %q", got, want)
	}
	if got := run(""); strings.Contains(got, "9.8.7") || !strings.HasPrefix(got, "polyproxy ") {
		t.Errorf("without -X: %q", got)
	}
}
