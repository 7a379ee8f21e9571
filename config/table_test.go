package config

// Tests that walk the option table and check every view derived from it
// against the parser: a setting added to the table is walked too.

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/uci"
)

// stringSamples are values each String setting takes, relative paths
// included (a String setting missing here fails TestTableSamples).
var stringSamples = map[string][]string{
	"EngineCommand": {"sf -x", `"my engine" --uci`},
	"EngineDir":     {"engines", "/abs/engines"},
	"EngineName":    {"My Engine", ""},
	"BookFile":      {"a.bin", "a.bin;sub/b.bin;/abs/c.bin", ""},
	"BookFileWhite": {"w.bin;/abs/w2.bin", ""},
	"BookFileBlack": {"b.bin", ""},
	"BookSeed":      {"0", "42", "18446744073709551615"},
	"LogFile":       {"pp.log", "/abs/pp.log"},
	"BookLearnPGN":  {"games.pgn", "/abs/games.pgn", ""},
}

// samples are values s takes: both booleans, a spin's ends and middle,
// every combo value, the strings above.
func samples(t *testing.T, s *Setting) []string {
	t.Helper()
	switch s.Kind {
	case Check:
		return []string{"true", "false"}
	case Spin:
		return []string{strconv.Itoa(s.Min), strconv.Itoa((s.Min + s.Max) / 2), strconv.Itoa(s.Max)}
	case Combo:
		return s.Vars
	}
	v, ok := stringSamples[s.Name]
	if !ok {
		t.Fatalf("no sample values for %s: add them to stringSamples", s.Name)
	}
	return v
}

// set returns a copy of c with key set to v, or fails.
func set(t *testing.T, c *Config, key, v string) *Config {
	t.Helper()
	d := c.Clone()
	if err := d.ApplyPolyGlot(key, v); err != nil {
		t.Fatalf("%s = %q: %v", key, v, err)
	}
	return d
}

func TestTableSamples(t *testing.T) {
	names := map[string]bool{}
	for _, s := range Settings() {
		for _, k := range append([]string{s.Name}, s.Aliases...) {
			if names[strings.ToLower(k)] || ignored[strings.ToLower(k)] {
				t.Errorf("key %s declared twice", k)
			}
			names[strings.ToLower(k)] = true
		}
		if s.Kind < Check || s.Kind > String || s.set == nil || s.get == nil {
			t.Errorf("%s: kind %v, set %v, get %v", s.Name, s.Kind, s.set != nil, s.get != nil)
		}
		samples(t, &s)
	}
	for name := range stringSamples {
		if s, ok := Lookup(name); !ok || s.Kind != String {
			t.Errorf("stringSamples has %s, not a String setting", name)
		}
	}
}

// TestTableDefaults: Default is the table's defaults, each within what
// its setting takes; Load with an ini that sets nothing gives them too.
func TestTableDefaults(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = sf\n")
	base := filepath.Dir(ini)
	loaded := mustLoad(t, ini)
	c := Default(base)
	for _, s := range Settings() {
		want := s.Default
		switch {
		case s.Name == "EngineCommand":
			continue
		case s.Kind == String && strings.HasSuffix(s.Name, "File") && want != "":
			want = filepath.Join(base, want)
		case s.Name == "EngineDir":
			want = base
		}
		if got := s.Value(c); got != want {
			t.Errorf("%s: default %q, want %q", s.Name, got, want)
		}
		if got := s.Value(loaded); got != want {
			t.Errorf("%s: loaded with no key %q, want %q", s.Name, got, want)
		}
		switch s.Kind {
		case Spin:
			if n, err := strconv.Atoi(s.Default); err != nil || n < s.Min || n > s.Max {
				t.Errorf("%s: default %q outside %d..%d", s.Name, s.Default, s.Min, s.Max)
			}
		case Combo:
			if !slices.Contains(s.Vars, s.Default) {
				t.Errorf("%s: default %q not among %q", s.Name, s.Default, s.Vars)
			}
		}
	}
}

