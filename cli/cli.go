// Package cli is polyproxy's command line: the proxy and the book tools.
//
//	polyproxy [polyglot.ini] [PolyGlot options]   run as the GUI's engine (the proxy),
//	                                               speaking UCI or CECP (xboard) as it asks
//	polyproxy COMMAND [flags]                      a book tool; see "polyproxy help"
//
// stdout belongs to the GUI's protocol in proxy mode; everything else goes to
// stderr or the log. Each command is one file of this package whose run
// function returns an error; Run turns errors into messages and exit codes,
// in one place.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/version"
)

// command is a book tool run as "polyproxy NAME flags...".
type command struct {
	name, summary string
	// usage is what "NAME -h" prints before the flags.
	usage string
	// required are the flags that must be given.
	required []string
	// operands names what may follow the flags (sum-counts' files); ""
	// when nothing may.
	operands string
	new      func() options
}

// options are one command's flags, parsed into a value. define declares
// them; validate refuses, before any input is read, a combination that
// cannot run (a usage error, exit 2), such as a setting one of its
// outputs cannot take; files names what the command reads and writes,
// so that every command gets the same checks of its outputs (see
// checkOutputs); run does the work, writing its outputs into env.outs.
type options interface {
	define(fs *flag.FlagSet)
	validate(cl *commandLine) error
	files() (inputs, outputs []fileArg)
	run(e *env) error
}

// commandLine is a command's parsed command line, for validate.
type commandLine struct {
	fs *flag.FlagSet
}

// given tells whether the flag was given (even with its default value).
func (cl *commandLine) given(name string) bool {
	found := false
	cl.fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// operands are the arguments after the flags.
func (cl *commandLine) operands() []string { return cl.fs.Args() }

// env is what a command runs with.
type env struct {
	cmd            string
	stdout, stderr io.Writer
	// outs are the files the command writes: each written beside its
	// target, all put in place together when the command has done its
	// work (commit), none on a failure or a signal.
	outs      *book.Batch
	stop      *interrupt
	committed bool
}

// commit puts the outputs in place, signals held; a command commits
// before it reports what it wrote, else it is done when it returns.
func (e *env) commit() error {
	if e.committed {
		return nil
	}
	e.committed = true
	return e.stop.finish(e.outs.Commit)
}

// warnf prints a warning of the command on stderr.
func (e *env) warnf(format string, args ...any) { warnf(e.stderr, e.cmd, format, args...) }

// commands are the book tools, in the order "polyproxy help" lists them.
var commands = []command{
	probeCommand, infoBookCommand, dumpBookCommand, makeBookCommand, sumCountsCommand, convertBookCommand,
	mergeBookCommand, bookToPGNCommand, bookToOpeningsCommand, compileBookCommand, learnCommand, exploreCommand,
}

// Run runs polyproxy with args (without the program's name) and returns
// the exit code: 0, 1 for a failure, 2 for a command line that cannot be run.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			usage(stderr)
			return 0
		case "version", "-version", "--version":
			return exitCode(stderr, "version", runVersion(args[1:], stdout, stderr))
		}
		for _, c := range commands {
			if c.name == args[0] {
				return exitCode(stderr, c.name, c.execute(args[1:], stdout, stderr))
			}
		}
	}
	return exitCode(stderr, "polyproxy", runProxy(args, stdin, stdout, stderr))
}

// execute runs a book tool the same way for every tool: its flags
// parsed into its options, validated, its outputs checked (against its
// inputs, and that they can be written), then its work, its outputs put
// in place together only when it is done, a stop signal caught.
func (c *command) execute(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := c.new()
	opts.define(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, c.usage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, c.operands != "", c.required...); err != nil {
		return err
	}
	if err := opts.validate(&commandLine{fs}); err != nil {
		return err
	}
	e := &env{cmd: c.name, stdout: stdout, stderr: stderr, outs: &book.Batch{}}
	if err := checkOutputs(e.outs, opts); err != nil {
		return err
	}
	e.stop = catchSignals(e)
	defer e.stop.release()
	defer e.outs.Abort()
	if err := opts.run(e); err != nil {
		return err
	}
	return e.commit()
}

// usage starts with the version, as PolyGlot's help starts with its own.
func usage(w io.Writer) {
	fmt.Fprintln(w, version.Get())
	fmt.Fprintln(w, "usage: "+config.Usage)
	fmt.Fprintln(w, "       polyproxy COMMAND [flags]   (COMMAND -h for its flags)")
	fmt.Fprintln(w, "       polyproxy version           (also -version, --version)")
	fmt.Fprintln(w, "\nCommands:")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
}

// exitError is an error with its exit code. quiet marks an error already
// reported where it happened (by the flag package, or the proxy on
// stderr, in its log and to the GUI).
type exitError struct {
	code  int
	err   error
	quiet bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErrorf is a command line that cannot be run (exit code 2).
func usageErrorf(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// reported is an error already told to the user, for its exit code only.
func reported(code int, err error) error { return &exitError{code: code, err: err, quiet: true} }

// exitCode reports err on stderr, prefixed with who failed, and returns
// the exit code it stands for.
func exitCode(stderr io.Writer, who string, err error) int {
	awaitHalt()
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	code := 1
	var e *exitError
	if errors.As(err, &e) {
		code = e.code
		if e.quiet {
			return code
		}
	}
	fmt.Fprintf(stderr, "%s: %v\n", who, err)
	return code
}

// parseFlags parses a book tool's flags the same way for every tool: -h
// prints the usage (flag.ErrHelp: exit 0); a bad flag, a stray argument
// (unless operands are taken) or a missing required flag is a usage
// error naming it.
func parseFlags(fs *flag.FlagSet, args []string, operands bool, required ...string) error {
	if seeFlags != nil {
		seeFlags(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return reported(2, err) // the flag package has printed it
	}
	if fs.NArg() > 0 && !operands {
		return usageErrorf("unexpected argument %q", fs.Arg(0))
	}
	var missing []string
	for _, name := range required {
		if f := fs.Lookup(name); f != nil && f.Value.String() == "" {
			missing = append(missing, "-"+name)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return usageErrorf("%s is required", missing[0])
	}
	return usageErrorf("%s and %s are required", strings.Join(missing[:len(missing)-1], ", "), missing[len(missing)-1])
}

// seeFlags, when set, is shown every command's flags before they are
// parsed: the tests walk them all to check every numeric flag is bounded.
var seeFlags func(*flag.FlagSet)

// warnf prints a warning of a book tool on stderr.
func warnf(stderr io.Writer, cmd, format string, args ...any) {
	fmt.Fprintf(stderr, "%s: warning: %s\n", cmd, fmt.Sprintf(format, args...))
}
