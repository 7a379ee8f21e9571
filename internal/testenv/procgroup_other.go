//go:build !linux

package testenv

import "os/exec"

// OwnProcessGroup does nothing here: the tests that start a process group
// run on Linux only, and this lets them build everywhere.
func OwnProcessGroup(*exec.Cmd) {}

// KillProcessGroup kills cmd's process alone.
func KillProcessGroup(cmd *exec.Cmd) {
	cmd.Process.Kill()
}
