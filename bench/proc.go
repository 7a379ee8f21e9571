package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// proc is a UCI process driven as a GUI drives it: every line is its own
// write (a GUI flushes each command), replies are read from a pipe with a
// deadline so a side that hangs costs a timeout, not the whole run.
type proc struct {
	name  string
	cmds  []*exec.Cmd // the process; for a pipeline, every stage in order
	stdin *os.File
	out   *os.File
	r     *bufio.Reader
	errs  *tailBuffer
	done  chan struct{} // closed when the last stage has exited
	wait  error
}

// startProc starts argv in dir with its stdin and stdout piped to us and
// its stderr kept (the tail) for error messages.
func startProc(name string, argv []string, dir string) (*proc, error) {
	return startPipeline(name, dir, argv)
}

// startPipeline starts stages connected stdout to stdin, like a shell pipe:
// we write to the first stage and read from the last.
func startPipeline(name, dir string, stages ...[]string) (*proc, error) {
	p := &proc{name: name, errs: &tailBuffer{max: 4096}, done: make(chan struct{})}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	var started []*exec.Cmd
	fail := func(err error) (*proc, error) {
		inW.Close()
		for _, c := range started {
			killTree(c)
			c.Wait()
		}
		return nil, err
	}
	next := inR
	for i, argv := range stages {
		c := exec.Command(argv[0], argv[1:]...)
		c.Dir = dir
		c.Stdin = next
		c.Stderr = p.errs
		setProcessGroup(c)
		outR, outW, err := os.Pipe()
		if err != nil {
			next.Close()
			return fail(err)
		}
		c.Stdout = outW
		err = c.Start()
		next.Close()
		outW.Close()
		if err != nil {
			outR.Close()
			return fail(fmt.Errorf("start %s: %w", argv[0], err))
		}
		started = append(started, c)
		next = outR
		if i == len(stages)-1 {
			p.out = outR
		}
	}
	p.cmds = started
	p.stdin = inW
	p.r = bufio.NewReaderSize(p.out, 1<<16)
	go func() {
		var first error
		for _, c := range p.cmds {
			if err := c.Wait(); err != nil && first == nil {
				first = err
			}
		}
		p.wait = first
		close(p.done)
	}()
	return p, nil
}

// send writes each line with its own write call.
func (p *proc) send(lines ...string) error {
	for _, l := range lines {
		if _, err := p.stdin.Write([]byte(l + "\n")); err != nil {
			return fmt.Errorf("%s: write %q: %w%s", p.name, l, err, p.stderrNote())
		}
	}
	return nil
}

// readLine returns the next line without its line end.
func (p *proc) readLine(deadline time.Time) (string, error) {
	// Not every platform's pipes take deadlines (Windows): then a hang
	// hangs, which is still better than not measuring at all.
	_ = p.out.SetReadDeadline(deadline)
	var long []byte
	for {
		b, err := p.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, b...)
			continue
		}
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return "", fmt.Errorf("%s: no answer within the timeout%s", p.name, p.stderrNote())
			}
			if err == io.EOF {
				return "", fmt.Errorf("%s: output closed (process exited?)%s", p.name, p.stderrNote())
			}
			return "", fmt.Errorf("%s: read: %w", p.name, err)
		}
		if long != nil {
			b = append(long, b...)
		}
		return string(bytes.TrimRight(b, "\r\n")), nil
	}
}

// readUntil reads lines until one whose first word is word, and returns
// that line and how many lines came before it.
func (p *proc) readUntil(word string, timeout time.Duration) (line string, before int, err error) {
	deadline := time.Now().Add(timeout)
	for {
		l, err := p.readLine(deadline)
		if err != nil {
			return "", before, fmt.Errorf("waiting for %q: %w", word, err)
		}
		if firstWord(l) == word {
			return l, before, nil
		}
		before++
	}
}

// countUntil is readUntil for floods: it also counts the lines that start
// with prefix, without building strings for them.
func (p *proc) countUntil(prefix, word string, timeout time.Duration) (matched int, err error) {
	deadline := time.Now().Add(timeout)
	_ = p.out.SetReadDeadline(deadline)
	pre, end := []byte(prefix), []byte(word)
	atLineStart := true
	for {
		b, err := p.r.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return matched, fmt.Errorf("%s: %q not seen within the timeout after %d lines%s", p.name, word, matched, p.stderrNote())
			}
			return matched, fmt.Errorf("%s: waiting for %q after %d lines: %w%s", p.name, word, matched, err, p.stderrNote())
		}
		if atLineStart {
			switch {
			case bytes.HasPrefix(b, pre):
				matched++
			case bytes.HasPrefix(b, end) && (len(b) == len(end) || b[len(end)] == ' ' || b[len(end)] == '\n' || b[len(end)] == '\r'):
				return matched, nil
			}
		}
		atLineStart = err == nil
	}
}

// quit sends quit and waits for the process to exit, killing it after
// timeout. It returns how long the exit took.
func (p *proc) quit(timeout time.Duration) (time.Duration, error) {
	t0 := time.Now()
	if err := p.send("quit"); err != nil {
		p.kill()
		return 0, err
	}
	select {
	case <-p.done:
		return time.Since(t0), nil
	case <-time.After(timeout):
		p.kill()
		return 0, fmt.Errorf("%s: still running %v after quit", p.name, timeout)
	}
}

// kill ends every stage and its process group and releases the pipes.
func (p *proc) kill() {
	for _, c := range p.cmds {
		killTree(c)
	}
	<-p.done
	p.stdin.Close()
	p.out.Close()
}

// close ends the process politely if it can, by force otherwise.
func (p *proc) close() {
	select {
	case <-p.done:
		p.stdin.Close()
		p.out.Close()
		return
	default:
	}
	if _, err := p.quit(2 * time.Second); err == nil {
		p.stdin.Close()
		p.out.Close()
	}
}

func (p *proc) stderrNote() string {
	s := strings.TrimSpace(p.errs.String())
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 && len(s)-i < 300 {
		// The last line usually says what went wrong.
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[len(s)-300:]
	}
	return "; stderr: " + s
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func firstWord(l string) string {
	l = strings.TrimLeft(l, " \t")
	if i := strings.IndexAny(l, " \t"); i >= 0 {
		return l[:i]
	}
	return l
}
