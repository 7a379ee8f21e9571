//go:build linux

package loop_test

import (
	"io"
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/polyproxy/polyproxy/proxy/loop"
)

// osPipe is a blocking OS pipe, as a GUI hands one over.
func osPipe(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// The poll loop runs on a blocking descriptor and hands the handler what
// the goroutine loop does; once the GUI's quit is read, its input is read
// no further.
func TestPollLoop(t *testing.T) {
	guiR, guiW := osPipe(t)
	h := newHandler()
	l := loop.New(guiR, h)
	if !l.Polling() {
		t.Fatal("no poll loop on a blocking pipe")
	}
	defer l.Close()
	e := newEngine() // no descriptor: a goroutine reads it
	l.Attach(e, func() {})
	done := run(l)
	io.WriteString(guiW, "uci\nisready\n")
	if ev := h.next(t); ev != "gui uci|isready" {
		t.Fatalf("got %q", ev)
	}
	if !l.Post(func() { h.quit = true; h.events <- "posted" }) || h.next(t) != "posted" {
		t.Fatal("a call posted did not run")
	}
	io.WriteString(guiW, "quit\n")
	if ev := h.next(t); ev != "gui quit" {
		t.Fatalf("got %q", ev)
	}
	io.WriteString(guiW, "isready\n") // after the quit: not read
	io.WriteString(e.w, "readyok\n")
	if ev := h.next(t); ev != "engine readyok|" {
		t.Fatalf("got %q", ev)
	}
	e.w.Close()
	if ev := h.next(t); ev != "engine  (end)" {
		t.Fatalf("got %q", ev)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
