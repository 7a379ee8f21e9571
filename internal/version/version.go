// Package version says which polyproxy a binary is: its version, the commit
// it was built from and the Go that built it. A release build sets Version
// and Commit with -ldflags -X (the tag and commit GoReleaser knows); any
// other build takes them from the build information the Go toolchain
// records (the module version of `go install ...@v1.2.3`, the VCS revision
// of a build in a checkout), so a binary never claims a version it is not.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by the release build:
//
//	-ldflags "-X github.com/polyproxy/polyproxy/internal/version.Version=1.2.3
//	          -X github.com/polyproxy/polyproxy/internal/version.Commit=<hash>"
var (
	Version string
	Commit  string
)

// Info is what a binary knows of itself.
type Info struct {
	Version   string // "1.2.3", a pseudo-version, or "devel" for a local build
	Commit    string // the full revision, "" when unknown
	Modified  bool   // built from a checkout with uncommitted changes
	GoVersion string // "go1.26.8"
	Platform  string // "linux/amd64"
}

// Get returns this binary's Info.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuild(bi, Version, Commit)
}

// fromBuild fills Info from the build information (nil when the binary has
// none) and the -X overrides, which win when set.
func fromBuild(bi *debug.BuildInfo, version, commit string) Info {
	info := Info{GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if bi.GoVersion != "" {
			info.GoVersion = bi.GoVersion
		}
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			info.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Commit = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		info.Version = version
	}
	if commit != "" {
		info.Commit = commit
		info.Modified = false // a release says what it was built from
	}
	// Tags are v1.2.3, GoReleaser's version 1.2.3: print one form.
	if len(info.Version) > 1 && info.Version[0] == 'v' && info.Version[1] >= '0' && info.Version[1] <= '9' {
		info.Version = info.Version[1:]
	}
	if info.Version == "" {
		info.Version = "devel"
	}
	return info
}

// String is the one line `polyproxy version` prints and the log starts with:
// "polyproxy 1.2.3 (commit 0123456789ab, go1.26.8 linux/amd64)".
func (i Info) String() string {
	commit := "unknown"
	if i.Commit != "" {
		commit = i.Commit
		if len(commit) > 12 && isHex(commit) {
			commit = commit[:12]
		}
		if i.Modified {
			commit += ", modified"
		}
	}
	return fmt.Sprintf("polyproxy %s (commit %s, %s %s)", i.Version, commit, i.GoVersion, i.Platform)
}

func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}
