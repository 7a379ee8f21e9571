package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/polyproxy/polyproxy/internal/testenv"
)

// openPTY is a new pseudo-terminal: its controller end, and the terminal
// a program is given.
func openPTY(t *testing.T) (controller, terminal *os.File) {
	t.Helper()
	controller, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { controller.Close() })
	fd := int(controller.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	terminal, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { terminal.Close() })
	return controller, terminal
}

// Run from a terminal, polyproxy that cannot start says why on stderr
// and exits at once, as before: a line typed there is not taken for a
// GUI's (no id on stdout).
func TestStartFailureAtATerminal(t *testing.T) {
	controller, terminal := openPTY(t)
	if _, err := controller.WriteString("uci\n"); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "nosuch.ini")
	cmd := exec.Command(testenv.Polyproxy(t), missing)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = terminal, &stdout, &stderr
	err := cmd.Run()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 2 {
		t.Fatalf("%v; stderr %q", err, stderr.String())
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "polyproxy: ini file "+missing+" not found") {
		t.Errorf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}
