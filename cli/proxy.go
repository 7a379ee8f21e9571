package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy"
	"github.com/polyproxy/polyproxy/proxy/core"
	"github.com/polyproxy/polyproxy/uci"
)

// runProxy runs polyproxy as the GUI's engine: PolyGlot's command line,
// then the proxy until the GUI quits. stdout carries the GUI's protocol
// only (UCI, or CECP when the GUI starts with xboard or protover); problems go to
// stderr (never closed) and the log.
func runProxy(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := config.Load(args)
	var clErr *config.CommandLineError
	switch {
	case errors.As(err, &clErr):
		return &exitError{code: 2, err: err, hint: "usage: " + config.Usage}
	case err != nil:
		return usageErrorf("%v", err)
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "polyproxy: warning: %s\n", w)
	}
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
	if err := proxy.Run(cfg, opts, stdin, stdout); err != nil {
		return reported(1, err) // on stderr, in the log and to the GUI
	}
	return nil
}
