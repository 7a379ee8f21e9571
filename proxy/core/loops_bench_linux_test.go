//go:build linux

package core_test

// Benchmarks of the loops' own cost per relayed line, through real pipes.

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/proxy/proxytest"
	"github.com/polyproxy/polyproxy/uci"
)

// pipeEngine is an engine whose output is an OS pipe the benchmark
// writes to; what it is sent is dropped.
type pipeEngine struct {
	r, w   *os.File
	fd     bool // offer the output's descriptor (the poll loop reads it)
	exited chan struct{}
}

func (e *pipeEngine) WriteLine(string) error  { return nil }
func (e *pipeEngine) Stdout() io.Reader       { return e.r }
func (e *pipeEngine) Exited() <-chan struct{} { return e.exited }
func (e *pipeEngine) Quit(time.Duration)      { e.w.Close() }
func (e *pipeEngine) Kill()                   {}
func (e *pipeEngine) ExitErr() error          { return nil }
func (e *pipeEngine) StdoutFD() (fd int, ok bool) {
	if !e.fd {
		return -1, false
	}
	return int(e.r.Fd()), true
}

// The two loops the rig can run.
var loops = []struct {
	name string
	poll bool
}{{"goroutine", false}, {"poll", true}}

// relayRig runs a real proxy loop between OS pipes, with an engine
// whose output the benchmark writes. poll runs the poll loop (blocking
// pipes, as a GUI and a process hand them over; Linux), else the
// goroutine loop (the proxy's ends in Go's poller, read by goroutines).
// The benchmark's own ends are blocking, for rawClient: it stands for the
// GUI and the engine, which are other processes.
func relayRig(b *testing.B, poll bool) (engineOut, guiIn *os.File, stop func()) {
	guiR, guiW := proxytest.OSPipe(b)
	engR, engW := proxytest.OSPipe(b)
	outR, outW := proxytest.OSPipe(b)
	if !poll {
		guiR, engR = pollable(b, guiR), pollable(b, engR)
	}
	eng := &pipeEngine{r: engR, w: engW, fd: poll, exited: make(chan struct{})}
	a := core.New(proxytest.Config(b, ""), core.Options{StartEngine: func() (core.Engine, error) { return eng, nil }})
	done := make(chan struct{})
	go func() { a.Run(guiR, outW, proxytest.Script(a)); close(done) }()
	io.WriteString(engW, "uciok\n")
	io.WriteString(guiW, "uci\n")
	lr := uci.NewLineReader(outR, 64<<10)
	for {
		l, err := lr.ReadLine()
		if err != nil {
			b.Fatal(err)
		}
		if string(l) == "uciok" {
			break
		}
	}
	if a.Polling() != poll {
		b.Fatalf("poll loop %v, want %v", a.Polling(), poll)
	}
	return engW, outR, func() {
		guiW.Close()
		<-done
		outW.Close()
	}
}

// rawClient writes to the engine's output and reads the GUI's input as
// another process would: from a thread of its own, with plain blocking
// system calls, so every wake-up the proxy needs is counted (in the
// runtime's scheduler, the benchmark's goroutines would hand lines to the
// goroutine loop on one thread, which a GUI and an engine never do).
type rawClient struct {
	w, r int
	buf  []byte
}

func newRawClient(w, r *os.File) *rawClient {
	return &rawClient{w: int(w.Fd()), r: int(r.Fd()), buf: make([]byte, 1<<20)}
}

// lines reads until n more lines have arrived.
func (c *rawClient) lines(b *testing.B, n int) {
	for n > 0 {
		k, err := rawRead(c.r, c.buf)
		if err != nil || k == 0 {
			b.Fatalf("read: %d, %v", k, err)
		}
		n -= bytes.Count(c.buf[:k], []byte("\n"))
	}
}

// BenchmarkRelayLine: one engine line through the proxy to the GUI's
// pipe, waiting for each: the latency of a relayed line, on each loop
// (compare BenchmarkPipeLine: the pipes alone).
func BenchmarkRelayLine(b *testing.B) {
	for _, l := range loops {
		b.Run(l.name, func(b *testing.B) {
			w, r, stop := relayRig(b, l.poll)
			defer stop()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c := newRawClient(w, r)
			line := []byte("info depth 20 seldepth 30 multipv 1 score cp 31 nodes 1234567 nps 1000000 time 1234 pv e2e4 e7e5 g1f3\n")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rawWrite(c.w, line)
				c.lines(b, 1)
			}
		})
	}
}

// BenchmarkPipeLine is what a relayed line costs without the proxy: a
// thread that echoes one pipe into another, as plain as a relay can be.
func BenchmarkPipeLine(b *testing.B) {
	inR, inW := proxytest.OSPipe(b)
	outR, outW := proxytest.OSPipe(b)
	go func() {
		runtime.LockOSThread()
		buf := make([]byte, 64<<10)
		for {
			n, err := rawRead(int(inR.Fd()), buf)
			if err != nil || n == 0 {
				outW.Close()
				return
			}
			rawWrite(int(outW.Fd()), buf[:n])
		}
	}()
	defer inW.Close()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c := newRawClient(inW, outR)
	line := []byte("info depth 20 seldepth 30 multipv 1 score cp 31 nodes 1234567 nps 1000000 time 1234 pv e2e4 e7e5 g1f3\n")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rawWrite(c.w, line)
		c.lines(b, 1)
	}
}

// BenchmarkRelayFlood: 100,000 info lines written as fast as the engine
// can, read by the GUI, on each loop; reports lines per second.
func BenchmarkRelayFlood(b *testing.B) {
	for _, l := range loops {
		b.Run(l.name, func(b *testing.B) {
			w, r, stop := relayRig(b, l.poll)
			defer stop()
			const n = 100000
			line := "info depth 20 seldepth 30 multipv 1 score cp 31 nodes 1234567 nps 1000000 time 1234 pv e2e4 e7e5 g1f3\n"
			chunk := []byte(strings.Repeat(line, 64<<10/len(line)))
			perChunk := bytes.Count(chunk, []byte("\n"))
			c := newRawClient(w, r)
			b.SetBytes(int64(n * len(line)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				go func() {
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					for j := 0; j < n; j += perChunk {
						rawWrite(c.w, chunk[:min(perChunk, n-j)*len(line)])
					}
				}()
				c.lines(b, n)
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

// pollable is f's pipe as Go's poller takes it (non-blocking): a
// core given it runs the goroutine loop, as on a system without the
// poll loop.
func pollable(b *testing.B, f *os.File) *os.File {
	fd, err := unix.Dup(int(f.Fd()))
	if err == nil {
		err = unix.SetNonblock(fd, true)
	}
	if err != nil {
		b.Fatal(err)
	}
	return os.NewFile(uintptr(fd), f.Name())
}

func rawRead(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		if err != unix.EINTR {
			return n, err
		}
	}
}

func rawWrite(fd int, p []byte) {
	for len(p) > 0 {
		n, err := unix.Write(fd, p)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			panic(err)
		}
		p = p[n:]
	}
}
