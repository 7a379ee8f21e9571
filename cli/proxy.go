package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/plainerr"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci"
)

// guiWait is how long polyproxy, when it cannot start, waits for the
// GUI's first line to tell it why (proxy.Refuse): GUIs send theirs as
// they start the engine, so it is there at once; the bound is for an
// input that never speaks.
const guiWait = 5 * time.Second

// runProxy runs polyproxy as the GUI's engine: PolyGlot's command line,
// then the proxy until the GUI quits. stdout carries the GUI's protocol
// only (UCI, or CECP when the GUI starts with xboard or protover); problems go to
// stderr (never closed) and the log.
func runProxy(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := config.Load(args)
	if err != nil {
		var le *config.LoadError
		var warnings []string
		if errors.As(err, &le) {
			warnings = le.Warnings
		}
		e := &exitError{code: 2, err: err}
		var clErr *config.CommandLineError
		if errors.As(err, &clErr) {
			e.hint = "usage: " + config.Usage
		}
		return cannotStart(stdin, stdout, stderr, warnings, e)
	}
	warn(stderr, cfg.Warnings)
	// The session follows every game; the core gives it the learning
	// settings (BookLearn, the books, resignation), at the start and as the
	// GUI changes them with setoption.
	session := learn.NewSession(learn.Settings{}, nil)
	opts := core.Options{Stderr: stderr, Observer: session}
	if f, ok := stdout.(*os.File); ok {
		uci.GrowPipe(f) // the GUI's pipe: fewer blocked writes in an info flood
	}
	// GOMAXPROCS stays the runtime's default: the poll loop blocks in
	// poll(2), and with a single P the runtime would hand that P to
	// another thread 20 µs into every wait (and take it back after).
	err = proxy.Run(cfg, opts, stdin, stdout)
	var notTold *proxy.NotTold
	if errors.As(err, &notTold) {
		proxy.Refuse(stdin, stdout, notTold.Notices, notTold.Why, waitForGUI(stdin))
	}
	if err != nil {
		return reported(1, err) // on stderr, in the log and to the GUI
	}
	return nil
}

// warn prints the configuration's warnings on stderr.
func warn(stderr io.Writer, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "polyproxy: warning: %s\n", w)
	}
}

// cannotStart reports why the proxy cannot start, after the warnings of
// what it read: on stderr at once, then to the GUI in its protocol, so
// that a GUI shows why its engine ended (proxy.Refuse). The error
// returned is reported.
func cannotStart(stdin io.Reader, stdout, stderr io.Writer, warnings []string, e *exitError) error {
	warn(stderr, warnings)
	report(stderr, "polyproxy", e)
	notices := make([]string, len(warnings))
	for i, w := range warnings {
		notices[i] = "warning: " + w
	}
	proxy.Refuse(stdin, stdout, notices, plainerr.Text(e), waitForGUI(stdin))
	return reported(e.code, e)
}

// waitForGUI is how long to wait for the GUI's first line: none when
// stdin is a terminal (or /dev/null), where no GUI speaks and the user
// has read stderr.
func waitForGUI(stdin io.Reader) time.Duration {
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return 0
		}
	}
	return guiWait
}