// TestTableIniRoundTrip: every sample value of every setting, set at run
// time, written into an ini under each of its keys (in any case) and
// loaded again, or given with -pg or PolyGlot's flag, is the same value.
func TestTableIniRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, s := range Settings() {
		for _, v := range samples(t, &s) {
			base := Default(dir)
			if s.Name != "EngineCommand" {
				base = set(t, base, "EngineCommand", "sf")
			}
			want := s.Value(set(t, base, s.Name, v))
			for _, key := range append([]string{s.Name, strings.ToLower(s.Name)}, s.Aliases...) {
				ini := filepath.Join(dir, "polyglot.ini")
				text := "[PolyGlot]\n" + key + " = " + want + "\n"
				if s.Name != "EngineCommand" {
					text = "[PolyGlot]\nEngineCommand = sf\n" + key + " = " + want + "\n"
				}
				if err := os.WriteFile(ini, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				c, err := Load([]string{ini})
				if s.Name == "EngineCommand" && err == nil {
					// Its program is resolved against the ini's folder: the same either way.
					if !reflect.DeepEqual(c.EngineArgv, set(t, Default(dir), s.Name, want).EngineArgv) {
						t.Errorf("%s = %q: argv %q", key, want, c.EngineArgv)
					}
				}
				if err != nil || s.Value(c) != want || len(c.Warnings) != 0 {
					t.Errorf("ini %s = %q: %v, read back %q, warnings %q", key, want, err, valueOr(s, c), warningsOf(c))
				}
			}
			args := []string{"-noini", "-pg", s.Name + "=" + want}
			if s.Name != "EngineCommand" {
				args = append(args, "-ec", "sf")
			}
			if c, err := Load(args); err != nil || s.Value(c) != want {
				t.Errorf("-pg %s=%q: %v, read back %q", s.Name, want, err, valueOr(s, c))
			}
			if s.Flag != "" {
				args[1], args[2] = s.Flag, want
				if c, err := Load(args); err != nil || s.Value(c) != want {
					t.Errorf("%s %q: %v, read back %q", s.Flag, want, err, valueOr(s, c))
				}
			}
		}
	}
}

func valueOr(s Setting, c *Config) string {
	if c == nil {
		return "(no config)"
	}
	return s.Value(c)
}

func warningsOf(c *Config) []string {
	if c == nil {
		return nil
	}
	return c.Warnings
}

// TestTableCommandLine: every flag of PolyGlot's command line is in the
// usage, and sets the key it stands for.
func TestTableCommandLine(t *testing.T) {
	for f, key := range flags {
		if !strings.Contains(Usage, f+" ") && ignored[strings.ToLower(key)] == false {
			t.Errorf("%s (%s) is not in the usage %q", f, key, Usage)
		}
		cl, err := parseCommandLine([]string{f, "v"})
		if err != nil || !reflect.DeepEqual(cl.pg, []Option{{key, "v"}}) {
			t.Errorf("%s v: %v, %+v", f, err, cl)
		}
	}
	if c, err := Load([]string{"-noini", "-ec", "sf", "-wb", "true"}); err != nil || len(c.Warnings) != 1 {
		t.Errorf("-wb, PolyGlot's, ignored: %v, %q", err, warningsOf(c))
	}
}

// TestTableDescriptors: each front's options, as UCI lines and CECP
// features, agree with the parser: a spin's range is the key's (a
// SpinMax only narrows the top shown, never beyond the value), both
// ends are taken and a step beyond refused by setoption, every combo
// value and both booleans (also CECP's 1 and 0) are taken, and the
// default is the value.
func TestTableDescriptors(t *testing.T) {
	c := set(t, Default(t.TempDir()), "BookFile", "")
	for _, front := range []Front{UCI, CECP} {
		ds := c.Options(front)
		offered := 0
		for _, s := range Settings() {
			if s.Offered(front) {
				offered++
			}
		}
		if len(ds) != offered || len(ds) < 20 {
			t.Fatalf("front %d: %d options, %d settings offered", front, len(ds), offered)
		}
		for _, d := range ds {
			name, ours := OurOption(d.Name)
			s, ok := Lookup(name)
			if !ours || !ok || s.Name != name {
				t.Fatalf("option %q is no setting", d.Name)
			}
			checkDescriptor(t, c, s, d)
		}
	}
}

