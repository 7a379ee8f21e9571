package testenv

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Wine runs Windows programs for the tests, in a private Wine prefix made
// once per test binary (wineboot of a new prefix takes several seconds),
// so the tests never touch the user's ~/.wine. Its wineserver stays up
// between programs (each start then costs a few ms instead of seconds);
// StopWine ends it, and with it every Windows process left in the prefix.
type Wine struct {
	Loader string // the wine64 loader
	Server string // the matching wineserver
	Prefix string // WINEPREFIX
	env    []string
}

var (
	wineOnce   sync.Once
	wineShared *Wine
	wineErr    error
	wineSkip   string // why Wine cannot be used here
)

// NeedWine returns the shared Wine, making its prefix on first use, or
// skips the test (fails it under CI) when Wine or MinGW is missing.
// dllSource is the C source of the stand-in bcryptprimitives.dll that Go
// programs need under Wine 8; it is built into the prefix's system32.
func NeedWine(t testing.TB, dllSource string) *Wine {
	t.Helper()
	wineOnce.Do(func() { wineShared, wineSkip, wineErr = newWine(dllSource) })
	if wineSkip != "" {
		Skip(t, "%s", wineSkip)
	}
	if wineErr != nil {
		t.Fatalf("wine: %v", wineErr)
	}
	return wineShared
}

// StopWine ends the shared prefix's wineserver (killing any Windows
// process still running in it), waits for it and removes the prefix. A
// TestMain calls it after the tests; without a prefix it does nothing.
func StopWine() {
	w := wineShared
	if w == nil {
		return
	}
	wineShared = nil
	w.stop()
	os.RemoveAll(w.Prefix)
}

func lookWine() (loader, server string) {
	if p, err := exec.LookPath("wine64"); err == nil {
		loader = p
	} else if _, err := os.Stat("/usr/lib/wine/wine64"); err == nil {
		loader = "/usr/lib/wine/wine64" // Debian's wine64 package
	} else if p, err := exec.LookPath("wine"); err == nil {
		loader = p
	}
	if p, err := exec.LookPath("wineserver"); err == nil {
		server = p
	} else if p := filepath.Join(filepath.Dir(loader), "wineserver"); loader != "" {
		if _, err := os.Stat(p); err == nil {
			server = p
		}
	}
	return loader, server
}

// MinGWCompiler is the C cross-compiler that builds the stand-in DLL.
const MinGWCompiler = "x86_64-w64-mingw32-gcc"

func newWine(dllSource string) (*Wine, string, error) {
	loader, server := lookWine()
	if loader == "" || server == "" {
		return nil, "wine64 or wineserver not found (apt-get install wine wine64, or scripts/setup.sh)", nil
	}
	gcc, err := exec.LookPath(MinGWCompiler)
	if err != nil {
		return nil, MinGWCompiler + " not found (apt-get install gcc-mingw-w64-x86-64, or scripts/setup.sh)", nil
	}
	prefix, err := os.MkdirTemp("", "polyproxy-wine-")
	if err != nil {
		return nil, "", err
	}
	w := &Wine{Loader: loader, Server: server, Prefix: prefix}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "WINEPREFIX", "WINEDEBUG", "WINEDLLOVERRIDES", "WINESERVER", "DISPLAY", "WAYLAND_DISPLAY",
			"LANG", "LC_ALL", "LC_CTYPE":
			continue
		}
		w.env = append(w.env, kv)
	}
	w.env = append(w.env,
		"WINEPREFIX="+prefix,
		"WINESERVER="+server,
		"WINEDEBUG=-all",
		// Wine maps Unix file names through the locale's character set:
		// under C/POSIX (CI) names outside ASCII come out mangled.
		"LC_ALL=C.UTF-8",
		// No Mono or Gecko installer, no desktop menu entries.
		"WINEDLLOVERRIDES=mscoree,mshtml=;winemenubuilder.exe=d",
	)
	fail := func(err error) (*Wine, string, error) {
		w.stop()
		os.RemoveAll(prefix)
		return nil, "", err
	}
	// The server outlives each program, and ends by itself a minute
	// after the last one should a test binary die before StopWine.
	if out, err := runToFile(w.serverCommand("-p60")); err != nil {
		return fail(fmt.Errorf("wineserver -p60: %v\n%s", err, out))
	}
	if out, err := runToFile(w.Command("wineboot", "--init")); err != nil {
		return fail(fmt.Errorf("wineboot --init in %s: %v\n%s", prefix, err, out))
	}
	system32 := filepath.Join(prefix, "drive_c", "windows", "system32")
	dll := filepath.Join(system32, "bcryptprimitives.dll")
	if out, err := exec.Command(gcc, "-shared", "-O2", "-o", dll, dllSource, "-ladvapi32").CombinedOutput(); err != nil {
		return fail(fmt.Errorf("building the stand-in %s: %v\n%s", dll, err, out))
	}
	return w, "", nil
}

