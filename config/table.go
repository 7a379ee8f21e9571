package config

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book"
)

// Kind is how a setting's value is written, and the UCI option type it
// is offered as.
type Kind int

// The kinds. polyproxy has no button of its own.
const (
	Check  Kind = iota + 1 // true or false (ParseBool's spellings)
	Spin                   // a whole number from Min to Max
	Combo                  // one of Vars
	String                 // text: a name, a command, a ';' list of files, a seed
)

var kindNames = [...]string{Check: "check", Spin: "spin", Combo: "combo", String: "string"}

// String is the kind as UCI names the option type.
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Front is a GUI protocol that offers settings as options while the
// proxy runs.
type Front uint8

// The fronts.
const (
	UCI  Front = 1 << iota // "option name Polyglot X ...", setoption
	CECP                   // feature option="Polyglot X -check 1", option X=V
)

// Invalidates is what a change of settings makes stale in a running
// proxy: each bit names what must be redone. Settings read afresh at
// every use (BookDepth, the resignation rules...) invalidate nothing.
type Invalidates uint8

// What a change invalidates.
const (
	// ReopenBooks: the book files in use (BooksFor, BooksInUse) changed,
	// or the book was switched on or off: close the books and open them
	// again.
	ReopenBooks Invalidates = 1 << iota
	// RebuildChooser: how a move is chosen changed: a new book.Chooser
	// from ChooserOptions and BookSeed.
	RebuildChooser
	// ResendLearning: what learning runs with changed: LearnSettings to
	// the learning session again.
	ResendLearning
	// RecheckWarm: BookPonder's warm search may no longer be allowed:
	// stop one that runs when Book, BookPonder or BookPonderAlways say so.
	RecheckWarm
	// ReopenLog: Log or LogFile changed: open the log again.
	ReopenLog
)

var invalidatesNames = []string{"books", "chooser", "learning", "warm", "log"}

// String lists the bits by name ("books|learning"); "none" for 0.
func (i Invalidates) String() string {
	var names []string
	for b, name := range invalidatesNames {
		if i&(1<<b) != 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "|")
}

// Setting is one of polyproxy's own settings, declared once in the
// table below: every view of it (the ini's [PolyGlot] key, PolyGlot's
// command line, the book tools' flags, the UCI option and the CECP
// feature, change detection) is derived from its declaration.
type Setting struct {
	// Name is the [PolyGlot] key in PolyGlot's spelling, and the name of
	// the option a GUI sees after OptionPrefix.
	Name string
	// Aliases are other [PolyGlot] keys that set it (our spelling of a
	// PolyGlot misspelling).
	Aliases []string
	// Flag is PolyGlot's command-line flag for it ("-ec"); every key is
	// also set by -pg NAME=VALUE.
	Flag string
	// ToolFlag is the flag the book tools (probe) take for it, without
	// the dash; "" when they take none.
	ToolFlag string
	// Usage says what it does, in a few words: a tool flag's help.
	Usage string
	Kind  Kind
	// Default is the value before the ini and the command line, written
	// as in the ini (relative paths against the ini's folder).
	Default string
	// Min and Max bound a Spin.
	Min, Max int
	// SpinMax, when above 0, is the top of the range a GUI is shown when
	// the value is below it: a slider up to a million full moves helps
	// nobody. A value above it is shown as its own top.
	SpinMax int
	// Vars are a Combo's values.
	Vars []string
	// Fronts offer it as an option while the proxy runs; 0: only the
	// ini and the command line set it.
	Fronts Front
	// Invalidates is what a change of its value makes stale.
	Invalidates Invalidates
	// Reload: set again to the same value, it still invalidates, as
	// PolyGlot reopens a BookFile set again (the way to reload a book
	// rewritten on disk).
	Reload bool
	// Rule is the rule of choosing it sets (book.RuleNone for none).
	Rule book.Rule
	// KeepQuotes: quotes around the whole value are kept (they group the
	// words of a command).
	KeepQuotes bool
	// Reads: it changes how a format reads a book's weights
	// (ReadOptions), so every book tool takes its ToolFlag (ReadFlags),
	// not only probe.
	Reads bool

	access
}

// access parses, stores and reads one setting: set parses v and stores
// it in c, relative paths resolved against base ("" keeps them
// relative); get is the value as it would be written in an ini, so that
// set(get(c)) changes nothing.
type access struct {
	set func(s *Setting, c *Config, v, base string) error
	get func(c *Config) string
}

// Value is s's value in c, written as in an ini.
func (s *Setting) Value(c *Config) string { return s.get(c) }

