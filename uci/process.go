package uci

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/polyproxy/polyproxy/internal/plainerr"
)

// Process is the engine child: started in its own process group with stdin
// and stdout piped and its stderr shared with ours.
type Process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	// stdoutFD is stdout's descriptor when it is a blocking pipe outside
	// Go's poller, for a caller that polls and reads it itself; else -1.
	stdoutFD int

	mu sync.Mutex // guards writes to stdin
	// quitBy is Quit's deadline in Unix nanoseconds, 0 before Quit: a write
	// that starts or is already blocked when Quit begins gives up by then.
	quitBy  atomic.Int64
	exited  chan struct{}
	waitErr error
}

// StartProcess starts argv[0] with argv[1:] in dir. stderr receives the
// engine's stderr (nil: discarded).
func StartProcess(argv []string, dir string, stderr io.Writer) (*Process, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("engine: no command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stderr = stderr
	setProcessGroup(cmd)
	// Our own pipes rather than StdinPipe/StdoutPipe: Wait closes those as
	// soon as the engine exits, which can lose its last lines; ours is read
	// to its end (EOF once every process holding it is gone), and writes to
	// the engine can be given a deadline (Quit).
	stdinR, stdin, err := inputPipe()
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", argv[0], err)
	}
	stdout, stdoutW, stdoutFD, err := outputPipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		return nil, fmt.Errorf("engine %s: %w", argv[0], err)
	}
	cmd.Stdin, cmd.Stdout = stdinR, stdoutW
	GrowPipe(stdout) // an info flood reaches us in big chunks
	err = startCommand(cmd)
	stdinR.Close() // the engine has its copies
	stdoutW.Close()
	if err != nil {
		stdin.Close()
		stdout.Close()
		// A relative path is the folder's it was started in (a name
		// alone is looked for in PATH): named in full.
		name := argv[0]
		if dir != "" && !filepath.IsAbs(name) && filepath.Base(name) != name {
			name = filepath.Join(dir, name)
		}
		return nil, plainerr.Wrap(plainerr.Program(name, err), err)
	}
	p := &Process{cmd: cmd, stdin: stdin, stdout: stdout, stdoutFD: stdoutFD, exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Stdout is the engine's output.
func (p *Process) Stdout() io.Reader { return p.stdout }

// StdoutFD is the descriptor of the engine's output, for a caller that
// waits on it with poll(2) and reads it itself (Linux: a blocking pipe
// outside Go's poller; read it once per readiness). ok is false where
// there is none. It stays open until Quit.
func (p *Process) StdoutFD() (fd int, ok bool) { return p.stdoutFD, p.stdoutFD >= 0 }

// WriteTimeout bounds one write to the engine: a healthy engine reads its
// input at once, so a write still blocked after this long (the pipe full)
// means the engine hangs. The error wraps os.ErrDeadlineExceeded.
const WriteTimeout = 10 * time.Second

// WriteLine sends one line with a single write, so the engine never waits
// for a buffer to fill.
func (p *Process) WriteLine(s string) error {
	return p.writeLine(s, time.Now().Add(WriteTimeout))
}

func (p *Process) writeLine(s string, deadline time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	buf := make([]byte, 0, len(s)+1)
	buf = append(append(buf, s...), '\n')
	p.stdin.SetWriteDeadline(deadline)
	// Read Quit's deadline after setting ours: either Quit stored it first
	// and we apply it here, or Quit sets it on the file after us.
	if q := p.quitBy.Load(); q != 0 && q < deadline.UnixNano() {
		p.stdin.SetWriteDeadline(time.Unix(0, q))
	}
	_, err := p.stdin.Write(buf)
	return err
}

// Exited is closed when the engine process has ended.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitErr is the engine's exit status; valid once Exited is closed.
func (p *Process) ExitErr() error {
	<-p.exited
	return p.waitErr
}

// Pid is the engine's process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Kill ends the engine's whole process group at once: an engine started
// through a wrapper script leaves no grandchild behind.
func (p *Process) Kill() {
	killGroup(p.cmd)
}

// Quit sends "quit", waits up to grace for the engine to leave, then kills
// its process group; it returns once the process is gone.
func (p *Process) Quit(grace time.Duration) {
	// An engine that stopped reading must not hang us on a full pipe; a
	// write already blocked gives up at this deadline too.
	deadline := time.Now().Add(grace)
	p.quitBy.Store(deadline.UnixNano())
	p.stdin.SetWriteDeadline(deadline)
	p.writeLine("quit", deadline)
	p.mu.Lock()
	p.stdin.Close()
	p.mu.Unlock()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
	// Even after a clean exit, helpers it left in its group must go.
	p.Kill()
	<-p.exited
	p.stdout.Close()
}
