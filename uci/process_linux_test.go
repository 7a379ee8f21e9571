//go:build linux

package uci

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func pipeSize(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var size int
	var ferr error
	rc.Control(func(fd uintptr) { size, ferr = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0) })
	if ferr != nil {
		t.Fatal(ferr)
	}
	return size
}

// The engine's output pipe is enlarged, so an info flood reaches the relay
// in big chunks (the throughput figure in docs/benchmarks.md depends on it).
func TestEngineOutputPipeIsEnlarged(t *testing.T) {
	p, err := StartProcess([]string{"cat"}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Quit(0)
	if got := pipeSize(t, p.stdout); got <= 64<<10 {
		t.Fatalf("engine output pipe is %d bytes; want more than the 64 KB default", got)
	}
}

func TestGrowPipeLeavesOtherFilesAlone(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	GrowPipe(w)
	if got := pipeSize(t, r); got <= 64<<10 {
		t.Fatalf("pipe is %d bytes after GrowPipe", got)
	}
	// Still pollable (SyscallConn, not Fd, which would make it blocking):
	// the engine's stdin write deadline depends on that.
	if err := w.SetWriteDeadline(time.Now().Add(time.Second)); err != nil {
		t.Fatalf("pipe no longer takes a deadline: %v", err)
	}
	if _, err := w.Write([]byte("x\n")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	GrowPipe(f) // not a pipe: nothing happens, nothing fails
	if _, err := f.WriteString("still writable\n"); err != nil {
		t.Fatal(err)
	}
}

// The engine's output is a blocking pipe outside Go's poller, for the
// proxy's poll loop to wait on and read itself.
func TestEngineOutputIsPollableDescriptor(t *testing.T) {
	p, err := StartProcess([]string{"sh", "-c", "echo hello"}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Quit(0)
	fd, ok := p.StdoutFD()
	if !ok {
		t.Fatal("no descriptor for the engine's output")
	}
	if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); err != nil || flags&unix.O_NONBLOCK != 0 {
		t.Fatalf("engine output flags %#x, %v: want blocking", flags, err)
	}
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, 5000); n != 1 || err != nil {
		t.Fatalf("poll: %d, %v", n, err)
	}
	buf := make([]byte, 64)
	if n, err := unix.Read(fd, buf); err != nil || string(buf[:n]) != "hello\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}
