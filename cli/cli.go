// Package cli is polyproxy's command line: the proxy and the book tools.
//
//	polyproxy [polyglot.ini] [PolyGlot options]   run as the GUI's engine (the proxy),
//	                                               speaking UCI or CECP (xboard) as it asks
//	polyproxy COMMAND [arguments] [flags]          a book tool; see "polyproxy help"
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
	"os"
	"path/filepath"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/plainerr"
	"github.com/polyproxy/polyproxy/internal/suggest"
	"github.com/polyproxy/polyproxy/internal/version"
)

// command is a book tool run as "polyproxy NAME [arguments and flags]".
type command struct {
	name, summary string
	// usage is what "NAME -h" prints before the flags.
	usage string
	// required are the flags that must be given (as flags or as the
	// arguments that give them: args).
	required []string
	// args are the flags the arguments after the command give, in order:
	// info-book's argument is its -bin.
	args []operand
	// operands names the arguments a command reads itself (sum-counts'
	// files, explore's books); "" when it takes none but args.
	operands string
	new      func() options
}

// operand is a flag a command's argument gives: "info-book book.bin" is
// "info-book -bin book.bin". many takes every argument left, each given
// to the flag in turn (a repeatable flag) or, with join, all of them
// joined into one value (a list flag: probe's -book "a.bin;b.bin").
type operand struct {
	flag, name string // the flag, and what the argument is ("BOOK")
	many       bool
	join       string
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
	fs   *flag.FlagSet
	rest []string // the arguments no flag took
}

// given tells whether the flag was given (even with its default value),
// as a flag or through an argument.
func (cl *commandLine) given(name string) bool { return isGiven(cl.fs, name) }

// operands are the arguments that are no flag's: what a command with
// operands reads itself.
func (cl *commandLine) operands() []string { return cl.rest }

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
	// unchanged, when set, is checked just before the outputs are put in
	// place: an input that is also an output must be as it was read.
	unchanged func() error
}

// commit puts the outputs in place, signals held; a command commits
// before it reports what it wrote, else it is done when it returns.
func (e *env) commit() error {
	if e.committed {
		return nil
	}
	e.committed = true
	return e.stop.finish(func() error {
		if e.unchanged != nil {
			if err := e.unchanged(); err != nil {
				return err
			}
		}
		return e.outs.Commit()
	})
}

// warnf prints a warning of the command on stderr.
func (e *env) warnf(format string, args ...any) { warnf(e.stderr, e.cmd, format, args...) }

// commands are the book tools and version, in the order "polyproxy
// help" lists them.
var commands = []command{
	probeCommand, infoBookCommand, dumpBookCommand, makeBookCommand, sumCountsCommand, convertBookCommand,
	mergeBookCommand, bookToPGNCommand, bookToOpeningsCommand, compileBookCommand, learnCommand, exploreCommand,
	versionCommand,
}

// Run runs polyproxy with args (without the program's name) and returns
// the exit code: 0, 1 for a failure, 2 for a command line that cannot be run.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return exitCode(stderr, "polyproxy", runProxy(args, stdin, stdout, stderr))
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return exitCode(stderr, "polyproxy", help(args[1:], stdout))
	case "-version", "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	if c := lookupCommand(args[0]); c != nil {
		return exitCode(stderr, c.name, c.execute(args[1:], stdout, stderr))
	}
	if e, maybeIni := unknownCommand(args); e != nil {
		var err error = e
		if maybeIni {
			// Maybe a GUI's engine command naming a missing ini.
			err = cannotStart(stdin, stdout, stderr, nil, e)
		}
		return exitCode(stderr, "polyproxy", err)
	}
	return exitCode(stderr, "polyproxy", runProxy(args, stdin, stdout, stderr))
}

// lookupCommand is the command named name, or nil.
func lookupCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// commandNames are the commands' names, for a mistyped one.
func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

// unknownCommand refuses a first argument that reads as a mistyped
// command: PolyGlot's command line takes an ini file there, so a file
// that is there, or a name with a folder or an extension, goes to the
// proxy, which says when it is missing. When the rest could follow an
// ini (flags only), the name may be a missing ini as well (maybeIni), and
// the error says both what it is not: a command, and an ini file.
func unknownCommand(args []string) (e *exitError, maybeIni bool) {
	arg := args[0]
	if strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, `/\.`) {
		return nil, false
	}
	if _, err := os.Stat(arg); err == nil {
		return nil, false
	}
	msg := fmt.Sprintf("unknown command %q", arg)
	if near, ok := suggest.Nearest(arg, commandNames()); ok {
		msg += " (did you mean " + near + "?)"
	}
	maybeIni = len(args) == 1 || strings.HasPrefix(args[1], "-")
	if maybeIni {
		where := arg
		if abs, err := filepath.Abs(arg); err == nil {
			where = abs
		}
		msg += ", and no ini file " + where + " is there"
	}
	return &exitError{code: 2, err: errors.New(msg),
		hint: `run "polyproxy help" for the commands; an ini file as the first argument runs polyproxy as an engine`}, maybeIni
}

