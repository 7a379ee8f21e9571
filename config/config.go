// Package config reads polyproxy's settings: a PolyGlot-style polyglot.ini
// and PolyGlot's command line, with PolyGlot's defaults.
//
// Each setting is declared once, in the table of table.go: its key, kind,
// bounds, default, where it is offered and what a change invalidates.
// The ini parser, the command line, the book tools' flags, the options
// a GUI is offered, setoption and change detection (views.go) are all
// derived from it.
//
// Compatibility decisions (all documented in docs/configuration.md):
//   - Section and [PolyGlot] key names are case-insensitive; [Engine] keys keep
//     the user's spelling (the proxy matches them case-insensitively against
//     the names the engine announces).
//   - Values keep ';' and '#' (Windows paths, our ';' book list); only lines
//     that start with ';' or '#' are comments. "\;" and "\#" are unescaped as
//     PolyGlot does; other backslashes are kept, so Windows paths work as written.
//   - A value wholly enclosed in matching quotes has them removed, except
//     EngineCommand, where quotes group words (see splitCommand).
//   - Relative paths in the ini are relative to the ini's folder (tournament
//     managers start engines in odd working directories); relative paths on
//     the command line are relative to the current directory; a relative
//     engine program is relative to EngineDir.
//   - Keys we do not use are warnings, never failures; bad values are errors.
package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/internal/paths"
	"github.com/polyproxy/polyproxy/internal/plainerr"
	"github.com/polyproxy/polyproxy/internal/suggest"
	"gopkg.in/ini.v1"
)

// Defaults, as PolyGlot 2.0.4 documents them (man polyglot) where PolyGlot has the key.
const (
	DefaultIniFile          = "polyglot.ini"
	DefaultLogFile          = "polyglot.log"
	DefaultBookFile         = "book.bin"
	DefaultBookDepth        = 256
	DefaultBookThreshold    = 5 // per mille
	DefaultLearnResignScore = 1000
	DefaultLearnResignMoves = 3
	DefaultResignMoves      = 3   // PolyGlot's
	DefaultResignScore      = 600 // PolyGlot's
	DefaultContemptScore    = 30  // PolyGlot's
	DefaultSTFudge          = 20  // PolyGlot's
	// DefaultLearnTolerance is BookLearnTolerance's: nearbest keeps the
	// moves likely within 5% of the best score (see docs/learning.md for
	// what it gives in a simulated tournament).
	DefaultLearnTolerance = 5
	// The book policies' largest values, for the ini and the UCI spins.
	MaxBookWidth     = 1000
	MaxBookMaxMoves  = 10000
	MaxBookMinWeight = 1 << 30
	// MaxBookMinLine bounds BookMinLine: a look-ahead deeper than this
	// would mostly measure the node budget, not the book.
	MaxBookMinLine = 100
)

// The values of BookLearnPolicy: PolyGlot 2.0's factor on the weights,
// or the author's weights times the chance of being near the best move
// (book.Options.NearBest).
const (
	LearnFactor   = "factor"
	LearnNearBest = "nearbest"
)

// BookFileSeparator separates the files of a BookFile list (priority order),
// on every system, so one ini works everywhere. PolyGlot reads ';' as the
// start of a comment, so it simply uses the first file of such a list.
const BookFileSeparator = ";"

// ErrUnknownKey is wrapped by ApplyPolyGlot for a name it does not know.
var ErrUnknownKey = errors.New("unknown key")

// ErrNoIniFile is wrapped by Load's error for an ini file that is not
// there.
var ErrNoIniFile = errors.New("no ini file")

// errIgnoredKey is apply's for a PolyGlot key polyproxy has no use for:
// a warning where it was given, not an error.
var errIgnoredKey = errors.New("a PolyGlot key with no effect in polyproxy, ignored")

