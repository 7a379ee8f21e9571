//go:build linux

package loop

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// pollLoop is the loop a C relay has: one thread waits in poll(2) on the
// GUI's input and the engine's output, reads what is there and does the
// work inline (read, decide, write). No reader goroutine, no channel, no
// second thread woken per line: a relayed line costs a poll, a read and a
// write (the goroutine loop's hand-offs made a round trip through the
// proxy 1.1-1.4 times PolyGlot's on a 2-CPU VM; this shape, 0.6-0.8).
//
// Everything else (a call posted, the output of an engine read by a
// goroutine) arrives as in the goroutine loop, on the loop's events
// channel, and the sender then writes to an eventfd that is in the same
// poll set (Loop.post, wake): the loop takes the events when it wakes for
// it. Every event, read here or received, goes to the one dispatch.
//
// The GUI's input is polled and read as it is: blocking, and never made
// non-blocking or reopened, because its open file is shared with the GUI
// (and a wrapper script, a shell) who would see the change. A descriptor
// that arrives non-blocking belongs to whoever set it so: the goroutine
// loop runs then. The engine's output is our own blocking pipe, outside
// Go's poller (uci.Process.StdoutFD). Blocking descriptors are safe with
// one read per readiness: poll said there is data or an end.
type pollLoop struct {
	l     *Loop
	in    *os.File // the GUI's input, kept alive while gui is in use
	gui   int      // its descriptor; -1 once it ended or a quit was read
	guiIn inBuf
	// eng is the running engine's output when the loop reads it itself;
	// -1 when it ended or a goroutine reads it (an engine that is no
	// process: tests).
	eng   int
	engIn inBuf

	mu     sync.Mutex // wakeFd against close
	wakeFd int        // eventfd; -1 once closed
	fds    [3]unix.PollFd

	spins atomic.Int32 // busy-waits begun (Loop.Spins)
}

// The readiness poll reports for a descriptor to read: data, its end, or
// an error a read will return.
const pollReady = unix.POLLIN | unix.POLLHUP | unix.POLLERR | unix.POLLNVAL

// newPollLoop returns the poll loop when stdin is a descriptor it can
// wait on as it is (an *os.File in blocking mode), else nil: the goroutine
// loop runs (a pipe in Go's poller, an io.Reader of the tests).
func newPollLoop(l *Loop, stdin io.Reader) *pollLoop {
	f, ok := stdin.(*os.File)
	if !ok || f == nil {
		return nil
	}
	rc, err := f.SyscallConn() // not f.Fd(): that would change its mode
	if err != nil {
		return nil
	}
	fd := -1
	rc.Control(func(d uintptr) {
		if fl, err := unix.FcntlInt(d, unix.F_GETFL, 0); err == nil && fl&unix.O_NONBLOCK == 0 {
			fd = int(d)
		}
	})
	if fd < 0 {
		return nil
	}
	wfd, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err != nil {
		return nil
	}
	return &pollLoop{l: l, in: f, gui: fd, eng: -1, wakeFd: wfd,
		guiIn: inBuf{b: make([]byte, 64<<10)},
		// Big: an info flood comes in chunks of up to the pipe's 1 MB.
		engIn: inBuf{b: make([]byte, 256<<10)}}
}

func (pl *pollLoop) spinsSoFar() int {
	if pl == nil {
		return 0
	}
	return int(pl.spins.Load())
}

// outputFD is an engine whose output is a descriptor the loop can poll
// and read itself (*uci.Process on Linux).
type outputFD interface {
	StdoutFD() (fd int, ok bool)
}

// attach takes a new engine: its output is read by the loop when it is
// a descriptor (true); false: a goroutine must read it.
func (pl *pollLoop) attach(eng Engine) bool {
	pl.eng = -1
	pl.engIn.reset()
	if p, ok := eng.(outputFD); ok {
		if fd, ok := p.StdoutFD(); ok {
			pl.eng = fd
			return true
		}
	}
	return false
}

// wake makes the loop look at its channels; any goroutine may call it.
func (pl *pollLoop) wake() {
	pl.mu.Lock()
	if pl.wakeFd >= 0 {
		one := [8]byte{1}
		unix.Write(pl.wakeFd, one[:]) // EAGAIN only when the counter is huge: it is woken anyway
	}
	pl.mu.Unlock()
}

func (pl *pollLoop) close() {
	pl.mu.Lock()
	if pl.wakeFd >= 0 {
		unix.Close(pl.wakeFd)
		pl.wakeFd = -1
	}
	pl.mu.Unlock()
}

// ErrPoll is returned (wrapped) by Run when poll(2) fails: not expected
// with valid arguments, and the run cannot go on.
var ErrPoll = errors.New("poll")

