//go:build linux

package uci

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// Linux sends the parent-death signal when the OS thread that created the
// child exits, not the process; so every engine is started from one
// goroutine locked to its thread for the life of the process.
var spawnRequests = make(chan spawnRequest)

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

func init() {
	go func() {
		runtime.LockOSThread() // never unlocked: the thread must outlive every engine
		for req := range spawnRequests {
			req.done <- req.cmd.Start()
		}
	}()
}

func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

func startCommand(cmd *exec.Cmd) error {
	done := make(chan error, 1)
	spawnRequests <- spawnRequest{cmd, done}
	return <-done
}

// GrowPipe enlarges the pipe f to 1 MB (or as much as the system allows),
// if f is a pipe. An info flood then moves in chunks of up to 1 MB instead
// of 64 KB, with fewer wake-ups and blocked writes; that took the relay
// from 61-77% of cat's throughput to 83-94% (measured). Lines are not held back: a
// reader still gets whatever is in the pipe at once. Pipe pages are
// allocated only as data waits, so an idle pipe costs nothing.
func GrowPipe(f *os.File) {
	rc, err := f.SyscallConn() // not f.Fd(): that would make f blocking
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		for size := 1 << 20; size > 64<<10; size /= 2 {
			// EPERM above /proc/sys/fs/pipe-max-size or the user's quota;
			// EBADF or EINVAL when f is not a pipe: then nothing changes.
			if _, err := unix.FcntlInt(fd, unix.F_SETPIPE_SZ, size); err != unix.EPERM {
				return
			}
		}
	})
}

// PollableInput returns a reader of the same pipe as f that Go's poller
// waits on, so a read blocks no thread (with GOMAXPROCS=1 a blocked read
// would hold the only one until the runtime takes it back). f itself is left as it is: the pipe is opened
// again through /proc, a new open file with its own O_NONBLOCK, so whoever
// shares f's (the GUI's wrapper script, a shell) never sees it change. f
// is returned when it is not a pipe or cannot be opened again.
func PollableInput(f *os.File) *os.File {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	var path string
	rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		if unix.Fstat(int(fd), &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFIFO {
			path = "/proc/self/fd/" + strconv.Itoa(int(fd))
		}
	})
	if path == "" {
		return f
	}
	g, err := os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return f
	}
	return g
}