// Config is everything polyproxy runs with, after the ini file and the command line.
type Config struct {
	IniPath string // "" with -noini
	BaseDir string // folder relative paths are resolved against (the ini's folder; cwd with -noini)

	EngineDir     string   // engine working directory (absolute after Load)
	EngineCommand string   // as written
	EngineArgv    []string // EngineCommand split into program + args (quotes honoured); program made absolute when it has a path or lies in EngineDir
	EngineName    string   // "" = engine's own name + " (polyproxy)"

	Log     bool
	LogFile string // absolute; default "polyglot.log" in BaseDir

	Book      bool
	BookFiles []string // priority order, absolute paths; BookFile=a.bin;b.bin
	// BookFilesWhite and BookFilesBlack, when not empty, replace BookFiles
	// in the positions where that side is to move (the side polyproxy
	// plays there): BookFileWhite, BookFileBlack.
	BookFilesWhite      []string
	BookFilesBlack      []string
	BookMode            book.Mode // BookRandom=false is book.Best, as in PolyGlot
	BookDepth           int       // full moves, from the FEN's move counter; 0 disables the book
	BookThreshold       int       // per mille; BookTreshold (PolyGlot spelling) or BookThreshold
	BookAvoidRepetition bool
	BookSeed            uint64 // 0 = a fresh seed in every process
	BookLearn           bool
	// BookLearnPGN is the PGN file the host writes the tournament's games
	// to: live learning takes every game's result from there ("": from
	// the evidence, or the GUI's result in CECP).
	BookLearnPGN    string
	BookLearnWeight bool // prefer moves with better learned results (off by default)
	// BookLearnPolicy is how BookLearnWeight chooses: LearnFactor or
	// LearnNearBest, within BookLearnTolerance percent of the best.
	BookLearnPolicy    string
	BookLearnTolerance int
	// Book policies, all off at 0 / false (see docs/book-policies.md).
	BookWidth     int // choose among the N highest weights
	BookMaxMoves  int // at most N book moves of ours per game
	BookMinWeight int // a position whose moves weigh less in all is out of book
	BookMinLine   int // play a book move only when the book goes on N plies after it
	// BookPonder lets the engine search a book position the GUI ponders
	// on; BookPonderAlways also lets it search after every book move, in
	// the opponent's time.
	BookPonder       bool
	BookPonderAlways bool
	// DroidFish's two choices over a CTG book's weights: never play into a
	// position marked to avoid in tournaments; play the main lines.
	BookCTGTournamentMode  bool
	BookCTGPreferMainLines bool
	// Live-learning adjudication: a game counts as decided when the engine
	// reports a score beyond LearnResignScore for LearnResignMoves moves in a row.
	LearnResignScore int // centipawns
	LearnResignMoves int
	// Resignation in CECP mode, as PolyGlot: with Resign on, polyproxy
	// resigns once the engine's score was at or below -ResignScore
	// centipawns (or mated) for ResignMoves of its moves in a row (moves
	// with no other legal move not counted); with QueenNeverResigns, never
	// while the engine has a queen.
	Resign            bool
	ResignMoves       int
	ResignScore       int // centipawns
	QueenNeverResigns bool
	// Draw offers in CECP mode, as PolyGlot: with HandleDraws on, one is
	// accepted when the engine's last score is at or below -ContemptScore.
	HandleDraws   bool
	ContemptScore int // centipawns
	// ShowPonder: CECP thinking output while the engine ponders, its line
	// led by the expected move in parentheses, as PolyGlot (on by default).
	ShowPonder bool
	// STFudge: CECP's st (an upper bound) reaches the engine as a UCI
	// movetime (an exact time) this many milliseconds shorter, as PolyGlot.
	STFudge int

	EngineOptions []Option // [Engine] section and -uci NAME=VALUE, in order; later duplicates (any case) override earlier
	Warnings      []string // unknown keys etc.: logged and told to the GUI, not fatal

	// origins say where each setting given was given (Origin), by the
	// setting's name in lower case.
	origins map[string]string
}

// Option is one engine option as the user wrote it.
type Option struct{ Name, Value string }

// Default returns the configuration with PolyGlot's defaults (the
// table's), relative paths resolved against baseDir (which should be
// absolute).
func Default(baseDir string) *Config {
	c := &Config{BaseDir: baseDir}
	for i := range settings {
		s := &settings[i]
		if err := s.set(s, c, s.Default, baseDir); err != nil {
			panic(fmt.Sprintf("config: the default of %s: %v", s.Name, err)) // the table's defaults are tested
		}
	}
	return c
}

