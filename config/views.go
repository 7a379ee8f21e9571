package config

// The views of the table a running proxy and the book tools use: the
// options a GUI is offered, setoption, change detection, the tools'
// flags, and what the book, the chooser and learning are built from.

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/book/formats"
	"github.com/polyproxy/polyproxy/uci"
)

// OptionPrefix starts the name of each of polyproxy's options as a GUI
// sees it, as PolyGlot names them ("Polyglot BookFile").
const OptionPrefix = "Polyglot "

// Descriptor is one setting as a GUI is offered it, with the current
// value as its default.
type Descriptor struct {
	Name    string // OptionPrefix + the setting's name
	Kind    Kind
	Default string   // as the setting is written; "" is an empty string
	Min     int      // a Spin's range
	Max     int      // (widened to Default when SpinMax is below it)
	Vars    []string // a Combo's values
	// Files: a String that names files, which CECP offers with a file
	// chooser.
	Files bool
}

// Options are the settings front offers, in the table's order, with
// c's values as defaults.
func (c *Config) Options(front Front) []Descriptor {
	var out []Descriptor
	for i := range settings {
		s := &settings[i]
		if !s.Offered(front) {
			continue
		}
		d := Descriptor{Name: OptionPrefix + s.Name, Kind: s.Kind, Default: s.get(c), Min: s.Min, Max: s.Max,
			Vars: slices.Clone(s.Vars), Files: s.Kind == String && strings.Contains(strings.ToLower(s.Name), "file")}
		if s.Kind == Spin && s.SpinMax > 0 {
			n, _ := strconv.Atoi(d.Default)
			d.Max = max(n, s.SpinMax)
		}
		out = append(out, d)
	}
	return out
}

// UCI is d as a UCI option; its String() is the "option name ..." line.
func (d Descriptor) UCI() uci.Option {
	o := uci.Option{Name: d.Name, Type: d.Kind.String(), Default: d.Default, Vars: slices.Clone(d.Vars)}
	switch d.Kind {
	case Spin:
		o.Min, o.Max = strconv.Itoa(d.Min), strconv.Itoa(d.Max)
	case String:
		if o.Default == "" {
			o.Default = "<empty>" // how UCI writes an empty string
		}
	}
	return o
}

// CECP is d as the value of a CECP option feature, without its quotes:
// `Polyglot Book -check 1`, `Polyglot BookMode -combo *weighted /// best`.
func (d Descriptor) CECP() string {
	switch d.Kind {
	case Check:
		v := "0"
		if b, _ := ParseBool(d.Default); b {
			v = "1"
		}
		return d.Name + " -check " + v
	case Spin:
		return d.Name + " -spin " + d.Default + " " + strconv.Itoa(d.Min) + " " + strconv.Itoa(d.Max)
	case Combo:
		vars := make([]string, len(d.Vars))
		for i, v := range d.Vars {
			if v == d.Default {
				v = "*" + v
			}
			vars[i] = v
		}
		return d.Name + " -combo " + strings.Join(vars, " /// ")
	case String:
		if d.Files {
			return d.Name + " -file " + d.Default
		}
	}
	return d.Name + " -string " + d.Default
}

// CECPFeatures are the features that offer a CECP GUI polyproxy's
// options: `option="Polyglot Book -check 1"`, one a setting.
func (c *Config) CECPFeatures() []string {
	var out []string
	for _, d := range c.Options(CECP) {
		out = append(out, `option="`+strings.ReplaceAll(d.CECP(), `"`, "'")+`"`)
	}
	return out
}

// OurOption tells whether a GUI's option name is one of polyproxy's
// (OptionPrefix in any case, then a name), and gives the name after the
// prefix.
func OurOption(name string) (string, bool) {
	if len(name) > len(OptionPrefix) && strings.EqualFold(name[:len(OptionPrefix)], OptionPrefix) {
		return strings.TrimSpace(name[len(OptionPrefix):]), true
	}
	return "", false
}

// SetOption applies a GUI's setoption of one of our settings (name
// without OptionPrefix; "<empty>", UCI's empty string, is empty; a check
// may be 1 or 0, as CECP sends it) and says what it invalidates. A value
// refused changes nothing (see ApplyPolyGlot).
func (c *Config) SetOption(name, value string) (Invalidates, error) {
	if value == "<empty>" {
		value = "" // GUIs echo our default back
	}
	old := c.Clone()
	if err := c.ApplyPolyGlot(name, value); err != nil {
		return 0, err
	}
	changed := Changed(old, c)
	if s, ok := Lookup(name); ok && s.Reload {
		changed |= s.Invalidates
	}
	return changed, nil
}

// Changed is what going from settings old to new invalidates: the bits
// of every setting whose value differs.
func Changed(old, new *Config) Invalidates {
	var changed Invalidates
	for i := range settings {
		s := &settings[i]
		if s.get(old) != s.get(new) {
			changed |= s.Invalidates
		}
	}
	return changed
}