// runToFile runs cmd with its output going to a file, not a pipe: the
// wineserver and the services wineboot starts stay running with it open,
// and a pipe would never reach its end. It returns the output.
func runToFile(cmd *exec.Cmd) ([]byte, error) {
	f, err := os.CreateTemp("", "polyproxy-wine-out-")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	cmd.Stdout, cmd.Stderr = f, f
	err = cmd.Run()
	out, _ := os.ReadFile(f.Name())
	return out, err
}

func (w *Wine) serverCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(w.Server, args...)
	cmd.Env = w.env
	return cmd
}

// stop kills the prefix's processes and its wineserver and waits for the
// server to end (at most 10 s).
func (w *Wine) stop() {
	w.serverCommand("-k").Run()
	wait := w.serverCommand("-w")
	if wait.Start() != nil {
		return
	}
	done := make(chan struct{})
	go func() { wait.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		wait.Process.Kill()
	}
}

// Env is the environment of the prefix's programs, with extra added.
func (w *Wine) Env(extra ...string) []string {
	return append(append([]string(nil), w.env...), extra...)
}

// Command runs the Windows program exe (a Unix path, or a program of the
// prefix such as "winedbg") with args under Wine, in the prefix's
// environment; the caller sets Dir and adds to Env as needed.
func (w *Wine) Command(exe string, args ...string) *exec.Cmd {
	cmd := exec.Command(w.Loader, append([]string{exe}, args...)...)
	cmd.Env = w.Env()
	return cmd
}

// WindowsPath is the path Windows programs under Wine see for an absolute
// Unix path: Wine's drive Z: is the Unix root.
func WindowsPath(unixPath string) string {
	return `Z:` + strings.ReplaceAll(filepath.Clean(unixPath), "/", `\`)
}

// WineProcess is a Windows process running in the prefix.
type WineProcess struct {
	Pid  int // the Windows process id
	Name string
}

// winedbg's "info proc": " 000001c8 4        'fakeengine.exe'", children
// indented under their parent with "\_ ", the debugger itself marked "=".
var procLine = regexp.MustCompile(`^[ =]([0-9a-f]{8}) +[0-9]+ +(?:\\_ +)*'(.*)'$`)

// Processes lists the Windows processes running in the prefix (from
// winedbg, the listing Wine 8 has: its tasklist prints nothing), winedbg
// itself and the start.exe that runs it left out.
func (w *Wine) Processes() ([]WineProcess, error) {
	out, err := w.Command("winedbg", "--command", "info proc").Output()
	if err != nil {
		return nil, fmt.Errorf("winedbg --command \"info proc\": %v", err)
	}
	var ps []WineProcess
	sc := bufio.NewScanner(bytes.NewReader(out))
	header := false
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		m := procLine.FindStringSubmatch(line)
		if m == nil {
			header = header || strings.Contains(line, "executable")
			continue
		}
		if line[0] == '=' || m[2] == "start.exe" {
			continue
		}
		pid, _ := strconv.ParseInt(m[1], 16, 64)
		ps = append(ps, WineProcess{Pid: int(pid), Name: m[2]})
	}
	if !header {
		return nil, fmt.Errorf("winedbg printed no process list: %q", out)
	}
	return ps, nil
}