// Clone returns a copy of c that shares no slice with it: whoever changes
// settings at run time (setoption) keeps a clone, so the configuration it
// was given never changes under its caller.
func (c *Config) Clone() *Config {
	d := *c
	d.EngineArgv = slices.Clone(c.EngineArgv)
	d.BookFiles = slices.Clone(c.BookFiles)
	d.BookFilesWhite = slices.Clone(c.BookFilesWhite)
	d.BookFilesBlack = slices.Clone(c.BookFilesBlack)
	d.EngineOptions = slices.Clone(c.EngineOptions)
	d.Warnings = slices.Clone(c.Warnings)
	d.origins = maps.Clone(c.origins)
	return &d
}

// Origin says where the setting named name (a [PolyGlot] key, any
// spelling) was given, for a message that names what to fix: "at
// /home/me/sf.ini:3", "by -ec on the command line"; "" when it keeps
// its default.
func (c *Config) Origin(name string) string {
	if s, ok := Lookup(name); ok {
		return c.origins[strings.ToLower(s.Name)]
	}
	return ""
}

// givenAt notes where the setting named name was given.
func (c *Config) givenAt(name, where string) {
	s, ok := Lookup(name)
	if !ok {
		return
	}
	if c.origins == nil {
		c.origins = map[string]string{}
	}
	c.origins[strings.ToLower(s.Name)] = where
}

// Usage is the command line Load accepts.
const Usage = "polyproxy [INI] [-noini] [-ec CMD] [-ed DIR] [-en NAME] [-log true|false] [-lf FILE] [-pg NAME=VALUE]... [-uci NAME=VALUE]..."

// CommandLineError is a mistake in PolyGlot's command line itself (a
// flag unknown or without its value, a second ini), not in the ini: the
// command line's usage helps with it.
type CommandLineError struct{ Err error }

func (e *CommandLineError) Error() string { return e.Err.Error() }
func (e *CommandLineError) Unwrap() error { return e.Err }

// LoadError is why Load gives no configuration, with the warnings of
// what it read before (a key or section it ignored): they may well be the
// cause, and the user is told them first.
type LoadError struct {
	Err      error
	Warnings []string
}

func (e *LoadError) Error() string { return e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// commandLine is PolyGlot's command line, parsed but not yet applied.
type commandLine struct {
	ini     string
	noIni   bool
	pg      []Option // -pg and its aliases, in order
	pgFlags []string // how each was given, for messages: "-wb", "-pg Book"
	uci     []Option
	warning []string
}

func parseCommandLine(args []string) (*commandLine, error) {
	cl := &commandLine{}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "-noini" {
			cl.noIni = true
			continue
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			if cl.ini != "" {
				return nil, fmt.Errorf("unexpected argument %q (the ini file is %q)", arg, cl.ini)
			}
			cl.ini = arg
			continue
		}
		key, isAlias := flags[arg]
		if !isAlias && arg != "-pg" && arg != "-uci" {
			names := []string{"-noini", "-pg", "-uci"}
			for f := range flags {
				names = append(names, f)
			}
			slices.Sort(names)
			return nil, fmt.Errorf("unknown flag %s%s", arg, suggest.DidYouMean(arg, names, func(n string) string { return n }))
		}
		if i+1 >= len(args) {
			return nil, fmt.Errorf("flag %s needs a value", arg)
		}
		i++
		value := args[i]
		if isAlias {
			cl.pg = append(cl.pg, Option{key, value})
			cl.pgFlags = append(cl.pgFlags, arg)
			continue
		}
		name, v, ok := strings.Cut(value, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("flag %s needs NAME=VALUE, got %q", arg, value)
		}
		if arg == "-pg" {
			cl.pg = append(cl.pg, Option{name, strings.TrimSpace(v)})
			cl.pgFlags = append(cl.pgFlags, "-pg "+name)
		} else {
			cl.uci = append(cl.uci, Option{name, strings.TrimSpace(v)})
		}
	}
	return cl, nil
}

// Load parses PolyGlot's command line (args as given after the program name):
//
//	[INI] [-noini] [-ec CMD] [-ed DIR] [-en NAME] [-log true|false] [-lf FILE] [-pg NAME=VALUE]... [-uci NAME=VALUE]...
//
// reads the ini (default ./polyglot.ini unless -noini), applies command-line
// values over the file, and validates. Errors are clear and name the
// file/key; one that comes after warnings is a *LoadError that has them.
func Load(args []string) (*Config, error) {
	cl, err := parseCommandLine(args)
	if err != nil {
		return nil, &CommandLineError{err}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("current directory: %w", err)
	}
	c := Default(cwd)
	if err := c.load(cl, cwd); err != nil {
		if len(c.Warnings) > 0 {
			return nil, &LoadError{Err: err, Warnings: c.Warnings}
		}
		return nil, err
	}
	return c, nil
}