// Offered tells whether front offers s as an option.
func (s *Setting) Offered(f Front) bool { return s.Fronts&f != 0 }

// The table's value types: each parses and stores one kind of field.

func boolean(field func(*Config) *bool) access {
	return access{func(_ *Setting, c *Config, v, _ string) error {
		b, err := ParseBool(v)
		if err == nil {
			*field(c) = b
		}
		return err
	}, func(c *Config) string {
		return strconv.FormatBool(*field(c))
	}}
}

func integer(field func(*Config) *int) access {
	return access{func(s *Setting, c *Config, v, _ string) error {
		n, err := parseSpin(s, v)
		if err == nil {
			*field(c) = n
		}
		return err
	}, func(c *Config) string {
		return strconv.Itoa(*field(c))
	}}
}

// parseSpin reads a Spin's value within its bounds.
func parseSpin(s *Setting, v string) (int, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < int64(s.Min) || n > int64(s.Max) {
		return 0, fmt.Errorf("want a whole number from %d to %d", s.Min, s.Max)
	}
	return int(n), nil
}

func text(field func(*Config) *string) access {
	return access{func(_ *Setting, c *Config, v, _ string) error {
		*field(c) = v
		return nil
	}, func(c *Config) string {
		return *field(c)
	}}
}

// optionalFile is a file name, "" for none.
func optionalFile(field func(*Config) *string) access {
	return access{func(_ *Setting, c *Config, v, base string) error {
		if v = unquote(strings.TrimSpace(v)); v != "" {
			v = resolve(base, v)
		}
		*field(c) = v
		return nil
	}, func(c *Config) string {
		return *field(c)
	}}
}

func fileList(field func(*Config) *[]string) access {
	return access{func(_ *Setting, c *Config, v, base string) error {
		var files []string
		for _, f := range strings.Split(v, BookFileSeparator) {
			if f = unquote(strings.TrimSpace(f)); f != "" {
				files = append(files, resolve(base, f))
			}
		}
		*field(c) = files
		return nil
	}, func(c *Config) string {
		return strings.Join(*field(c), BookFileSeparator)
	}}
}