// help is "polyproxy help [COMMAND]": help asked for, on stdout.
func help(args []string, stdout io.Writer) error {
	switch {
	case len(args) == 0:
		usage(stdout)
		return nil
	case len(args) > 1:
		return usageErrorf("help takes one command, got %q", args)
	}
	c := lookupCommand(args[0])
	if c == nil {
		return &exitError{code: 2, err: fmt.Errorf("help: no command %q%s", args[0], suggest.DidYouMean(args[0], commandNames(), nil)),
			hint: `run "polyproxy help" for the commands`}
	}
	c.help(stdout)
	return nil
}

// help prints the command's usage and flags on w.
func (c *command) help(w io.Writer) {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.new().define(fs)
	c.printHelp(w, fs)
}

func (c *command) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, c.usage)
	if hasFlags(fs) {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// hasFlags tells whether a command has any flag (version has none).
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// execute runs a book tool the same way for every tool: its flags
// parsed into its options, validated, its outputs checked (against its
// inputs, and that they can be written), then its work, its outputs put
// in place together only when it is done, a stop signal caught.
func (c *command) execute(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := c.new()
	opts.define(fs)
	cl, err := c.parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.printHelp(stdout, fs)
		return nil
	}
	if err == nil {
		err = opts.validate(cl)
	}
	if err != nil {
		return c.withHint(err)
	}
	e := &env{cmd: c.name, stdout: stdout, stderr: stderr, outs: &book.Batch{}}
	if err := checkOutputs(e.outs, opts); err != nil {
		return c.withHint(err)
	}
	e.stop = catchSignals(e)
	defer e.stop.release()
	defer e.outs.Abort()
	if err := opts.run(e); err != nil {
		return err
	}
	return e.commit()
}

// withHint adds to a usage error where the command's help is.
func (c *command) withHint(err error) error {
	var e *exitError
	if errors.As(err, &e) && e.code == 2 && e.hint == "" {
		e.hint = fmt.Sprintf(`run "polyproxy %s -h" for its usage`, c.name)
	}
	return err
}

// usage starts with the version, as PolyGlot's help starts with its own.
func usage(w io.Writer) {
	fmt.Fprintln(w, version.Get())
	fmt.Fprintln(w, "usage: "+config.Usage)
	fmt.Fprintln(w, "       polyproxy COMMAND [arguments] [flags]   (flags before or after the arguments)")
	fmt.Fprintln(w, "       polyproxy help COMMAND                  (or COMMAND -h: its arguments and flags)")
	fmt.Fprintln(w, "\nA book is Polyglot (.bin), ABK (.abk, Arena's) or CTG (.ctg, ChessBase's), told by its content.")
	fmt.Fprintln(w, "Moves are UCI (e2e4) or SAN (e4, Nf3, O-O), with or without move numbers: \"1.e4 e5 2.Nf3\".")
	// The commands come last: scripts/manpages.sh reads them from here on.
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
// reported where it happened (by the proxy on stderr, in its log and to
// the GUI); hint is a line printed after a usage error: where help is.
type exitError struct {
	code  int
	err   error
	quiet bool
	hint  string
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
	if err == nil {
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
	report(stderr, who, err)
	return code
}

// report prints err on stderr, prefixed with who failed, and its hint.
func report(stderr io.Writer, who string, err error) {
	fmt.Fprintf(stderr, "%s: %s\n", who, plainerr.Text(err))
	var e *exitError
	if errors.As(err, &e) && e.hint != "" {
		fmt.Fprintln(stderr, e.hint)
	}
}

// seeFlags, when set, is shown every command's flags before they are
// parsed: the tests walk them all to check every numeric flag is bounded.
var seeFlags func(*flag.FlagSet)

// warnf prints a warning of a book tool on stderr.
func warnf(stderr io.Writer, cmd, format string, args ...any) {
	fmt.Fprintf(stderr, "%s: warning: %s\n", cmd, fmt.Sprintf(format, args...))
}