// load reads the ini into c, then the command line over it.
func (c *Config) load(cl *commandLine, cwd string) error {
	// misplaced says where the ini has an EngineCommand polyproxy does
	// not read (under [Polyglott], say, or as EngineComand): the error
	// must name it.
	var misplaced string
	if !cl.noIni {
		path := cl.ini
		if path == "" {
			path = DefaultIniFile
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return fmt.Errorf("ini file %s: %w", path, err)
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return plainerr.Wrap(fmt.Sprintf("ini file %s not found (give an ini file as the first argument, or -noini -ec ENGINE)", abs), ErrNoIniFile)
			}
			return fmt.Errorf("ini file: %w", err)
		}
		*c = *Default(filepath.Dir(abs))
		c.IniPath = abs
		if misplaced, err = c.readIni(data); err != nil {
			return err
		}
	}

	// Command-line paths are relative to where polyproxy was started, as a shell user expects.
	for i, o := range cl.pg {
		if err := c.apply(o.Name, o.Value, cwd); err != nil {
			if errors.Is(err, errIgnoredKey) {
				c.warn("command line: %s: %v", cl.pgFlags[i], errIgnoredKey)
				continue
			}
			if errors.Is(err, ErrUnknownKey) {
				c.warn("command line: -pg %s: unknown PolyGlot key, ignored%s", o.Name, suggest.DidYouMean(o.Name, keyNames(), nil))
				continue
			}
			return fmt.Errorf("command line: %w", err)
		}
		c.givenAt(o.Name, "by "+cl.pgFlags[i]+" on the command line")
	}
	for _, o := range cl.uci {
		c.SetEngineOption(o.Name, o.Value)
	}
	if err := c.checkLogFile(); err != nil {
		where := "command line"
		if c.IniPath != "" {
			where = "ini file " + c.IniPath + " or command line"
		}
		return fmt.Errorf("%s: %w", where, err)
	}

	if strings.TrimSpace(c.EngineCommand) == "" {
		switch {
		case misplaced != "":
			return errors.New(misplaced)
		case c.IniPath == "":
			return errors.New("no EngineCommand: give the engine with -ec ENGINE (there is no ini file: -noini)")
		}
		return fmt.Errorf("%s: no EngineCommand: set EngineCommand = ENGINE under [PolyGlot], or give -ec ENGINE", c.IniPath)
	}
	return nil
}

// readIni applies an ini file's contents: [PolyGlot] keys in file order,
// then [Engine]. misplaced, when not "", says where an EngineCommand lies
// that polyproxy does not read (under a section it does not know, or
// [Engine]), for the error Load gives when none is read.
func (c *Config) readIni(data []byte) (misplaced string, err error) {
	f, err := ini.LoadSources(ini.LoadOptions{
		InsensitiveSections:         true,
		IgnoreInlineComment:         true, // keep ';' and '#' inside values
		IgnoreContinuation:          true, // a Windows path may end in '\'
		UnescapeValueCommentSymbols: true, // PolyGlot's "\;" and "\#"
		PreserveSurroundedQuote:     true, // EngineCommand needs its quotes; unquote does the rest
		KeyValueDelimiters:          "=",  // ':' belongs in Windows paths and option names
	}, data)
	if err != nil {
		return "", fmt.Errorf("ini file %s: %s", c.IniPath, describeIniError(err, data))
	}
	lines := scanIni(data)
	at := func(section, key string) string { return fmt.Sprintf("%s:%d", c.IniPath, lines.line(section, key)) }
	var engine []*ini.Key
	for _, s := range f.Sections() {
		switch s.Name() {
		case "polyglot":
			m, err := c.readPolyGlot(s, at)
			if err != nil {
				return "", err
			}
			if m != "" {
				misplaced = m
			}
		case "engine":
			engine = append(engine, s.Keys()...)
			if s.HasKey("EngineCommand") {
				misplaced = fmt.Sprintf("%s: EngineCommand is under [Engine], which holds the engine's own options: put it under [PolyGlot]", at(s.Name(), "EngineCommand"))
			}
		default:
			if m := c.unreadSection(s, lines, at); m != "" {
				misplaced = m
			}
		}
	}
	for _, k := range engine {
		c.SetEngineOption(k.Name(), unquote(k.Value()))
	}
	return misplaced, nil
}

