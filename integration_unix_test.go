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

	"github.com/polyproxy/polyproxy/internal/fixture"
	"github.com/polyproxy/polyproxy/internal/testenv"
)

// The proxy's processes on Unix: the engine's whole process group ended
// at quit, at a crash and when the proxy is killed, and the loop the
// binary runs on Linux. The helpers check processes with Unix signals and
// Linux's /proc: the tests that use them run on Linux.

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

// An engine that crashes while a process it started keeps its output
// open: the death is still seen (the group is ended), not waited for.
func TestEngineDeathSeenThroughLingeringChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses a shell wrapper and process groups")
	}
	fake := testenv.FakeEngine(t)
	script := filepath.Join(t.TempDir(), "engine.sh")
	os.WriteFile(script, []byte("#!/bin/sh\nsleep 600 &\nexec "+fake+"\n"), 0o755)
	p := startProxy(t, []string{"FAKEENGINE_CRASH_ON_GO=1"}, "-noini", "-ec", script)
	p.send("uci", "position startpos", "go wtime 1000 btime 1000")
	// Both the engine and its restart crash on their first go: that
	// search gets bestmove 0000, and a third engine is started.
	got := p.until("bestmove", 10*time.Second)
	if got[len(got)-1] != "bestmove 0000" {
		t.Fatalf("got %q", got)
	}
	p.waitStderr(10*time.Second, "the engine died (", "died twice")
	p.send("isready")
	p.until("readyok", 10*time.Second)
	p.send("quit")
	if code := p.waitExit(10 * time.Second); code != 0 {
		t.Fatalf("exit code %d; stderr %q", code, p.stderr.String())
	}
}

// The built binary, given a GUI's pipe as GUIs hand it over (blocking),
// runs the poll loop on Linux, and every integration test with it.
func TestBinaryRunsPollLoop(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the poll loop is Linux's")
	}
	fake := testenv.FakeEngine(t)
	log := filepath.Join(t.TempDir(), "proxy.log")
	p := startProxy(t, nil, "-noini", "-ec", fake, "-log", "true", "-lf", log)
	p.send("uci")
	p.until("uciok", 10*time.Second)
	p.send("isready", "position startpos", "go depth 1")
	p.until("readyok", 10*time.Second)
	p.until("bestmove", 10*time.Second)
	p.send("quit")
	if code := p.waitExit(10 * time.Second); code != 0 {
		t.Fatalf("exit %d; stderr %s", code, p.stderr.String())
	}
	if l := string(fixture.ReadFile(t, log)); !strings.Contains(l, "loop: poll(2)") {
		t.Fatalf("not the poll loop; log:\n%s", l)
	}
}

func mustGlob(t *testing.T, pattern string) []string {
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
