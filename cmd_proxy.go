package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/polyproxy/polyproxy/adapter"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// runProxy runs polyproxy as a UCI engine: PolyGlot's command line, then
// the adapter until the GUI quits. stdout carries UCI only; problems go to
// stderr (never closed) and the log.
func runProxy(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := config.Load(args)
	if err != nil {
		return usageErrorf("%v\nusage: %s", err, config.Usage)
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "polyproxy: warning: %s\n", w)
	}
	// The session follows every game; the adapter gives it the learning
	// settings (BookLearn, the books, resignation), at the start and as the
	// GUI changes them with setoption.
	session := learn.NewSession(learn.Settings{}, nil)
	a := adapter.New(cfg, adapter.Options{
		Stderr:   stderr,
		Observer: session,
	})
	if f, ok := stdout.(*os.File); ok {
		uci.GrowPipe(f) // the GUI's pipe: fewer blocked writes in an info flood
	}
	if stdin == os.Stdin {
		in := uci.PollableInput(os.Stdin)
		stdin = in
		// One loop does the work and every reader waits on the poller: one
		// OS thread running Go code saves waking a second thread for each
		// line relayed or answered (round trips through the proxy 20-30%
		// shorter, measured). Not when the GUI's input would block a
		// thread: that thread would hold the only one. The GOMAXPROCS
		// variable still wins.
		if os.Getenv("GOMAXPROCS") == "" && in.SetReadDeadline(time.Time{}) == nil {
			runtime.GOMAXPROCS(1)
		}
	}
	if err := a.Run(stdin, stdout); err != nil {
		return reported(1, err) // on stderr, in the log and to the GUI
	}
	return nil
}
