package testenv

import (
	"os/exec"
	"syscall"
)

// OwnProcessGroup has cmd, once started, lead a process group of its own,
// so KillProcessGroup ends it with all it started (a GUI under xvfb-run
// and its adapters), and killed should the test die first.
func OwnProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// KillProcessGroup kills the group cmd leads (OwnProcessGroup).
func KillProcessGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