// settings is the table: every setting of polyproxy, in the order the
// options are offered (those no front offers first).
var settings = []Setting{
	{Name: "EngineCommand", Flag: "-ec", Kind: String, KeepQuotes: true, access: engineCommand},
	{Name: "EngineDir", Flag: "-ed", Kind: String, Default: ".", access: engineDir},
	{Name: "EngineName", Flag: "-en", Kind: String, access: text(func(c *Config) *string { return &c.EngineName })},
	{Name: "Book", Kind: Check, Default: "false", Fronts: UCI | CECP,
		Invalidates: ReopenBooks | ResendLearning | RecheckWarm,
		access:      boolean(func(c *Config) *bool { return &c.Book })},
	{Name: "BookFile", Kind: String, Default: DefaultBookFile, Fronts: UCI | CECP,
		ToolFlag: "book", Usage: "book `file`s to read, in priority order, separated by ';'",
		Invalidates: ReopenBooks | ResendLearning, Reload: true,
		access: fileList(func(c *Config) *[]string { return &c.BookFiles })},
	{Name: "BookDepth", Kind: Spin, Default: strconv.Itoa(DefaultBookDepth), Min: 0, Max: 1 << 20, SpinMax: 1000,
		Fronts: UCI | CECP, ToolFlag: "book-depth", Usage: "the book plays up to full move `N` (0: none)",
		Invalidates: RebuildChooser, Rule: book.RuleDepth,
		access: integer(func(c *Config) *int { return &c.BookDepth })},
	{Name: "BookTreshold", Aliases: []string{"BookThreshold"}, Kind: Spin,
		Default: strconv.Itoa(DefaultBookThreshold), Min: 0, Max: 1000, Fronts: UCI | CECP,
		ToolFlag: "threshold", Usage: "a move is eligible only above this share of its position's weight, in `per mille`",
		Invalidates: RebuildChooser, Rule: book.RuleThreshold,
		access: integer(func(c *Config) *int { return &c.BookThreshold })},
	{Name: "BookRandom", Kind: Check, Default: "true", Fronts: UCI | CECP, Invalidates: RebuildChooser, access: bookRandom},
	{Name: "BookMode", Kind: Combo, Default: book.Weighted.String(), Vars: modeNames(), Fronts: UCI | CECP,
		ToolFlag: "mode", Usage: "how a move is picked among the eligible ones: `MODE` weighted, best or uniform",
		Invalidates: RebuildChooser, access: bookMode},
	{Name: "BookAvoidRepetition", Kind: Check, Default: "false", Fronts: UCI | CECP,
		Invalidates: RebuildChooser, Rule: book.RuleRepetition,
		access: boolean(func(c *Config) *bool { return &c.BookAvoidRepetition })},
	{Name: "BookLearn", Kind: Check, Default: "false", Fronts: UCI | CECP, Invalidates: ResendLearning,
		access: boolean(func(c *Config) *bool { return &c.BookLearn })},
	{Name: "BookLearnPGN", Kind: String, Fronts: UCI | CECP, Invalidates: ResendLearning, access: optionalFile(func(c *Config) *string { return &c.BookLearnPGN })},
	{Name: "BookLearnWeight", Kind: Check, Default: "false", Fronts: UCI | CECP,
		ToolFlag: "learn-weight", Usage: "choose by the weights learned results give",
		Invalidates: RebuildChooser,
		access:      boolean(func(c *Config) *bool { return &c.BookLearnWeight })},
	{Name: "BookLearnPolicy", Kind: Combo, Default: LearnFactor, Vars: []string{LearnFactor, LearnNearBest}, Fronts: UCI | CECP,
		ToolFlag: "learn-policy", Usage: "how BookLearnWeight chooses by learned results: `POLICY` factor (PolyGlot 2.0's) or nearbest",
		Invalidates: RebuildChooser,
		access:      learnPolicy},
	{Name: "BookLearnTolerance", Kind: Spin, Default: strconv.Itoa(DefaultLearnTolerance), Min: 0, Max: 100, Fronts: UCI | CECP,
		ToolFlag: "learn-tolerance", Usage: "nearbest keeps moves likely within `N` percent of the best move's score",
		Invalidates: RebuildChooser,
		access:      integer(func(c *Config) *int { return &c.BookLearnTolerance })},
	// A string, not a spin: GUIs keep spins in 32 or 64 signed bits.
	{Name: "BookSeed", Kind: String, Default: "0", Fronts: UCI | CECP, Invalidates: RebuildChooser, access: bookSeed},
	{Name: "BookFileWhite", Kind: String, Fronts: UCI | CECP,
		ToolFlag: "book-white", Usage: "book `file`s for positions with White to move, replacing -book there",
		Invalidates: ReopenBooks | ResendLearning,
		access:      fileList(func(c *Config) *[]string { return &c.BookFilesWhite })},
	{Name: "BookFileBlack", Kind: String, Fronts: UCI | CECP,
		ToolFlag: "book-black", Usage: "book `file`s for positions with Black to move, replacing -book there",
		Invalidates: ReopenBooks | ResendLearning,
		access:      fileList(func(c *Config) *[]string { return &c.BookFilesBlack })},
	{Name: "BookWidth", Kind: Spin, Default: "0", Min: 0, Max: MaxBookWidth, Fronts: UCI | CECP,
		ToolFlag: "width", Usage: "only the `N` highest weights are eligible (0: off)",
		Invalidates: RebuildChooser, Rule: book.RuleWidth,
		access: integer(func(c *Config) *int { return &c.BookWidth })},
	{Name: "BookMaxMoves", Kind: Spin, Default: "0", Min: 0, Max: MaxBookMaxMoves, Fronts: UCI | CECP,
		ToolFlag: "max-moves", Usage: "at most `N` book moves of ours a game, counted along -moves (0: no limit)",
		Invalidates: RebuildChooser, Rule: book.RuleMaxMoves,
		access: integer(func(c *Config) *int { return &c.BookMaxMoves })},
	{Name: "BookMinWeight", Kind: Spin, Default: "0", Min: 0, Max: MaxBookMinWeight, Fronts: UCI | CECP,
		ToolFlag: "min-weight", Usage: "a position whose entries above the threshold weigh less than `N` in all is out of book (0: off)",
		Invalidates: RebuildChooser, Rule: book.RuleMinWeight,
		access: integer(func(c *Config) *int { return &c.BookMinWeight })},
	{Name: "BookMinLine", Kind: Spin, Default: "0", Min: 0, Max: MaxBookMinLine, Fronts: UCI | CECP,
		ToolFlag: "min-line", Usage: "a move is eligible only when the book goes on `N` plies after it (0: off)",
		Invalidates: RebuildChooser, Rule: book.RuleMinLine,
		access: integer(func(c *Config) *int { return &c.BookMinLine })},
	{Name: "BookPonder", Kind: Check, Default: "false", Fronts: UCI | CECP, Invalidates: RecheckWarm,
		access: boolean(func(c *Config) *bool { return &c.BookPonder })},
	{Name: "BookPonderAlways", Kind: Check, Default: "false", Fronts: UCI | CECP, Invalidates: RecheckWarm,
		access: boolean(func(c *Config) *bool { return &c.BookPonderAlways })},
	{Name: "BookCTGTournamentMode", Kind: Check, Default: "false", Fronts: UCI | CECP,
		ToolFlag: "ctg-tournament-mode", Usage: "a CTG book's moves into positions marked to avoid in tournaments weigh 0", Reads: true,
		Invalidates: ReopenBooks,
		access:      boolean(func(c *Config) *bool { return &c.BookCTGTournamentMode })},
	{Name: "BookCTGPreferMainLines", Kind: Check, Default: "false", Fronts: UCI | CECP,
		ToolFlag: "ctg-prefer-main-lines", Usage: "a CTG book's moves into main-line positions, and only moves, weigh a million times more", Reads: true,
		Invalidates: ReopenBooks,
		access:      boolean(func(c *Config) *bool { return &c.BookCTGPreferMainLines })},
	{Name: "LearnResignScore", Kind: Spin, Default: strconv.Itoa(DefaultLearnResignScore), Min: 1, Max: 100000,
		Fronts: UCI | CECP, Invalidates: ResendLearning,
		access: integer(func(c *Config) *int { return &c.LearnResignScore })},
	{Name: "LearnResignMoves", Kind: Spin, Default: strconv.Itoa(DefaultLearnResignMoves), Min: 1, Max: 1000,
		Fronts: UCI | CECP, Invalidates: ResendLearning,
		access: integer(func(c *Config) *int { return &c.LearnResignMoves })},
	{Name: "Log", Flag: "-log", Kind: Check, Default: "false", Fronts: UCI | CECP, Invalidates: ReopenLog,
		access: boolean(func(c *Config) *bool { return &c.Log })},
	{Name: "LogFile", Flag: "-lf", Kind: String, Default: DefaultLogFile, Fronts: UCI | CECP, Invalidates: ReopenLog,
		access: logFile},
	// Resignation, draw offers, the thinking shown while pondering and
	// st's margin: a UCI GUI does them for its engine, so only CECP
	// offers them.
	{Name: "Resign", Kind: Check, Default: "false", Fronts: CECP,
		access: boolean(func(c *Config) *bool { return &c.Resign })},
	{Name: "ResignMoves", Kind: Spin, Default: strconv.Itoa(DefaultResignMoves), Min: 0, Max: 10000, Fronts: CECP,
		access: integer(func(c *Config) *int { return &c.ResignMoves })},
	{Name: "ResignScore", Kind: Spin, Default: strconv.Itoa(DefaultResignScore), Min: 0, Max: 10000, Fronts: CECP,
		access: integer(func(c *Config) *int { return &c.ResignScore })},
	{Name: "QueenNeverResigns", Kind: Check, Default: "true", Fronts: CECP,
		access: boolean(func(c *Config) *bool { return &c.QueenNeverResigns })},
	{Name: "HandleDraws", Kind: Check, Default: "false", Fronts: CECP,
		access: boolean(func(c *Config) *bool { return &c.HandleDraws })},
	{Name: "ContemptScore", Kind: Spin, Default: strconv.Itoa(DefaultContemptScore), Min: 0, Max: 10000, Fronts: CECP,
		access: integer(func(c *Config) *int { return &c.ContemptScore })},
	{Name: "ShowPonder", Kind: Check, Default: "true", Fronts: CECP,
		access: boolean(func(c *Config) *bool { return &c.ShowPonder })},
	{Name: "STFudge", Kind: Spin, Default: strconv.Itoa(DefaultSTFudge), Min: 0, Max: 1000, Fronts: CECP,
		access: integer(func(c *Config) *int { return &c.STFudge })},
}