// readPolyGlot applies the [PolyGlot] section's keys, in file order.
// misplaced, when not "", names a mistyped EngineCommand (EngineComand),
// for the error Load gives when none is read.
func (c *Config) readPolyGlot(s *ini.Section, at func(section, key string) string) (misplaced string, err error) {
	for _, k := range s.Keys() {
		where := at(s.Name(), k.Name())
		err := c.apply(k.Name(), k.Value(), c.BaseDir)
		switch {
		case err == nil:
			c.givenAt(k.Name(), "at "+where)
		case errors.Is(err, errIgnoredKey):
			c.warn("%s: [PolyGlot] %v", where, err)
		case errors.Is(err, ErrUnknownKey):
			hint := suggest.DidYouMean(k.Name(), keyNames(), nil)
			if hint == "" {
				hint = " (an engine's own option goes under [Engine])"
			}
			c.warn("%s: [PolyGlot] %s: unknown key, ignored%s", where, k.Name(), hint)
			if near, _ := suggest.Nearest(k.Name(), keyNames()); near == "EngineCommand" {
				misplaced = fmt.Sprintf("%s: no EngineCommand: [PolyGlot] %s is no key polyproxy knows; did you mean EngineCommand?", where, k.Name())
			}
		default:
			return "", fmt.Errorf("%s: [PolyGlot] %w", where, err)
		}
	}
	return misplaced, nil
}

// unreadSection warns of a section polyproxy does not read (a mistyped
// [PolyGlot], keys before any section), naming the one it likely is, and
// returns, when it holds an EngineCommand, where.
func (c *Config) unreadSection(s *ini.Section, lines iniLines, at func(section, key string) string) (misplaced string) {
	if len(s.Keys()) == 0 {
		return ""
	}
	if s.Name() == strings.ToLower(ini.DefaultSection) {
		c.warn("%s: keys before any section ignored: put them under [PolyGlot] or [Engine]", at(s.Name(), s.Keys()[0].Name()))
		if s.HasKey("EngineCommand") {
			return fmt.Sprintf("%s: EngineCommand comes before any section: put [PolyGlot] above it", at(s.Name(), "EngineCommand"))
		}
		return ""
	}
	name := "[" + lines.spelling(s.Name()) + "]"
	hint := suggest.DidYouMean(s.Name(), []string{"PolyGlot", "Engine"}, func(n string) string { return "[" + n + "]" })
	c.warn("%s: section %s ignored (polyproxy reads [PolyGlot] and [Engine])%s", at(s.Name(), ""), name, hint)
	if s.HasKey("EngineCommand") {
		if hint == "" {
			hint = "; put it under [PolyGlot]"
		}
		return fmt.Sprintf("%s: EngineCommand is under %s, a section polyproxy does not read%s", at(s.Name(), "EngineCommand"), name, hint)
	}
	return ""
}

// keyNames are the [PolyGlot] keys polyproxy knows, PolyGlot's it
// ignores included: what a mistyped key is likely to be.
func keyNames() []string {
	var names []string
	for i := range settings {
		names = append(names, settings[i].Name)
		names = append(names, settings[i].Aliases...)
	}
	for _, k := range ignoredKeys {
		names = append(names, k.name)
	}
	return names
}

// iniLines are where an ini file's sections and keys are, for messages:
// ini.v1 does not say. Names are in lower case; a key's line is its last
// (the value read).
type iniLines map[string]*iniSection

type iniSection struct {
	spelling string // as written
	line     int
	keys     map[string]int
}

// scanIni finds the lines of data's sections and keys as ini.v1 reads
// them: "[name]" starts a section, "key = value" is a key, lines starting
// with ';' or '#' are comments.
func scanIni(data []byte) iniLines {
	lines := iniLines{}
	cur := strings.ToLower(ini.DefaultSection)
	lines[cur] = &iniSection{spelling: ini.DefaultSection, line: 1, keys: map[string]int{}}
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || line[0] == ';' || line[0] == '#':
		case line[0] == '[':
			name := strings.TrimSpace(strings.TrimSuffix(line[1:], "]"))
			cur = strings.ToLower(name)
			if lines[cur] == nil {
				lines[cur] = &iniSection{spelling: name, line: i + 1, keys: map[string]int{}}
			}
		default:
			if key, _, ok := strings.Cut(line, "="); ok {
				lines[cur].keys[strings.ToLower(strings.TrimSpace(key))] = i + 1
			}
		}
	}
	return lines
}

