//go:build unix

package uci

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An engine started through a wrapper script: the script's grandchild
// (here a sleep) must die with it when we quit.
func TestQuitKillsWholeGroup(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "engine.sh")
	pidFile := filepath.Join(dir, "grandchild.pid")
	os.WriteFile(script, []byte("#!/bin/sh\nsleep 60 &\necho $! > "+pidFile+"\necho ready\nwait\n"), 0o755)
	p, err := StartProcess([]string{script}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	lr := NewLineReader(p.Stdout(), 0)
	if l, err := lr.ReadLine(); err != nil || string(l) != "ready" {
		t.Fatalf("got %q %v", l, err)
	}
	b, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	p.Quit(200 * time.Millisecond) // the script ignores quit
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("quit took %v", d)
	}
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d still alive", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A missing engine is said in words, not in fork/exec's or exec's
// ("executable file not found in $PATH"); a relative path is named in
// full, from the folder it was started in.
func TestStartProcessMissing(t *testing.T) {
	dir := t.TempDir()
	for prog, want := range map[string]string{
		"/nonexistent/engine":        "/nonexistent/engine: the folder /nonexistent does not exist",
		dir + "/stockfsh":            dir + "/stockfsh: no such file",
		"surely-no-such-engine-here": "surely-no-such-engine-here: no such program in any folder of PATH",
		"engines/sf":                 dir + "/engines/sf: the folder " + dir + "/engines does not exist",
	} {
		_, err := StartProcess([]string{prog}, dir, nil)
		if err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, exec.ErrNotFound) {
			t.Errorf("%s: %v\nwant %s", prog, err, want)
		}
	}
	if _, err := StartProcess(nil, "", nil); err == nil {
		t.Fatal("empty command accepted")
	}
}

func TestProcessDirAndWrite(t *testing.T) {
	dir := t.TempDir()
	p, err := StartProcess([]string{"/bin/sh", "-c", "read x; echo \"$x $(pwd)\""}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.WriteLine("hello")
	l, err := NewLineReader(p.Stdout(), 0).ReadLine()
	want := "hello " + dir
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		want = "hello " + real
	}
	if err != nil || string(l) != want {
		t.Fatalf("got %q %v want %q", l, err, want)
	}
	p.Quit(time.Second)
}

// An engine that never reads its input: a quit must not hang on the full
// pipe, nor on a write already blocked in it.
func TestQuitWithFullInputPipe(t *testing.T) {
	p, err := StartProcess([]string{"/bin/sh", "-c", "exec sleep 600"}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	blocked := make(chan error, 1)
	go func() { blocked <- p.WriteLine(strings.Repeat("x", 1<<20)) }()
	time.Sleep(50 * time.Millisecond)
	done := make(chan struct{})
	go func() { p.Quit(100 * time.Millisecond); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Quit hangs on a full pipe")
	}
	if err := <-blocked; err == nil {
		t.Fatal("the 1 MB write cannot have succeeded")
	}
}
