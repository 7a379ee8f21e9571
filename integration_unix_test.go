//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// Process checks for the integration tests (Linux /proc, Unix signals).

func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// A zombie has died already; only its parent has not looked yet.
	f := strings.Fields(string(b))
	return len(f) < 3 || f[2] != "Z"
}

func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still alive", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if pid, err2 := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && err2 == nil {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An engine that ignores quit, started through a wrapper script that
// leaves a grandchild: quit still ends all of them within about a second.
func TestQuitKillsEngineGroup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process checks use /proc")
	}
	fake := testenv.FakeEngine(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	script := filepath.Join(dir, "engine.sh")
	os.WriteFile(script, []byte("#!/bin/sh\nexec "+fake+"\n"), 0o755)
	p := startProxy(t, []string{"FAKEENGINE_IGNORE_QUIT=1", "FAKEENGINE_CHILD_PID=" + pidFile}, "-noini", "-ec", script)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	child := readPid(t, pidFile)
	start := time.Now()
	p.send("quit")
	if code := p.waitExit(5 * time.Second); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("quit took %v", d)
	}
	waitGone(t, child, "the engine's child")
}

// polyproxy killed outright: the engine must not live on.
func TestKilledProxyTakesEngineAlong(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("parent-death signal is Linux only")
	}
	// An engine that ignores EOF on stdin: only the signal can end it.
	script := filepath.Join(t.TempDir(), "sleepy.sh")
	os.WriteFile(script, []byte("#!/bin/sh\nread x\necho 'id name Sleepy'\necho uciok\nexec sleep 600 </dev/null\n"), 0o755)
	p := startProxy(t, nil, "-noini", "-ec", script)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", p.cmd.Process.Pid, p.cmd.Process.Pid))
	var engine int
	for _, task := range mustGlob(t, fmt.Sprintf("/proc/%d/task/*/children", p.cmd.Process.Pid)) {
		if b, err := os.ReadFile(task); err == nil {
			if f := strings.Fields(string(b)); len(f) > 0 {
				engine, _ = strconv.Atoi(f[0])
			}
		}
	}
	if engine == 0 {
		t.Fatalf("engine pid not found (%q %v)", b, err)
	}
	p.cmd.Process.Kill()
	p.waitExit(5 * time.Second)
	waitGone(t, engine, "the engine")
}

func mustGlob(t *testing.T, pattern string) []string {
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
