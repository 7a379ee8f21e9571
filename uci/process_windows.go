//go:build windows

package uci

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

// On Windows only the engine itself is killed; if polyproxy dies the engine
// sees EOF on stdin and quits.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

func startCommand(cmd *exec.Cmd) error { return cmd.Start() }

// GrowPipe does nothing here: only Linux lets a pipe be enlarged.
func GrowPipe(*os.File) {}

// outputPipe is os.Pipe: the proxy reads the engine's output from a
// goroutine here.
func outputPipe() (r, w *os.File, fd int, err error) {
	r, w, err = os.Pipe()
	return r, w, -1, err
}
