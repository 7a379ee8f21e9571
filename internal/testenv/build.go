package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// Module is polyproxy's module path: the root package is the polyproxy
// command.
const Module = "github.com/polyproxy/polyproxy"

// binaries are the programs built once per test process (Binary), in one
// temporary folder that Cleanup removes.
var binaries struct {
	sync.Mutex
	dir   string
	built map[string]*builtBinary
}

type builtBinary struct {
	once sync.Once
	path string
	err  error
}

// Binary builds the main package pkg (an import path) for goos ("" for
// this machine; "windows" is built for amd64, as the Windows releases are)
// once per test process and returns the program's path. The Go build
// cache makes a build another test package already made cheap.
func Binary(t testing.TB, goos, pkg string) string {
	t.Helper()
	binaries.Lock()
	if binaries.built == nil {
		binaries.built = map[string]*builtBinary{}
	}
	b := binaries.built[goos+" "+pkg]
	if b == nil {
		b = &builtBinary{}
		binaries.built[goos+" "+pkg] = b
	}
	if binaries.dir == "" {
		dir, err := os.MkdirTemp("", "polyproxy-test-")
		if err != nil {
			binaries.Unlock()
			t.Fatal(err)
		}
		binaries.dir = dir
	}
	dir := binaries.dir
	binaries.Unlock()
	b.once.Do(func() {
		name := path.Base(pkg)
		if pkg == Module {
			name = "polyproxy"
		}
		if goos == "windows" || goos == "" && runtime.GOOS == "windows" {
			name += ".exe"
		}
		b.path = filepath.Join(dir, goos, name)
		cmd := exec.Command("go", "build", "-o", b.path, pkg)
		if goos != "" {
			cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("GOOS=%s go build %s: %v\n%s", goos, pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// Polyproxy is the polyproxy binary, built once per test process.
func Polyproxy(t testing.TB) string { return Binary(t, "", Module) }

// FakeEngine is the fake UCI engine (package uci/ucitest, started by
// testdata/fakeengine; -h lists its flags), built once per test process.
func FakeEngine(t testing.TB) string { return Binary(t, "", FakeEnginePackage) }

// FakeEnginePackage is the fake engine's main package.
const FakeEnginePackage = Module + "/testdata/fakeengine"

// Cleanup removes what the test process left on the machine: the built
// programs and the Wine server. A test package that builds programs calls
// it from TestMain after m.Run.
func Cleanup() {
	StopWine()
	binaries.Lock()
	defer binaries.Unlock()
	if binaries.dir != "" {
		os.RemoveAll(binaries.dir)
		binaries.dir, binaries.built = "", nil
	}
}
