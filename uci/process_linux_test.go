//go:build linux

package uci

import (
	"io"
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
// in big chunks (the throughput figure in the README depends on it).
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

// A GUI's pipe, as a C program hands it over: blocking. PollableInput
// reads the same pipe through the poller and leaves the GUI's open file
// blocking, as others sharing it expect.
func TestPollableInputReopensPipe(t *testing.T) {
	var fds [2]int
	if err := unix.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	guiEnd := os.NewFile(uintptr(fds[0]), "stdin") // blocking: not pollable
	w := os.NewFile(uintptr(fds[1]), "gui")
	defer guiEnd.Close()
	defer w.Close()
	in := PollableInput(guiEnd)
	if in == guiEnd {
		t.Fatal("a pipe was not reopened")
	}
	defer in.Close()
	if err := in.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatalf("reopened pipe is not pollable: %v", err)
	}
	buf := make([]byte, 64)
	if _, err := in.Read(buf); !os.IsTimeout(err) {
		t.Fatalf("read of an empty pipe: %v, want a timeout", err)
	}
	in.SetReadDeadline(time.Time{})
	w.WriteString("isready\n")
	n, err := in.Read(buf)
	if err != nil || string(buf[:n]) != "isready\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	if flags, err := unix.FcntlInt(uintptr(fds[0]), unix.F_GETFL, 0); err != nil || flags&unix.O_NONBLOCK != 0 {
		t.Fatalf("the GUI's open file changed: flags %#x, %v", flags, err)
	}
	w.Close()
	if _, err := in.Read(buf); err != io.EOF {
		t.Fatalf("after the GUI closed its end: %v, want EOF", err)
	}

	f, err := os.Create(filepath.Join(t.TempDir(), "plain"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if PollableInput(f) != f {
		t.Fatal("a regular file was replaced")
	}
}
