package main

import (
	"fmt"
	"io"

	"github.com/polyproxy/polyproxy/adapter"
	"github.com/polyproxy/polyproxy/config"
)

func init() { runProxy = proxyMain }

// proxyMain runs polyproxy as a UCI engine: PolyGlot's command line, then
// the adapter until the GUI quits. stdout carries UCI only; problems go to
// stderr (never closed) and the log.
func proxyMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := config.Load(args)
	if err != nil {
		fmt.Fprintf(stderr, "polyproxy: %v\n", err)
		fmt.Fprintf(stderr, "usage: %s\n", config.Usage)
		return 2
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "polyproxy: warning: %s\n", w)
	}
	a := adapter.New(cfg, adapter.Options{
		Stderr: stderr,
		// Observer: live learning (BookLearn) plugs in here.
	})
	if err := a.Run(stdin, stdout); err != nil {
		return 1
	}
	return 0
}
