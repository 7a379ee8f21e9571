//go:build unix && !linux

package uci

import (
	"os"
	"os/exec"
	"syscall"
)

// No parent-death signal outside Linux: if polyproxy is killed with
// SIGKILL the engine sees EOF on stdin, which every UCI engine treats as
// quit.
func setParentDeathSignal(*syscall.SysProcAttr) {}

func startCommand(cmd *exec.Cmd) error { return cmd.Start() }

// GrowPipe does nothing here: only Linux lets a pipe be enlarged.
func GrowPipe(*os.File) {}

// outputPipe is os.Pipe: the proxy reads the engine's output from a
// goroutine here.
func outputPipe() (r, w *os.File, fd int, err error) {
	r, w, err = os.Pipe()
	return r, w, -1, err
}
