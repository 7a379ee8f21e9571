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

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/internal/version"
)

// command is a book tool run as "polyproxy NAME flags...".
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}

// commands are the book tools, in the order "polyproxy help" lists them.
var commands = []command{
	{"probe", "show a position's key and every book entry for it", runProbe},
	{"info-book", "summarise a book: entries, positions, header, weights, learn data, problems", runInfoBook},
	{"dump-book", "write a book's lines for one colour as text (PolyGlot's dump-book)", runDumpBook},
	{"make-book", "build a book from PGN games (PolyGlot's make-book, same bytes)", runMakeBook},
	{"sum-counts", "add counts files (make-book -counts) made from parts of a game collection", runSumCounts},
	{"convert-book", "convert a book between Polyglot and ABK (Arena's format), or a counts file into either", runConvertBook},
	{"merge-book", "merge two books (PolyGlot's merge-book; weights saturate, learn counts add)", runMergeBook},
	{"book-to-pgn", "write a book's tree as one PGN game with variations (shares, weights, learn counts)", runBookToPGN},
	{"book-to-openings", "write the positions of a book's tree as an EPD or PGN opening suite (fastchess, cutechess-cli)", runBookToOpenings},
	{"compile-book", "compile a text book (one line of from-to moves per variation) into a book", runCompileBook},
	{"learn", "count a tournament's results (PGN) into a book's learn fields", runLearn},
	{"explore", "serve a local page to look at books side by side (and, with -edit, change them)", runExplore},
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
				return exitCode(stderr, c.name, c.run(args[1:], stdout, stderr))
			}
		}
	}
	return exitCode(stderr, "polyproxy", runProxy(args, stdin, stdout, stderr))
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
// prints the usage (flag.ErrHelp: exit 0); a bad flag, a stray argument or
// a missing required flag is a usage error naming it.
func parseFlags(fs *flag.FlagSet, args []string, required ...string) error {
	if err := parseFlagsAndArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
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

// parseFlagsAndArgs parses flags followed by arguments (files, for
// sum-counts): -h prints the usage (flag.ErrHelp: exit 0); a bad flag or
// value is a usage error the flag package has printed.
func parseFlagsAndArgs(fs *flag.FlagSet, args []string) error {
	if seeFlags != nil {
		seeFlags(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return reported(2, err) // the flag package has printed it
	}
	return nil
}

// seeFlags, when set, is shown every command's flags before they are
// parsed: the tests walk them all to check every numeric flag is bounded.
var seeFlags func(*flag.FlagSet)

// warnf prints a warning of a book tool on stderr.
func warnf(stderr io.Writer, cmd, format string, args ...any) {
	fmt.Fprintf(stderr, "%s: warning: %s\n", cmd, fmt.Sprintf(format, args...))
}