// line is the line of key in section, or of the section's header for
// key "" or a key not found.
func (l iniLines) line(section, key string) int {
	s := l[strings.ToLower(section)]
	if s == nil {
		return 1
	}
	if n, ok := s.keys[strings.ToLower(key)]; ok && key != "" {
		return n
	}
	return s.line
}

// spelling is a section's name as written.
func (l iniLines) spelling(section string) string {
	if s := l[strings.ToLower(section)]; s != nil {
		return s.spelling
	}
	return section
}

// describeIniError turns ini.v1's errors, which quote the raw line with its
// line break, into one line that names the line number where it can.
func describeIniError(err error, data []byte) string {
	var raw, what string
	var noDelimiter ini.ErrDelimiterNotFound
	var emptyKey ini.ErrEmptyKeyName
	switch {
	case errors.As(err, &noDelimiter):
		raw, what = noDelimiter.Line, "no '=' in"
	case errors.As(err, &emptyKey):
		raw, what = emptyKey.Line, "no key name before '=' in"
	default:
		return strings.Join(strings.Fields(err.Error()), " ")
	}
	raw = strings.TrimSpace(raw)
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == raw {
			return fmt.Sprintf("line %d: %s %q", i+1, what, raw)
		}
	}
	return fmt.Sprintf("%s %q", what, raw)
}

// SetEngineOption adds an engine option, or replaces the value of one with
// the same name in any case (keeping its place, taking the new spelling).
func (c *Config) SetEngineOption(name, value string) {
	for i := range c.EngineOptions {
		if strings.EqualFold(c.EngineOptions[i].Name, name) {
			c.EngineOptions[i] = Option{name, value}
			return
		}
	}
	c.EngineOptions = append(c.EngineOptions, Option{name, value})
}

func (c *Config) warn(format string, args ...any) {
	c.Warnings = append(c.Warnings, fmt.Sprintf(format, args...))
}

// ApplyPolyGlot sets one [PolyGlot] key by name (case-insensitive, PolyGlot
// spellings), as from the ini or -pg, and is also what
// `setoption name Polyglot <Name> value <V>` uses at run time. Relative paths
// are resolved against BaseDir. PolyGlot keys polyproxy does not use add a
// warning and return nil; names nobody knows return an error wrapping ErrUnknownKey.
//
// A value that would make the log file one of the files polyproxy reads
// is refused and changes nothing.
func (c *Config) ApplyPolyGlot(name, value string) error {
	d := c.Clone()
	if err := d.apply(name, value, c.BaseDir); errors.Is(err, errIgnoredKey) {
		c.warn("%v", err)
		return nil
	} else if err != nil {
		return err
	}
	if err := d.checkLogFile(); err != nil {
		return fmt.Errorf("%s = %q: %w", name, value, err)
	}
	*c = *d
	return nil
}

// checkLogFile refuses a log file that is the ini file or one of the
// books, under any name: the log is appended to, so the ini would grow
// lines that make it unreadable at the next start, and a book a torn
// entry after its last.
func (c *Config) checkLogFile() error {
	if c.LogFile == "" {
		return nil // no log: nothing to compare, and no path to resolve
	}
	for _, f := range []struct {
		what  string
		files []string
	}{
		{"the ini file", []string{c.IniPath}},
		{"BookFile", c.BookFiles},
		{"BookFileWhite", c.BookFilesWhite},
		{"BookFileBlack", c.BookFilesBlack},
	} {
		for _, p := range f.files {
			if p != "" && paths.Same(c.LogFile, p) {
				return fmt.Errorf("LogFile %s is %s %s: the log would be appended to it; give another LogFile", c.LogFile, f.what, p)
			}
		}
	}
	return nil
}

