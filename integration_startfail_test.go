package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// When polyproxy cannot start, the GUI that started it is told why in its
// own protocol, before polyproxy exits non-zero: a UCI GUI's uci gets an
// id and info strings (Arena's and Cute Chess's engine windows show
// them), a CECP GUI gets tellusererror (XBoard pops it up); stderr has it
// too (python-chess logs an engine's stderr). Before, the GUI saw its
// engine die without a word.

// gui is what a GUI sends first, by protocol.
var gui = map[string][]string{"uci": {"uci"}, "cecp": {"xboard", "protover 2"}}

// goWords are Go's words that must not reach a user.
var goWords = regexp.MustCompile(`\b(stat|open|fork/exec|lstat)\b |\.tmp-[0-9]|executable file not found`)

// startFailure runs the binary as a GUI does, in dir, sends the GUI's
// first lines and returns what it wrote on stdout, stderr, and its exit
// code.
func startFailure(t *testing.T, dir, protocol string, args ...string) (stdout []string, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testenv.Polyproxy(t), args...)
	cmd.Dir = dir
	p := startCmd(t, cmd)
	p.send(gui[protocol]...)
	code = p.waitExit(time.Minute)
	for l := range p.lines {
		stdout = append(stdout, l)
	}
	return stdout, p.stderr.String(), code
}

func TestStartFailureToldToTheGUI(t *testing.T) {
	dir := t.TempDir()
	fake := testenv.FakeEngine(t)
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	missingIni := filepath.Join(dir, "nosuch.ini")
	noEngine := write("noengine.ini", "[PolyGlot]\nEngineCommand = ./stockfsh\n")
	badIni := write("bad.ini", "[Polyglott]\nEngineCommand = "+fake+"\n")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		warnings []string // told before the error
		why      string   // the error
	}{
		{"missing ini", []string{missingIni}, 2, nil,
			"ini file " + missingIni + " not found (give an ini file as the first argument, or -noini -ec ENGINE)"},
		{"missing engine", []string{noEngine}, 1, nil,
			"cannot start the engine: " + filepath.Join(dir, "stockfsh") + ": no such file; check EngineCommand, set at " + noEngine + ":2"},
		{"failing engine", []string{"-noini", "-ec", fake + " -exit-on uci"}, 1, nil,
			`the engine "` + fake + ` -exit-on uci" ended before finishing the uci handshake (exit status 0): is it a UCI engine? Check EngineCommand, set by -ec on the command line`},
		{"bad ini", []string{badIni}, 2,
			[]string{badIni + ":1: section [Polyglott] ignored (polyproxy reads [PolyGlot] and [Engine]); did you mean [PolyGlot]?"},
			badIni + ":2: EngineCommand is under [Polyglott], a section polyproxy does not read; did you mean [PolyGlot]?"},
		{"neither command nor ini", []string{"prob"}, 2, nil,
			`unknown command "prob" (did you mean probe?), and no ini file ` + filepath.Join(dir, "prob") + " is there"},
	} {
		for _, protocol := range []string{"uci", "cecp"} {
			t.Run(tc.name+"/"+protocol, func(t *testing.T) {
				out, stderr, code := startFailure(t, dir, protocol, tc.args...)
				if code != tc.code {
					t.Errorf("exit %d, want %d", code, tc.code)
				}
				var want []string
				switch protocol {
				case "uci":
					want = append(want, "id name polyproxy")
					for _, w := range tc.warnings {
						want = append(want, "info string warning: "+w)
					}
					want = append(want, "info string error: "+tc.why)
				case "cecp":
					// The engine may end before or after the GUI's
					// protover, which an engine still starting
					// answers with done=0.
					out = slices.DeleteFunc(out, func(l string) bool { return l == "feature done=0" })
					for _, w := range tc.warnings {
						want = append(want, "# warning: "+w)
					}
					want = append(want, "tellusererror polyproxy: "+tc.why)
				}
				if !slices.Equal(out, want) {
					t.Errorf("the GUI got\n%s\nwant\n%s", strings.Join(out, "\n"), strings.Join(want, "\n"))
				}
				for _, w := range tc.warnings {
					if !strings.Contains(stderr, "polyproxy: warning: "+w+"\n") {
						t.Errorf("stderr lacks the warning %q:\n%s", w, stderr)
					}
				}
				if !strings.Contains(stderr, "polyproxy: "+tc.why+"\n") {
					t.Errorf("stderr lacks %q:\n%s", tc.why, stderr)
				}
				for _, l := range append(out, strings.Split(stderr, "\n")...) {
					if m := goWords.FindString(l); m != "" {
						t.Errorf("Go's words %q in %q", m, l)
					}
					paths := regexp.MustCompile(regexp.QuoteMeta(dir)+`[^ :;,)"]*`).FindAllString(l, -1)
					slices.Sort(paths)
					if len(slices.Compact(paths)) < len(paths) {
						t.Errorf("a path given twice: %q", l)
					}
				}
			})
		}
	}
}

// A key or section the ini mistypes is named to the GUI, with the name
// it meant, while polyproxy runs: a UCI GUI after uciok, a CECP GUI as a
// comment. (Only stderr had it, and the GUI was told that a default book
// the user never named was not used.)
func TestIniTyposToldToTheGUI(t *testing.T) {
	dir := t.TempDir()
	ini := filepath.Join(dir, "sf.ini")
	text := "[PolyGlot]\nEngineCommand = " + testenv.FakeEngine(t) + "\nBookFlie = book.bin\n[Polyglott]\nBook = true\n"
	if err := os.WriteFile(ini, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	warnings := []string{
		"warning: " + ini + ":3: [PolyGlot] BookFlie: unknown key, ignored; did you mean BookFile?",
		"warning: " + ini + ":4: section [Polyglott] ignored (polyproxy reads [PolyGlot] and [Engine]); did you mean [PolyGlot]?",
	}
	for protocol, prefix := range map[string]string{"uci": "info string ", "cecp": "# "} {
		p := startProxy(t, nil, ini)
		p.send(gui[protocol]...)
		p.send("ping 1", "isready", "quit")
		var told []string
		for l := range p.lines {
			if s, ok := strings.CutPrefix(l, prefix); ok {
				told = append(told, s)
			}
		}
		if code := p.waitExit(time.Minute); code != 0 || !slices.Equal(told, warnings) {
			t.Errorf("%s: exit %d, told\n%s\nwant\n%s", protocol, code, strings.Join(told, "\n"), strings.Join(warnings, "\n"))
		}
	}
}

// A GUI that never speaks does not keep polyproxy that cannot start: it
// ends after a few seconds, having told stderr only.
func TestStartFailureGUISilent(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nosuch.ini")
	p := startProxy(t, nil, missing)
	if code := p.waitExit(time.Minute); code != 2 {
		t.Errorf("exit %d", code)
	}
	if l, ok := <-p.lines; ok {
		t.Errorf("stdout got %q", l)
	}
	if !strings.Contains(p.stderr.String(), "ini file "+missing+" not found") {
		t.Errorf("stderr %q", p.stderr.String())
	}
}
