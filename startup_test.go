package main

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// startUpPackages are our packages that may run code before main: the
// ones every run of the proxy reads at once (its settings table, the
// formats, the commands). Anything else a package needs is built on
// first use (internal/lazy) or written as data: every run of every
// command, each proxy of a tournament, pays for start-up work.
var startUpPackages = []string{"book/formats", "cli", "config"}

// TestOnlyWhatEveryRunNeedsIsDoneAtStartUp runs the binary with the
// runtime's initialisation trace and requires no other package of ours
// to do work before main.
func TestOnlyWhatEveryRunNeedsIsDoneAtStartUp(t *testing.T) {
	cmd := exec.Command(testenv.Polyproxy(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("polyproxy version: %v\n%s", err, out)
	}
	prefix := "init " + testenv.Module + "/"
	traced := 0
	for line := range strings.SplitSeq(string(out), "\n") {
		if !strings.HasPrefix(line, "init ") {
			continue
		}
		traced++
		pkg, _, _ := strings.Cut(strings.TrimPrefix(line, prefix), " ")
		if strings.HasPrefix(line, prefix) && !slices.Contains(startUpPackages, pkg) {
			t.Errorf("package %s does work at start-up, in every run: build it on first use (internal/lazy) or write it as data\n%s", pkg, line)
		}
	}
	if traced == 0 {
		t.Fatalf("no initialisation traced: GODEBUG=inittrace=1 printed nothing\n%s", out)
	}
}