// The settings with a value of their own kind.
var (
	// engineCommand and engineDir split the command anew: its program
	// is resolved against the engine's folder.
	engineCommand = access{
		set: func(_ *Setting, c *Config, v, _ string) error {
			argv, err := engineArgv(v, c.EngineDir)
			if err == nil {
				c.EngineCommand, c.EngineArgv = v, argv
			}
			return err
		},
		get: func(c *Config) string { return c.EngineCommand },
	}
	engineDir = access{
		set: func(_ *Setting, c *Config, v, base string) error {
			if v == "" {
				v = "."
			}
			dir := resolve(base, v)
			argv, err := engineArgv(c.EngineCommand, dir)
			if err == nil {
				c.EngineDir, c.EngineArgv = dir, argv
			}
			return err
		},
		get: func(c *Config) string { return c.EngineDir },
	}
	// bookRandom false is PolyGlot's highest weight (best); true keeps
	// uniform and switches best back to weighted.
	bookRandom = access{
		set: func(_ *Setting, c *Config, v, _ string) error {
			random, err := ParseBool(v)
			switch {
			case err != nil:
				return err
			case !random:
				c.BookMode = book.Best
			case c.BookMode == book.Best:
				c.BookMode = book.Weighted
			}
			return nil
		},
		get: func(c *Config) string { return strconv.FormatBool(c.BookMode != book.Best) },
	}
	bookMode = access{
		set: func(_ *Setting, c *Config, v, _ string) error {
			m, err := book.ParseMode(v)
			if err == nil {
				c.BookMode = m
			}
			return err
		},
		get: func(c *Config) string { return c.BookMode.String() },
	}
	learnPolicy = access{
		set: func(_ *Setting, c *Config, v, _ string) error {
			for _, p := range []string{LearnFactor, LearnNearBest} {
				if strings.EqualFold(strings.TrimSpace(v), p) {
					c.BookLearnPolicy = p
					return nil
				}
			}
			return fmt.Errorf("want %s or %s", LearnFactor, LearnNearBest)
		},
		get: func(c *Config) string { return c.BookLearnPolicy },
	}
	bookSeed = access{
		set: func(_ *Setting, c *Config, v, _ string) error {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return errors.New("want a whole number from 0 (a fresh seed every run) to 18446744073709551615")
			}
			c.BookSeed = n
			return nil
		},
		get: func(c *Config) string { return strconv.FormatUint(c.BookSeed, 10) },
	}
	logFile = access{
		set: func(_ *Setting, c *Config, v, base string) error {
			if v == "" {
				return errors.New("want a file name")
			}
			c.LogFile = resolve(base, v)
			return nil
		},
		get: func(c *Config) string { return c.LogFile },
	}
)