func (c *Config) apply(name, value, base string) error {
	value = strings.TrimSpace(value)
	s, ok := Lookup(name)
	if !ok {
		if ignored[strings.ToLower(strings.TrimSpace(name))] {
			return fmt.Errorf("%s: %w", name, errIgnoredKey)
		}
		return fmt.Errorf("%s: %w", name, ErrUnknownKey)
	}
	if !s.KeepQuotes {
		value = unquote(value)
	}
	if err := s.set(s, c, value, base); err != nil {
		return fmt.Errorf("%s = %q: %w", name, value, err)
	}
	return nil
}

// ParseBool reads a boolean as written in ini files: true/false, yes/no,
// on/off, 1/0, in any case. (PolyGlot itself takes only true and 1 as true.)
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "on", "1":
		return true, nil
	case "false", "no", "off", "0":
		return false, nil
	}
	return false, errors.New("want true or false")
}

// engineArgv splits an EngineCommand and resolves its program against engineDir.
func engineArgv(command, engineDir string) ([]string, error) {
	if strings.TrimSpace(command) == "" {
		return nil, nil
	}
	windows := runtime.GOOS == "windows"
	argv, err := splitCommand(command, windows)
	if err != nil {
		return nil, err
	}
	argv[0] = resolveProgram(engineDir, argv[0], windows)
	return argv, nil
}

// resolveProgram makes the engine program absolute when it has a path
// (relative to EngineDir, where PolyGlot runs it) or when a bare name is a
// file in EngineDir (what the user put there is what they mean; on Windows
// CreateProcess finds it there too). Otherwise the bare name is left for a
// PATH search.
func resolveProgram(engineDir, program string, windows bool) string {
	if strings.ContainsRune(program, '/') || (windows && strings.ContainsRune(program, '\\')) {
		return resolve(engineDir, program)
	}
	candidates := []string{program}
	if windows && !strings.EqualFold(filepath.Ext(program), ".exe") {
		candidates = append(candidates, program+".exe")
	}
	for _, name := range candidates {
		p := filepath.Join(engineDir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return program
}

// resolve makes p absolute against base.
func resolve(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// unquote removes one pair of matching quotes enclosing the whole value.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] &&
		strings.IndexByte(s[1:len(s)-1], s[0]) < 0 {
		return s[1 : len(s)-1]
	}
	return s
}

// splitCommand splits a command line into program and arguments, without
// any shell expansion ($VAR, ~ and globs are kept as written).
//
// Unix rules (a subset of the shell's, as PolyGlot passes EngineCommand to
// wordexp): blanks separate words; '...' is literal; inside "..." a backslash
// escapes only " \ $ and `; outside quotes a backslash escapes any character.
//
// Windows rules (as CreateProcess and the C runtime split a command line):
// blanks separate words outside "..."; backslashes are literal unless they
// precede a '"' (2n backslashes + '"' give n backslashes and a quote toggle;
// 2n+1 give n backslashes and a literal '"'); single quotes are literal, so
// C:\Users\O'Brien works.
func splitCommand(s string, windows bool) ([]string, error) {
	var (
		words   []string
		word    strings.Builder
		inWord  bool
		inQuote byte // 0, '"' or '\''
	)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case windows && ch == '\\':
			n := 0
			for i < len(s) && s[i] == '\\' {
				n++
				i++
			}
			if i < len(s) && s[i] == '"' {
				word.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					word.WriteByte('"')
				} else {
					i-- // let the quote toggle
				}
			} else {
				word.WriteString(strings.Repeat(`\`, n))
				i--
			}
			inWord = true
		case windows && ch == '"':
			inQuote ^= '"'
			inWord = true
		case windows:
			if inQuote == 0 && (ch == ' ' || ch == '\t') {
				if inWord {
					words = append(words, word.String())
					word.Reset()
					inWord = false
				}
				continue
			}
			word.WriteByte(ch)
			inWord = true
		case inQuote == '\'':
			if ch == '\'' {
				inQuote = 0
			} else {
				word.WriteByte(ch)
			}
		case inQuote == '"':
			switch {
			case ch == '"':
				inQuote = 0
			case ch == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0:
				i++
				word.WriteByte(s[i])
			default:
				word.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			inQuote = ch
			inWord = true
		case ch == '\\':
			if i+1 < len(s) {
				i++
			}
			word.WriteByte(s[i])
			inWord = true
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteByte(ch)
			inWord = true
		}
	}
	if inQuote != 0 {
		return nil, fmt.Errorf("unterminated %c quote", inQuote)
	}
	if inWord {
		words = append(words, word.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}
