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

// PollableInput returns f: reopening a pipe through /proc is Linux only.
func PollableInput(f *os.File) *os.File { return f }
