package cli

// How a command's arguments are read, the same way for every command:
// flags anywhere among the arguments, the arguments standing for flags
// (info-book BOOK is info-book -bin BOOK), the required ones checked, and
// a usage error for what cannot be read, naming the flag likely meant.

import (
	"flag"
	"fmt"
	"strings"

	"github.com/polyproxy/polyproxy/internal/suggest"
)

// parse reads a command's arguments: flags, before or after the other
// arguments or between them ("--" ends the flags), then the arguments
// given to the flags they stand for (args), then the required flags
// checked. -h, -help and --help ask for the help (flag.ErrHelp).
func (c *command) parse(fs *flag.FlagSet, args []string) (*commandLine, error) {
	if seeFlags != nil {
		seeFlags(fs)
	}
	var rest []string
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			rest = append(rest, args[1:]...)
			args = nil
			continue
		case len(a) < 2 || a[0] != '-':
			rest = append(rest, a)
			args = args[1:]
			continue
		}
		n, err := setFlag(fs, args)
		if err != nil {
			return nil, err
		}
		args = args[n:]
	}
	cl := &commandLine{fs: fs}
	var err error
	if cl.rest, err = c.giveArgs(fs, rest); err != nil {
		return nil, err
	}
	if c.operands == "" && len(cl.rest) > 0 {
		return nil, c.strayArgument(cl.rest[0])
	}
	return cl, c.checkRequired(cl)
}

// setFlag sets the flag args start with, from "-name", "--name",
// "-name=value" or "-name value", and returns how many arguments it took.
func setFlag(fs *flag.FlagSet, args []string) (int, error) {
	name, value, hasValue := strings.Cut(strings.TrimPrefix(args[0][1:], "-"), "=")
	switch name {
	case "h", "help":
		return 0, flag.ErrHelp
	case "":
		return 0, usageErrorf("%q is not a flag", args[0])
	}
	f := fs.Lookup(name)
	if f == nil {
		return 0, usageErrorf("unknown flag -%s%s", name, suggest.DidYouMean(name, flagNames(fs), func(n string) string { return "-" + n }))
	}
	n := 1
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		if !hasValue {
			value = "true"
		}
	} else if !hasValue {
		if len(args) < 2 {
			return 0, usageErrorf("-%s needs a value: -%s %s", name, name, flagWhat(f))
		}
		value, n = args[1], 2
	}
	if err := fs.Set(name, value); err != nil {
		return 0, usageErrorf("-%s %s: %s", name, value, plainFlagError(f, err))
	}
	return n, nil
}

// flagWhat is what a flag takes, as its help names it ("file").
func flagWhat(f *flag.Flag) string {
	what, _ := flag.UnquoteUsage(f)
	if what == "" {
		what = "value"
	}
	return strings.ToUpper(what)
}

// plainFlagError is a flag value's error in words: a bool flag's is
// strconv's.
func plainFlagError(f *flag.Flag, err error) string {
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return "want true or false"
	}
	return err.Error()
}

// flagNames are fs's flags' names, for a mistyped one.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// giveArgs gives the arguments to the flags they stand for (c.args)
// that were not given as flags (or repeat), in order, and returns those left. An
// argument left over where a flag it stands for was given is refused as
// naming that flag's file twice.
func (c *command) giveArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var given []string
	for _, op := range c.args {
		if isGiven(fs, op.flag) && !(op.many && op.join == "") { // a repeatable flag takes more
			given = append(given, op.flag)
			continue
		}
		if len(args) == 0 {
			break
		}
		take := args[:1]
		if op.many {
			take = args
		}
		args = args[len(take):]
		values := take
		if op.join != "" {
			values = []string{strings.Join(take, op.join)}
		}
		for _, v := range values {
			if err := fs.Set(op.flag, v); err != nil {
				return nil, usageErrorf("%s: %v", v, err)
			}
		}
	}
	if len(args) > 0 && len(given) > 0 && c.operands == "" {
		return nil, usageErrorf("%q and -%s both name the %s: give it once", args[0], given[0], flagWhatName(fs, given[0]))
	}
	return args, nil
}

// isGiven tells whether the flag was set, on the command line or by an
// argument.
func isGiven(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// flagWhatName is what the flag name takes, as its help names it.
func flagWhatName(fs *flag.FlagSet, name string) string {
	what, _ := flag.UnquoteUsage(fs.Lookup(name))
	return what
}

// strayArgument refuses an argument no flag takes, saying what the
// command's arguments are and, for a command that writes a file, with
// which flag that file is named.
func (c *command) strayArgument(arg string) error {
	what := c.name + " takes no argument"
	if len(c.args) > 0 {
		what = "the arguments are " + c.argNames()
	}
	if outs := c.outputFlags(); outs != "" {
		what += "; name the file to write with " + outs
	}
	return usageErrorf("unexpected argument %q: %s", arg, what)
}

// argNames are what the command's arguments are, as its usage shows them.
func (c *command) argNames() string {
	var names []string
	for _, op := range c.args {
		n := op.name
		if op.many {
			n += "..."
		}
		names = append(names, n)
	}
	return strings.Join(names, " ")
}

// outputFlags are the flags naming what the command writes ("-out"),
// "" for none. (files names its flags whatever their values.)
func (c *command) outputFlags() string {
	_, outs := c.new().files()
	var names []string
	for _, o := range outs {
		names = append(names, o.flag)
	}
	return strings.Join(names, " or ")
}

// checkRequired refuses a command line without a required flag, naming
// it as the argument it may be given as.
func (c *command) checkRequired(cl *commandLine) error {
	var missing []string
	for _, name := range c.required {
		if f := cl.fs.Lookup(name); f != nil && f.Value.String() == "" {
			missing = append(missing, c.requiredName(name))
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

// requiredName is a required flag as the user may give it: "BOOK (or
// -bin)" for a flag an argument gives, else the flag.
func (c *command) requiredName(name string) string {
	for _, op := range c.args {
		if op.flag == name {
			return fmt.Sprintf("%s (or -%s)", op.name, name)
		}
	}
	return "-" + name
}
