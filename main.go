// Command polyproxy is a UCI engine wrapper with Polyglot opening books.
//
//	polyproxy [polyglot.ini] [PolyGlot options]   run as a UCI engine (the proxy)
//	polyproxy COMMAND [flags]                      a book tool; see "polyproxy help"
//
// stdout belongs to the UCI protocol in proxy mode; everything else goes to
// stderr or the log.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is a book tool run as "polyproxy NAME flags...". It returns the
// process exit code.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

// register adds a subcommand; each cmd_*.go file registers its own.
func register(name, summary string, run func(args []string, stdout, stderr io.Writer) int) {
	commands[name] = command{summary: summary, run: run}
}

// runProxy is set by the proxy's file; it runs polyproxy as a UCI engine.
var runProxy func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			usage(stderr)
			return 0
		}
		if c, ok := commands[args[0]]; ok {
			return c.run(args[1:], stdout, stderr)
		}
	}
	if runProxy == nil {
		fmt.Fprintln(stderr, "polyproxy: proxy mode is not built in")
		return 2
	}
	return runProxy(args, stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: polyproxy [INI] [-noini] [-ec CMD] [-ed DIR] [-en NAME] [-log true|false] [-lf FILE] [-pg NAME=VALUE]... [-uci NAME=VALUE]...")
	fmt.Fprintln(w, "       polyproxy COMMAND [flags]   (COMMAND -h for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-13s %s\n", n, commands[n].summary)
	}
}

// parseFlags parses a book tool's flags the same way for every tool: -h
// prints the usage and exits 0; a bad flag, a stray argument or a missing
// required flag exits 2 with a message naming it. ok is false when the
// tool must stop with code.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer, required ...string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	var missing []string
	for _, name := range required {
		if f := fs.Lookup(name); f != nil && f.Value.String() == "" {
			missing = append(missing, "-"+name)
		}
	}
	switch len(missing) {
	case 0:
		return 0, true
	case 1:
		fmt.Fprintf(stderr, "%s: %s is required\n", fs.Name(), missing[0])
	default:
		fmt.Fprintf(stderr, "%s: %s and %s are required\n", fs.Name(), strings.Join(missing[:len(missing)-1], ", "), missing[len(missing)-1])
	}
	return 2, false
}