// ChooserOptions are the book.Options choosing runs with (with BookSeed,
// a book.Chooser); RebuildChooser says when they changed. learned is the
// effective weight BookLearnWeight chooses by under BookLearnPolicy
// factor, learn.Weight (given, as learn's own tests read the
// configuration); nearbest chooses by the author's weights and the
// learned results (book.Options.NearBest).
func (c *Config) ChooserOptions(learned func(book.Entry) uint64) book.Options {
	o := book.Options{
		Mode:              c.BookMode,
		ThresholdPerMille: c.BookThreshold,
		AvoidRepetition:   c.BookAvoidRepetition,
		Width:             c.BookWidth,
		MinWeight:         uint64(c.BookMinWeight),
		MaxMoves:          c.BookMaxMoves,
		Depth:             c.BookDepth,
		MinLine:           c.BookMinLine,
	}
	if c.BookDepth == 0 {
		o.Depth = -1 // no full move is within it
	}
	switch {
	case c.BookLearnWeight && c.BookLearnPolicy == LearnNearBest:
		o.NearBest, o.Tolerance = true, float64(c.BookLearnTolerance)/100
	case c.BookLearnWeight:
		o.Weight = learned
	}
	return o
}

// BooksFor are the books used in the positions where White (white) or
// Black is to move, in priority order: that side's list when it has one,
// else BookFile's. (Whether the book is on at all is Book's.)
func (c *Config) BooksFor(white bool) []string {
	if white && len(c.BookFilesWhite) > 0 {
		return c.BookFilesWhite
	}
	if !white && len(c.BookFilesBlack) > 0 {
		return c.BookFilesBlack
	}
	return c.BookFiles
}

// BooksInUse is every book file either side uses, each once, in the
// order of the lists: BookFile's while a side uses it, White's, Black's.
// ReopenBooks and ResendLearning say when it changed.
func (c *Config) BooksInUse() []string {
	var all, general []string
	if len(c.BookFilesWhite) == 0 || len(c.BookFilesBlack) == 0 {
		general = c.BookFiles
	}
	for _, l := range [][]string{general, c.BookFilesWhite, c.BookFilesBlack} {
		for _, p := range l {
			if !slices.Contains(all, p) {
				all = append(all, p)
			}
		}
	}
	return all
}

// ReadOptions are the settings of how the formats read a book's weights
// (those that Read), what the books are opened with; ReopenBooks says
// when they changed.
func (c *Config) ReadOptions() formats.Options {
	return formats.Options{CTGTournamentMode: c.BookCTGTournamentMode, CTGPreferMainLines: c.BookCTGPreferMainLines}
}

// ToolFlags defines on fs a flag for every setting a book tool takes
// (ToolFlag), each parsed as the ini parses its key and stored into c.
// Paths are kept as given, relative to the current directory. Numeric
// flags tell their range (Bounds), check flags need no value.
func (c *Config) ToolFlags(fs *flag.FlagSet) { c.toolFlags(fs, false) }

// ReadFlags defines on fs the tool flags of the settings that change how
// a book is read (Reads), as ToolFlags does: what every tool reading
// books takes.
func (c *Config) ReadFlags(fs *flag.FlagSet) { c.toolFlags(fs, true) }

func (c *Config) toolFlags(fs *flag.FlagSet, readsOnly bool) {
	for i := range settings {
		s := &settings[i]
		if s.ToolFlag == "" || readsOnly && !s.Reads {
			continue
		}
		usage := s.Usage + " (" + s.Name + ")"
		if s.Kind == Spin {
			usage += fmt.Sprintf(", from %d to %d", s.Min, s.Max)
		}
		f := toolFlag{s, c}
		switch s.Kind {
		case Check:
			fs.Var(&checkFlag{f}, s.ToolFlag, usage)
		case Spin:
			fs.Var(&spinFlag{f}, s.ToolFlag, usage)
		default:
			fs.Var(&f, s.ToolFlag, usage)
		}
	}
}

// toolFlag is one setting as a book tool's flag; checkFlag and
// spinFlag are a Check's and a Spin's. Their zero values tell the flag
// package the value that needs no "(default ...)" in the help.
type toolFlag struct {
	s *Setting
	c *Config
}

func (f *toolFlag) String() string {
	if f.c == nil {
		return ""
	}
	return f.s.get(f.c)
}

func (f *toolFlag) Set(v string) error {
	v = strings.TrimSpace(v)
	if !f.s.KeepQuotes {
		v = unquote(v)
	}
	return f.s.set(f.s, f.c, v, "")
}

func (f *toolFlag) Get() any { return f.String() }

type checkFlag struct{ toolFlag }

func (f *checkFlag) String() string {
	if f.c == nil {
		return "false"
	}
	return f.toolFlag.String()
}

func (f *checkFlag) Get() any {
	b, _ := ParseBool(f.String())
	return b
}

// IsBoolFlag lets a check flag be given without a value.
func (f *checkFlag) IsBoolFlag() bool { return true }

type spinFlag struct{ toolFlag }

func (f *spinFlag) String() string {
	if f.c == nil {
		return "0"
	}
	return f.toolFlag.String()
}

func (f *spinFlag) Get() any {
	n, _ := strconv.Atoi(f.String())
	return n
}

// Bounds is the flag's range.
func (f *spinFlag) Bounds() (min, max float64) { return float64(f.s.Min), float64(f.s.Max) }