func checkDescriptor(t *testing.T, c *Config, s *Setting, d Descriptor) {
	t.Helper()
	line := d.UCI().String()
	o, err := uci.ParseOption(line)
	if err != nil || o.Name != d.Name || o.Type != s.Kind.String() || !reflect.DeepEqual(o.Vars, d.Vars) {
		t.Errorf("%s: line %q parses as %+v, %v", s.Name, line, o, err)
	}
	if want := s.Value(c); d.Default != want || (want == "" && o.Default != "<empty>") || (want != "" && o.Default != want) {
		t.Errorf("%s: default %q (line %q), value %q", s.Name, d.Default, line, want)
	}
	takes := func(v string) bool {
		_, err := c.Clone().SetOption(s.Name, v)
		return err == nil
	}
	switch s.Kind {
	case Spin:
		lo, hi := strconv.Itoa(d.Min), strconv.Itoa(d.Max)
		if o.Min != lo || o.Max != hi || d.Min != s.Min || d.Max > s.Max || (s.SpinMax == 0 && d.Max != s.Max) {
			t.Errorf("%s: offered %s..%s, the key takes %d..%d", s.Name, o.Min, o.Max, s.Min, s.Max)
		}
		if !takes(lo) || !takes(hi) || takes(strconv.Itoa(s.Min-1)) || takes(strconv.Itoa(s.Max+1)) {
			t.Errorf("%s: setoption takes %s..%s but not its ends, or a step beyond %d..%d", s.Name, lo, hi, s.Min, s.Max)
		}
		if s.SpinMax > 0 { // a value above SpinMax is shown as the top
			d2 := findOption(set(t, c, s.Name, strconv.Itoa(s.Max)), s.Name)
			if d2.Max != s.Max {
				t.Errorf("%s = its max: offered up to %d", s.Name, d2.Max)
			}
		}
		if !strings.HasSuffix(d.CECP(), " -spin "+d.Default+" "+lo+" "+hi) {
			t.Errorf("%s: CECP %q", s.Name, d.CECP())
		}
	case Combo:
		for _, v := range s.Vars {
			if !takes(v) {
				t.Errorf("%s: offers %q but refuses it", s.Name, v)
			}
		}
		if !strings.Contains(d.CECP(), " -combo ") || !strings.Contains(d.CECP(), "*"+d.Default) {
			t.Errorf("%s: CECP %q", s.Name, d.CECP())
		}
	case Check:
		for _, v := range []string{"true", "false", "1", "0"} {
			if !takes(v) {
				t.Errorf("%s: refuses %q", s.Name, v)
			}
		}
		if b, _ := ParseBool(d.Default); d.CECP() != d.Name+" -check "+map[bool]string{true: "1", false: "0"}[b] {
			t.Errorf("%s: CECP %q", s.Name, d.CECP())
		}
	case String:
		if !takes(d.Default) && !(d.Default == "" && takes("<empty>")) {
			t.Errorf("%s: refuses its own default %q", s.Name, d.Default)
		}
		control := map[bool]string{true: " -file ", false: " -string "}[strings.Contains(s.Name, "File")]
		if !strings.Contains(d.CECP(), control) {
			t.Errorf("%s: CECP %q, want %q", s.Name, d.CECP(), control)
		}
	}
}

func findOption(c *Config, name string) Descriptor {
	for _, d := range c.Options(UCI | CECP) {
		if d.Name == OptionPrefix+name {
			return d
		}
	}
	return Descriptor{}
}

// TestCECPFeatures: one option feature for each option CECP offers.
func TestCECPFeatures(t *testing.T) {
	c := set(t, Default("/base"), "EngineName", `say "hi"`)
	fs := c.CECPFeatures()
	if len(fs) != len(c.Options(CECP)) {
		t.Fatalf("%d features for %d options", len(fs), len(c.Options(CECP)))
	}
	for _, want := range []string{`option="Polyglot Book -check 0"`, `option="Polyglot BookMode -combo *weighted /// best /// uniform"`,
		`option="Polyglot BookFile -file /base/book.bin"`, `option="Polyglot BookSeed -string 0"`, `option="Polyglot STFudge -spin 20 0 1000"`} {
		if !slices.Contains(fs, want) {
			t.Errorf("no %s in %q", want, fs)
		}
	}
}