func modeNames() []string {
	var names []string
	for _, m := range book.Modes() {
		names = append(names, m.String())
	}
	return names
}

// ignoredKeys are PolyGlot 2.0.4 keys with no meaning in polyproxy
// (mostly WinBoard mode), with the flag PolyGlot has for one: a PolyGlot
// ini or command line that sets them must still work.
var ignoredKeys = []struct{ name, flag string }{
	{"UCI", ""}, {"ShowTbHits", ""}, {"ScoreWhite", ""},
	{"KibitzMove", ""}, {"KibitzPV", ""}, {"KibitzCommand", ""}, {"KibitzDelay", ""}, {"KibitzInterval", ""},
	{"MateScore", ""}, {"UseNice", ""}, {"NiceValue", ""}, {"Affinity", ""}, {"OnlyWbOptions", "-wb"},
	{"UCIVersion", ""}, {"CanPonder", ""}, {"SyncStop", ""}, {"PromoteWorkAround", ""}, {"RepeatPV", ""},
	{"Save", ""}, {"SettingsFile", ""}, {"SettingsDir", ""}, {"Chess960", ""}, {"Fen", ""}, {"OnlyBook", ""},
	{"WbWorkArounds", ""}, {"WbWorkArounds2", ""}, {"WbWorkArounds3", ""}, {"Debug", ""},
}

// byKey finds a setting by its key or an alias, in lower case; ignored
// holds the ignored keys in lower case; flags maps PolyGlot's flags to
// the key they set.
var byKey, ignored, flags = indexTable()

func indexTable() (map[string]*Setting, map[string]bool, map[string]string) {
	byKey, ignored, flags := map[string]*Setting{}, map[string]bool{}, map[string]string{}
	for i := range settings {
		s := &settings[i]
		for _, k := range append([]string{s.Name}, s.Aliases...) {
			byKey[strings.ToLower(k)] = s
		}
		if s.Flag != "" {
			flags[s.Flag] = s.Name
		}
	}
	for _, k := range ignoredKeys {
		ignored[strings.ToLower(k.name)] = true
		if k.flag != "" {
			flags[k.flag] = k.name
		}
	}
	return byKey, ignored, flags
}

// Settings is the table: every setting of polyproxy, in the order the
// options are offered. The copy may be read freely; Lookup gives the
// table's own entry.
func Settings() []Setting { return slices.Clone(settings) }

// Lookup finds a setting by its [PolyGlot] key or an alias, in any case.
func Lookup(name string) (*Setting, bool) {
	s, ok := byKey[strings.ToLower(strings.TrimSpace(name))]
	return s, ok
}