func (pl *pollLoop) run() error {
	soon := false
	for {
		fds := pl.fds[:]
		// A negative descriptor is left out by poll.
		fds[0] = unix.PollFd{Fd: int32(pl.gui), Events: unix.POLLIN}
		fds[1] = unix.PollFd{Fd: int32(pl.eng), Events: unix.POLLIN}
		fds[2] = unix.PollFd{Fd: int32(pl.wakeFd), Events: unix.POLLIN}
		n := 0
		if soon {
			pl.spins.Add(1)
			n = spinPoll(fds, spinFor)
		}
		if n == 0 {
			var err error
			if n, err = unix.Poll(fds, -1); err == unix.EINTR {
				continue
			} else if err != nil {
				return fmt.Errorf("%w: %v", ErrPoll, err)
			}
		}
		if fds[1].Revents&pollReady != 0 && pl.eng >= 0 {
			if over, err := pl.readEngine(); over {
				return err
			}
		}
		if fds[2].Revents&pollReady != 0 {
			var b [8]byte
			unix.Read(pl.wakeFd, b[:]) // resets the counter
			if over, err := pl.onWake(); over {
				return err
			}
		}
		if fds[0].Revents&pollReady != 0 && pl.gui >= 0 {
			if over, err := pl.readGUI(); over {
				return err
			}
		}
		soon = pl.l.h.AnswerDue()
	}
}

// onWake handles the events other goroutines posted.
func (pl *pollLoop) onWake() (ended bool, err error) {
	for {
		select {
		case ev := <-pl.l.events:
			if ended, err := pl.l.dispatch(ev); ended {
				return true, err
			}
		default:
			return false, nil
		}
	}
}

// readEngine reads the engine's output once and hands its whole lines
// over.
func (pl *pollLoop) readEngine() (ended bool, err error) {
	lines, end := pl.engIn.read(pl.eng, 16<<10)
	if end != nil {
		pl.eng = -1 // a restart attaches the next engine's
	} else if len(lines) == 0 {
		return false, nil
	}
	return pl.l.dispatch(event{kind: engineEvent, gen: pl.l.gen, data: lines, err: end})
}

// readGUI reads the GUI's input once and hands its whole lines over.
func (pl *pollLoop) readGUI() (ended bool, err error) {
	data, end := pl.guiIn.read(pl.gui, 4<<10)
	if end != nil {
		pl.gui = -1
	} else if len(data) == 0 {
		return false, nil
	}
	var lines []string
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		l := data[:nl]
		if n := len(l); n > 0 && l[n-1] == '\r' {
			l = l[:n-1]
		}
		lines = append(lines, string(l))
		data = data[nl+1:]
	}
	ended, err = pl.l.dispatch(event{kind: guiEvent, lines: lines, err: end})
	if pl.l.h.QuitRead() {
		pl.gui = -1 // lines after the quit are not read
	}
	return ended, err
}

// inBuf is what the reads of one descriptor delivered, for whole lines.
type inBuf struct {
	b    []byte
	n    int // bytes in b
	used int // bytes of b handed out as lines
}

func (ib *inBuf) reset() { ib.n, ib.used = 0, 0 }

// read reads fd once and returns the whole lines now in the buffer, each
// ending in '\n' (valid until the next read). end is io.EOF or the read's
// error when the input ended; the last line then gets its '\n' if it
// lacked one. An interrupted read returns nothing. free is the least room
// a read gets: the buffer doubles below it (a line longer than the buffer).
func (ib *inBuf) read(fd, free int) (lines []byte, end error) {
	if ib.used > 0 {
		ib.n = copy(ib.b, ib.b[ib.used:ib.n]) // the start of a line not yet complete
		ib.used = 0
	}
	if len(ib.b)-ib.n < free {
		ib.b = append(ib.b, make([]byte, len(ib.b))...)
	}
	old := ib.n
	n, err := unix.Read(fd, ib.b[ib.n:])
	switch {
	case err == unix.EINTR || err == unix.EAGAIN:
		// EAGAIN: someone sharing a descriptor that turned non-blocking
		// read what poll saw.
		return nil, nil
	case err != nil:
		end = os.NewSyscallError("read", err)
	case n == 0:
		end = io.EOF
	default:
		ib.n += n
	}
	if end != nil {
		if ib.n > 0 && ib.b[ib.n-1] != '\n' {
			if ib.n == len(ib.b) {
				ib.b = append(ib.b, '\n')
			} else {
				ib.b[ib.n] = '\n'
			}
			ib.n++
		}
		ib.used = ib.n
		return ib.b[:ib.n], end
	}
	last := bytes.LastIndexByte(ib.b[old:ib.n], '\n')
	if last < 0 {
		return nil, nil // a line not yet complete
	}
	ib.used = old + last + 1
	return ib.b[:ib.used], nil
}

// spinFor bounds the busy-wait after an event that makes an answer due at
// once (Handler.AnswerDue). Measured on a 2-CPU VM: Stockfish's readyok comes
// 10-25 µs after isready, a GUI's next command as soon after our readyok;
// blocking in poll instead costs a wake-up, about 20 µs when the waker
// runs on the other CPU. Waiting longer only burns CPU.
const spinFor = 30 * time.Microsecond

// spinPoll polls fds without blocking until one is ready (n > 0) or d has
// passed (0). Between polls it yields the CPU: whoever shares it (the
// engine, the GUI: the very process we wait for) runs first, so the wait
// costs them nothing (without the yield the CPU per round trip rose a lot,
// measured).
func spinPoll(fds []unix.PollFd, d time.Duration) int {
	start := time.Now()
	for {
		n, err := unix.Poll(fds, 0)
		if n > 0 {
			return n
		}
		if (err != nil && err != unix.EINTR) || time.Since(start) >= d {
			return 0
		}
		unix.Syscall(unix.SYS_SCHED_YIELD, 0, 0, 0)
	}
}