// views are what a running proxy derives from the settings, one for each
// bit of Invalidates: a change of a view must be declared by every
// setting that changes it, and a setting that declares a bit must change
// its view.
var views = map[Invalidates]func(c *Config) any{
	ReopenBooks: func(c *Config) any {
		if !c.Book {
			return nil
		}
		return []any{c.BooksFor(true), c.BooksFor(false), c.ReadOptions()}
	},
	RebuildChooser: func(c *Config) any {
		o := c.ChooserOptions(func(book.Entry) uint64 { return 0 })
		return []any{o.Mode, o.ThresholdPerMille, o.AvoidRepetition, o.Width, o.MinWeight, o.Weight != nil, o.NearBest, o.Tolerance, o.MaxMoves, o.Depth, o.MinLine, c.BookSeed}
	},
	ResendLearning: func(c *Config) any {
		books := c.BooksInUse()
		if !c.Book {
			books = nil
		}
		return []any{c.BookLearn, c.LearnResignScore, c.LearnResignMoves, c.BookLearnPGN, books}
	},
	RecheckWarm: func(c *Config) any { return []bool{c.Book && c.BookPonder, c.Book && c.BookPonderAlways} },
	ReopenLog:   func(c *Config) any { return []any{c.Log, c.LogFile} },
}

// TestChangedAgreesWithViews: for every setting and every pair of its
// sample values, from settings where each view can see the change (book
// on, with and without lists for each side), Changed reports every view
// that changed, and nothing the setting does not declare; and every bit
// a setting declares is a view it changes from one of those settings
// (Changed may report a change nobody sees, such as BookFile's while
// the book is off: the proxy then redoes a little for nothing).
func TestChangedAgreesWithViews(t *testing.T) {
	if len(views) != len(invalidatesNames) {
		t.Fatalf("%d views for %d bits", len(views), len(invalidatesNames))
	}
	starts := []*Config{Default("/base")}
	on := set(t, set(t, starts[0], "Book", "true"), "BookPonder", "true")
	starts = append(starts, on, set(t, set(t, on, "BookFileWhite", "w.bin"), "BookFileBlack", "b.bin"))
	// Learned weights chosen by, under either policy: how they choose is
	// seen.
	learned := set(t, on, "BookLearnWeight", "true")
	starts = append(starts, learned, set(t, learned, "BookLearnPolicy", "nearbest"))
	for _, s := range Settings() {
		var seen Invalidates
		for _, start := range starts {
			for _, a := range samples(t, &s) {
				for _, b := range samples(t, &s) {
					old, new := set(t, start, s.Name, a), set(t, set(t, start, s.Name, a), s.Name, b)
					var want Invalidates
					for bit, view := range views {
						if !reflect.DeepEqual(view(old), view(new)) {
							want |= bit
						}
					}
					seen |= want
					if got := Changed(old, new); got&want != want || got&^s.Invalidates != 0 || (a == b && got != 0) {
						t.Errorf("%s %q -> %q: Changed %v, the views that changed %v, declared %v", s.Name, a, b, got, want, s.Invalidates)
					}
				}
			}
		}
		if seen != s.Invalidates {
			t.Errorf("%s declares %v, changes %v", s.Name, s.Invalidates, seen)
		}
	}
}

// TestSetOption: what setoption reports, BookFile set again to the same
// file (the way to reload it), CECP's check values and UCI's <empty>.
func TestSetOption(t *testing.T) {
	c := Default("/base")
	for _, step := range []struct {
		name, value string
		want        Invalidates
	}{
		{"Book", "true", ReopenBooks | ResendLearning | RecheckWarm},
		{"Book", "1", 0},
		{"BookFile", "/base/book.bin", ReopenBooks | ResendLearning},
		{"BookFileWhite", "<empty>", 0},
		{"bookthreshold", "7", RebuildChooser},
		{"BookRandom", "0", RebuildChooser},
		{"BookDepth", "3", RebuildChooser},
		{"LogFile", "x.log", ReopenLog},
		{"BookLearn", "on", ResendLearning},
	} {
		got, err := c.SetOption(step.name, step.value)
		if err != nil || got != step.want {
			t.Errorf("setoption %s %q: %v, %v; want %v", step.name, step.value, got, err, step.want)
		}
	}
	if c.BookThreshold != 7 || c.BookMode != book.Best || c.LogFile != "/base/x.log" {
		t.Errorf("not applied: %+v", c)
	}
	if got, err := c.SetOption("BookDepth", "lots"); err == nil || got != 0 || c.BookDepth != 3 {
		t.Errorf("a bad value: %v, %v, BookDepth %d", got, err, c.BookDepth)
	}
	for _, n := range []string{"Polyglot Book", "polyglot  BookFile", "POLYGLOT Log"} {
		if name, ok := OurOption(n); !ok || name == "" || strings.Contains(name, " ") {
			t.Errorf("OurOption(%q) = %q, %v", n, name, ok)
		}
	}
	for _, n := range []string{"Hash", "Polyglot ", "PolyglotBook"} {
		if _, ok := OurOption(n); ok {
			t.Errorf("OurOption(%q) is ours", n)
		}
	}
}

