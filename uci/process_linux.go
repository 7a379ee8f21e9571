//go:build linux

package uci

import (
	"os/exec"
	"runtime"
	"syscall"
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