// TestRulesDeclaredOnce: each rule of choosing a setting can switch is
// set by exactly one setting.
func TestRulesDeclaredOnce(t *testing.T) {
	by := map[book.Rule]string{}
	for _, s := range Settings() {
		if s.Rule == book.RuleNone {
			continue
		}
		if by[s.Rule] != "" {
			t.Errorf("rule %v set by %s and %s", s.Rule, by[s.Rule], s.Name)
		}
		by[s.Rule] = s.Name
		if s.Invalidates&RebuildChooser == 0 {
			t.Errorf("%s sets rule %v but does not rebuild the chooser", s.Name, s.Rule)
		}
	}
	for _, r := range []book.Rule{book.RuleThreshold, book.RuleRepetition, book.RuleWidth, book.RuleMinWeight} {
		if by[r] == "" {
			t.Errorf("no setting for rule %v", r)
		}
	}
}

// TestToolFlags: each tool flag parses as its ini key does, into the
// setting (relative paths kept as given); a numeric flag tells the key's
// range, a check flag needs no value.
func TestToolFlags(t *testing.T) {
	n := 0
	for _, s := range Settings() {
		if s.ToolFlag == "" {
			continue
		}
		n++
		for _, v := range samples(t, &s) {
			c := Default("")
			fs := flag.NewFlagSet("tool", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			c.ToolFlags(fs)
			if err := fs.Parse([]string{"-" + s.ToolFlag + "=" + v}); err != nil {
				t.Fatalf("-%s=%s: %v", s.ToolFlag, v, err)
			}
			if want := s.Value(set(t, Default(""), s.Name, v)); s.Value(c) != want {
				t.Errorf("-%s=%s: %q, the key gives %q", s.ToolFlag, v, s.Value(c), want)
			}
			f := fs.Lookup(s.ToolFlag)
			if s.Kind == String && strings.Contains(v, "sub/b.bin") && !strings.Contains(f.Value.String(), "sub/b.bin") {
				t.Errorf("-%s=%s: a relative path made %q", s.ToolFlag, v, f.Value.String())
			}
			if b, ok := f.Value.(interface{ Bounds() (float64, float64) }); s.Kind == Spin {
				if lo, hi := b.Bounds(); !ok || lo != float64(s.Min) || hi != float64(s.Max) {
					t.Errorf("-%s: bounds %v..%v, the key takes %d..%d", s.ToolFlag, lo, hi, s.Min, s.Max)
				}
				if err := fs.Parse([]string{"-" + s.ToolFlag, strconv.Itoa(s.Max + 1)}); err == nil {
					t.Errorf("-%s %d (beyond its range): taken", s.ToolFlag, s.Max+1)
				}
			}
			if s.Kind == Check {
				c := Default("")
				fs := flag.NewFlagSet("tool", flag.ContinueOnError)
				c.ToolFlags(fs)
				if err := fs.Parse([]string{"-" + s.ToolFlag}); err != nil || s.Value(c) != "true" {
					t.Errorf("-%s alone: %v, %s", s.ToolFlag, err, s.Value(c))
				}
			}
		}
	}
	if n < 5 {
		t.Errorf("only %d tool flags", n)
	}
}

// TestReadFlags: the tools that read books take the flags of the settings
// that change how a book is read, and only those; each reaches the read
// options.
func TestReadFlags(t *testing.T) {
	fs := flag.NewFlagSet("tool", flag.ContinueOnError)
	c := Default("")
	c.ReadFlags(fs)
	var defined []string
	fs.VisitAll(func(f *flag.Flag) { defined = append(defined, f.Name) })
	var want []string
	for _, s := range Settings() {
		if s.Reads {
			want = append(want, s.ToolFlag)
		}
	}
	slices.Sort(want)
	if !slices.Equal(defined, want) || len(want) != 2 {
		t.Fatalf("ReadFlags defines %q, want %q", defined, want)
	}
	if err := fs.Parse([]string{"-ctg-tournament-mode", "-ctg-prefer-main-lines"}); err != nil {
		t.Fatal(err)
	}
	if o := c.ReadOptions(); !o.CTGTournamentMode || !o.CTGPreferMainLines {
		t.Errorf("read options %+v", o)
	}
}
