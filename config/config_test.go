package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
)

// writeIni writes an ini file into a fresh folder and returns its path.
func writeIni(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "polyglot.ini")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mustLoad(t *testing.T, args ...string) *Config {
	t.Helper()
	c, err := Load(args)
	if err != nil {
		t.Fatalf("Load(%q): %v", args, err)
	}
	return c
}

func TestDefaultsMatchPolyGlot(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = stockfish\n")
	dir := filepath.Dir(ini)
	c := mustLoad(t, ini)
	if c.IniPath != ini || c.BaseDir != dir {
		t.Errorf("IniPath, BaseDir = %q, %q; want %q, %q", c.IniPath, c.BaseDir, ini, dir)
	}
	if c.EngineDir != dir {
		t.Errorf("EngineDir = %q, want the ini's folder %q", c.EngineDir, dir)
	}
	if c.Log || c.LogFile != filepath.Join(dir, "polyglot.log") {
		t.Errorf("Log, LogFile = %v, %q", c.Log, c.LogFile)
	}
	if c.Book || !reflect.DeepEqual(c.BookFiles, []string{filepath.Join(dir, "book.bin")}) {
		t.Errorf("Book, BookFiles = %v, %q", c.Book, c.BookFiles)
	}
	if c.BookMode != book.Weighted || c.BookDepth != 256 || c.BookThreshold != 5 {
		t.Errorf("BookMode, BookDepth, BookThreshold = %q, %d, %d", c.BookMode, c.BookDepth, c.BookThreshold)
	}
	if c.BookLearn || c.BookLearnWeight || c.BookAvoidRepetition || c.BookSeed != 0 || c.EngineName != "" {
		t.Errorf("unexpected non-default: %+v", c)
	}
	if c.LearnResignScore != DefaultLearnResignScore || c.LearnResignMoves != DefaultLearnResignMoves {
		t.Errorf("LearnResign = %d, %d", c.LearnResignScore, c.LearnResignMoves)
	}
	if len(c.EngineOptions) != 0 || len(c.Warnings) != 0 {
		t.Errorf("EngineOptions %v, Warnings %v", c.EngineOptions, c.Warnings)
	}
}

func TestAllKeys(t *testing.T) {
	ini := writeIni(t, `; a comment
# another comment
[PolyGlot]
EngineDir = engines
EngineCommand = ./sf -x
EngineName = My Engine
Log = true
LogFile = logs/pp.log
Book = true
BookFile = a.bin;/abs/b.bin ; sub/c.bin
BookRandom = false
BookDepth = 12
BookTreshold = 7
BookAvoidRepetition = yes
BookSeed = 18446744073709551615
BookLearn = 1
BookLearnWeight = ON
BookLearnPolicy = NearBest
BookLearnTolerance = 8
LearnResignScore = 700
LearnResignMoves = 5
Resign = true
ResignMoves = 4
ResignScore = 500
[Engine]
Hash = 16
Skill Level = 3
`)
	dir := filepath.Dir(ini)
	c := mustLoad(t, ini)
	want := &Config{
		IniPath:             ini,
		BaseDir:             dir,
		EngineDir:           filepath.Join(dir, "engines"),
		EngineCommand:       "./sf -x",
		EngineArgv:          []string{filepath.Join(dir, "engines", "sf"), "-x"},
		EngineName:          "My Engine",
		Log:                 true,
		LogFile:             filepath.Join(dir, "logs", "pp.log"),
		Book:                true,
		BookFiles:           []string{filepath.Join(dir, "a.bin"), filepath.FromSlash("/abs/b.bin"), filepath.Join(dir, "sub", "c.bin")},
		BookMode:            book.Best,
		BookDepth:           12,
		BookThreshold:       7,
		BookAvoidRepetition: true,
		BookSeed:            18446744073709551615,
		BookLearn:           true,
		BookLearnWeight:     true,
		BookLearnPolicy:     LearnNearBest,
		BookLearnTolerance:  8,
		LearnResignScore:    700,
		LearnResignMoves:    5,
		Resign:              true,
		ResignMoves:         4,
		ResignScore:         500,
		QueenNeverResigns:   true,
		ContemptScore:       DefaultContemptScore,
		ShowPonder:          true,
		STFudge:             DefaultSTFudge,
		EngineOptions:       []Option{{"Hash", "16"}, {"Skill Level", "3"}},
	}
	if runtime.GOOS == "windows" {
		t.Skip("absolute path spelling differs on Windows")
	}
	want.origins = c.origins // where each was given: TestOrigin
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

func TestCaseInsensitiveSectionsAndKeys(t *testing.T) {
	ini := writeIni(t, "[POLYGLOT]\nenginecommand = sf\nBOOKDEPTH = 4\nbookThreshold = 9\n[engine]\nhash = 8\n")
	c := mustLoad(t, ini)
	if c.EngineCommand != "sf" || c.BookDepth != 4 || c.BookThreshold != 9 {
		t.Errorf("got EngineCommand %q BookDepth %d BookThreshold %d", c.EngineCommand, c.BookDepth, c.BookThreshold)
	}
	if !reflect.DeepEqual(c.EngineOptions, []Option{{"hash", "8"}}) {
		t.Errorf("EngineOptions = %v (the user's spelling must be kept)", c.EngineOptions)
	}
}

func TestValuesKeepSemicolonAndHash(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = sf --tag=a;b#c\nEngineName = X #1 ; best\nEngineDir = C:\\engines\\\n[Engine]\nSyzygyPath = /tb/a;/tb/b\nEscaped = a\\;b\\#c\n# Hash = 1\n; Hash = 2\n")
	c := mustLoad(t, ini)
	if c.EngineCommand != "sf --tag=a;b#c" || c.EngineName != "X #1 ; best" {
		t.Errorf("EngineCommand %q, EngineName %q", c.EngineCommand, c.EngineName)
	}
	// A trailing backslash is a path, not a line continuation.
	if !strings.HasSuffix(c.EngineDir, `C:\engines\`) && runtime.GOOS != "windows" {
		t.Errorf("EngineDir = %q", c.EngineDir)
	}
	want := []Option{{"SyzygyPath", "/tb/a;/tb/b"}, {"Escaped", "a;b#c"}}
	if !reflect.DeepEqual(c.EngineOptions, want) {
		t.Errorf("EngineOptions = %q, want %q (full-line comments ignored)", c.EngineOptions, want)
	}
}

func TestCRLFAndBOM(t *testing.T) {
	ini := writeIni(t, "\xef\xbb\xbf[PolyGlot]\r\nEngineCommand = sf\r\nBook = true\r\n[Engine]\r\nHash = 32\r\n")
	c := mustLoad(t, ini)
	if c.EngineCommand != "sf" || !c.Book || !reflect.DeepEqual(c.EngineOptions, []Option{{"Hash", "32"}}) {
		t.Errorf("got %q %v %v", c.EngineCommand, c.Book, c.EngineOptions)
	}
}

func TestQuotedValues(t *testing.T) {
	ini := writeIni(t, `[PolyGlot]
EngineCommand = "my engine" '--flag x'
BookFile = "my book.bin"
LogFile = 'my log.log'
[Engine]
SyzygyPath = "/my tb"
`)
	dir := filepath.Dir(ini)
	c := mustLoad(t, ini)
	if c.EngineCommand != `"my engine" '--flag x'` {
		t.Errorf("EngineCommand must keep its quotes as written, got %q", c.EngineCommand)
	}
	if runtime.GOOS != "windows" && !reflect.DeepEqual(c.EngineArgv, []string{"my engine", "--flag x"}) {
		t.Errorf("EngineArgv = %q", c.EngineArgv)
	}
	if !reflect.DeepEqual(c.BookFiles, []string{filepath.Join(dir, "my book.bin")}) || c.LogFile != filepath.Join(dir, "my log.log") {
		t.Errorf("BookFiles %q LogFile %q", c.BookFiles, c.LogFile)
	}
	if !reflect.DeepEqual(c.EngineOptions, []Option{{"SyzygyPath", "/my tb"}}) {
		t.Errorf("EngineOptions = %q", c.EngineOptions)
	}
}

func TestBooleans(t *testing.T) {
	for _, v := range []string{"true", "TRUE", "True", "yes", "Yes", "on", "1"} {
		if b, err := ParseBool(v); err != nil || !b {
			t.Errorf("ParseBool(%q) = %v, %v", v, b, err)
		}
	}
	for _, v := range []string{"false", "FALSE", "no", "NO", "off", "0", " false "} {
		if b, err := ParseBool(v); err != nil || b {
			t.Errorf("ParseBool(%q) = %v, %v", v, b, err)
		}
	}
	for _, v := range []string{"", "maybe", "ture", "2"} {
		if _, err := ParseBool(v); err == nil {
			t.Errorf("ParseBool(%q): want an error", v)
		}
	}
}

func TestBadValuesAreClearErrors(t *testing.T) {
	for _, tc := range []struct{ line, wantInErr string }{
		{"Book = maybe", "Book"},
		{"BookDepth = -1", "BookDepth"},
		{"BookDepth = ten", "BookDepth"},
		{"BookTreshold = 1001", "BookTreshold"},
		{"BookMode = sometimes", "want weighted, best or uniform"},
		{"BookSeed = -5", "BookSeed"},
		{"LogFile = ", "LogFile"},
		{`EngineCommand = "unterminated`, "unterminated"},
		{"EngineCommand = sf\nthis line has no equals sign", `line 4: no '=' in "this line has no equals sign"`},
		{"= 5", `line 3: no key name before '=' in "= 5"`},
		{"[Engine", "unclosed section"},
	} {
		ini := writeIni(t, "[PolyGlot]\nEngineCommand = sf\n"+tc.line+"\n")
		_, err := Load([]string{ini})
		if err == nil || !strings.Contains(err.Error(), tc.wantInErr) || !strings.Contains(err.Error(), ini) {
			t.Errorf("%q: err = %v; want one naming %q and the file", tc.line, err, tc.wantInErr)
		}
	}
}

func TestUnknownKeysAreWarnings(t *testing.T) {
	ini := writeIni(t, `top = level
[PolyGlot]
EngineCommand = sf
UCI = true
ShowTbHits = true
Frobnicate = 3
[Other]
x = 1
[Engine]
Hash = 1
`)
	c := mustLoad(t, ini, "-pg", "Nonsense=1", "-wb", "false")
	joined := strings.Join(c.Warnings, "\n")
	for _, want := range []string{"UCI", "ShowTbHits", "Frobnicate", "[Other]", "before any section", "Nonsense", "-wb"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning mentions %q; warnings:\n%s", want, joined)
		}
	}
	if len(c.Warnings) != 7 {
		t.Errorf("want 7 warnings, got %d:\n%s", len(c.Warnings), joined)
	}
}

func TestCommandLineWinsOverFile(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = sf\nEngineName = File\nLog = false\nBookDepth = 3\n[Engine]\nHash = 16\nThreads = 1\n")
	cwd, _ := os.Getwd()
	c := mustLoad(t, ini, "-ec", "other --arg", "-en", "Cmd", "-log", "true", "-lf", "x.log",
		"-ed", "eng", "-pg", "BookDepth=9", "-pg", "Book = true", "-uci", "hash=64", "-uci", "Ponder=false", "-uci", "Empty=")
	if c.EngineCommand != "other --arg" || c.EngineName != "Cmd" || !c.Log || c.BookDepth != 9 || !c.Book {
		t.Errorf("command line did not win: %+v", c)
	}
	// Command-line paths are relative to the current directory, not the ini's.
	if c.LogFile != filepath.Join(cwd, "x.log") || c.EngineDir != filepath.Join(cwd, "eng") {
		t.Errorf("LogFile %q EngineDir %q, want relative to %q", c.LogFile, c.EngineDir, cwd)
	}
	want := []Option{{"hash", "64"}, {"Threads", "1"}, {"Ponder", "false"}, {"Empty", ""}}
	if !reflect.DeepEqual(c.EngineOptions, want) {
		t.Errorf("EngineOptions = %q, want %q", c.EngineOptions, want)
	}
}

func TestDuplicateEngineOptionsLaterWins(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = sf\n[Engine]\nHash = 16\nThreads = 2\nHASH = 32\n")
	c := mustLoad(t, ini)
	want := []Option{{"HASH", "32"}, {"Threads", "2"}}
	if !reflect.DeepEqual(c.EngineOptions, want) {
		t.Errorf("EngineOptions = %q, want %q", c.EngineOptions, want)
	}
}

func TestNoIni(t *testing.T) {
	cwd, _ := os.Getwd()
	c := mustLoad(t, "does-not-exist.ini", "-noini", "-ec", "sf")
	if c.IniPath != "" || c.BaseDir != cwd || c.EngineDir != cwd || !reflect.DeepEqual(c.EngineArgv, []string{"sf"}) {
		t.Errorf("got %+v", c)
	}
	if _, err := Load([]string{"-noini"}); err == nil || !strings.Contains(err.Error(), "EngineCommand") {
		t.Errorf("-noini without -ec: err = %v, want one about EngineCommand", err)
	}
}

func TestMissingIni(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.ini")
	_, err := Load([]string{missing})
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "not found") {
		t.Errorf("err = %v", err)
	}
}

func TestDefaultIniIsInCurrentDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, err := Load(nil); err == nil || !strings.Contains(err.Error(), "polyglot.ini") {
		t.Fatalf("no ./polyglot.ini: err = %v", err)
	}
	if err := os.WriteFile("polyglot.ini", []byte("[PolyGlot]\nEngineCommand = sf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := mustLoad(t)
	if c.IniPath != filepath.Join(dir, "polyglot.ini") {
		t.Errorf("IniPath = %q", c.IniPath)
	}
}

func TestNoEngineCommand(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nBook = true\n")
	_, err := Load([]string{ini})
	if err == nil || !strings.Contains(err.Error(), "EngineCommand") || !strings.Contains(err.Error(), ini) {
		t.Errorf("err = %v", err)
	}
}

func TestCommandLineErrors(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = sf\n")
	for _, args := range [][]string{
		{ini, "-ec"},
		{ini, "-bogus", "x"},
		{ini, "second.ini"},
		{ini, "-pg", "NoEquals"},
		{ini, "-uci", "=5"},
		{ini, "-log", "perhaps"},
	} {
		if _, err := Load(args); err == nil {
			t.Errorf("Load(%q): want an error", args)
		}
	}
}

func TestEngineProgramResolution(t *testing.T) {
	dir := t.TempDir()
	engines := filepath.Join(dir, "engines")
	if err := os.Mkdir(engines, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(engines, "local"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ini := filepath.Join(dir, "p.ini")
	for _, tc := range []struct{ dir, cmd, want string }{
		{"engines", "local -x", filepath.Join(engines, "local")}, // bare name found in EngineDir
		{"engines", "onpath", "onpath"},                          // left for the PATH search
		{"engines", "sub/e", filepath.Join(engines, "sub", "e")}, // relative to EngineDir
		{".", "engines/local", filepath.Join(engines, "local")},  // EngineDir "." is the ini's folder
		{"engines", "/abs/e", filepath.FromSlash("/abs/e")},
	} {
		content := "[PolyGlot]\nEngineCommand = " + tc.cmd + "\nEngineDir = " + tc.dir + "\n"
		if err := os.WriteFile(ini, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		c := mustLoad(t, ini)
		if c.EngineArgv[0] != tc.want {
			t.Errorf("EngineDir=%s EngineCommand=%s: program %q, want %q", tc.dir, tc.cmd, c.EngineArgv[0], tc.want)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in      string
		windows bool
		want    []string
	}{
		{"sf", false, []string{"sf"}},
		{"  sf   -a\t-b  ", false, []string{"sf", "-a", "-b"}},
		{`"/opt/my engine/sf" --x "a b"`, false, []string{"/opt/my engine/sf", "--x", "a b"}},
		{`'/opt/my engine/sf' 'it''s'`, false, []string{"/opt/my engine/sf", "its"}},
		{`sf "say \"hi\" \\ \$x \n"`, false, []string{"sf", `say "hi" \ $x \n`}},
		{`my\ engine a\\b`, false, []string{"my engine", `a\b`}},
		{`sf ""`, false, []string{"sf", ""}},
		{`"C:\Program Files\x\engine.exe" -arg`, true, []string{`C:\Program Files\x\engine.exe`, "-arg"}},
		{`C:\engines\sf.exe C:\tb\`, true, []string{`C:\engines\sf.exe`, `C:\tb\`}},
		{`C:\Users\O'Brien\sf.exe`, true, []string{`C:\Users\O'Brien\sf.exe`}},
		{`e.exe "a\"b" "c\\" d\\\"e`, true, []string{"e.exe", `a"b`, `c\`, `d\"e`}},
		{`e.exe a"b c"d`, true, []string{"e.exe", "ab cd"}},
	} {
		got, err := splitCommand(tc.in, tc.windows)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitCommand(%q, windows=%v) = %q, %v; want %q", tc.in, tc.windows, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		in      string
		windows bool
	}{{"", false}, {"   ", true}, {`"abc`, false}, {`'abc`, false}, {`"abc`, true}} {
		if got, err := splitCommand(tc.in, tc.windows); err == nil {
			t.Errorf("splitCommand(%q, windows=%v) = %q; want an error", tc.in, tc.windows, got)
		}
	}
}

func TestApplyPolyGlotAtRunTime(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = sf\nBookMode = uniform\n")
	dir := filepath.Dir(ini)
	c := mustLoad(t, ini)
	steps := []struct {
		name, value string
		check       func() bool
	}{
		{"Book", "true", func() bool { return c.Book }},
		{"bookfile", "x.bin", func() bool { return reflect.DeepEqual(c.BookFiles, []string{filepath.Join(dir, "x.bin")}) }},
		{"BookFile", "", func() bool { return len(c.BookFiles) == 0 }},
		// BookRandom=true keeps uniform; false is PolyGlot's "best"; true again goes back to weighted.
		{"BookRandom", "true", func() bool { return c.BookMode == book.Uniform }},
		{"BookRandom", "false", func() bool { return c.BookMode == book.Best }},
		{"BookRandom", "true", func() bool { return c.BookMode == book.Weighted }},
		{"BookMode", "BEST", func() bool { return c.BookMode == book.Best }},
		{"BookThreshold", "0", func() bool { return c.BookThreshold == 0 }},
		{"BookDepth", "0", func() bool { return c.BookDepth == 0 }},
		{"EngineDir", "", func() bool { return c.EngineDir == dir }},
	}
	for _, s := range steps {
		if err := c.ApplyPolyGlot(s.name, s.value); err != nil || !s.check() {
			t.Errorf("ApplyPolyGlot(%q, %q): err %v, config %+v", s.name, s.value, err, c)
		}
	}
	if err := c.ApplyPolyGlot("NoSuchKey", "1"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("unknown key: err = %v, want ErrUnknownKey", err)
	}
	before := len(c.Warnings)
	if err := c.ApplyPolyGlot("KibitzMove", "true"); err != nil || len(c.Warnings) != before+1 {
		t.Errorf("PolyGlot-only key: err %v, warnings %v", err, c.Warnings)
	}
	if err := c.ApplyPolyGlot("BookDepth", "x"); err == nil || c.BookDepth != 0 {
		t.Errorf("bad value: err %v, BookDepth %d (must be unchanged)", err, c.BookDepth)
	}
}

func TestBadValueLeavesSettingUnchanged(t *testing.T) {
	c := Default(t.TempDir())
	c.Book = true
	if err := c.ApplyPolyGlot("Book", "perhaps"); err == nil || !c.Book {
		t.Errorf("err %v, Book %v; want an error and Book still true", err, c.Book)
	}
	c.BookMode = book.Uniform
	if err := c.ApplyPolyGlot("BookRandom", "x"); err == nil || c.BookMode != book.Uniform {
		t.Errorf("err %v, BookMode %q", err, c.BookMode)
	}
}

func TestBadEngineCommandLeavesEngineUnchanged(t *testing.T) {
	c := Default(t.TempDir())
	if err := c.ApplyPolyGlot("EngineCommand", "sf -a"); err != nil {
		t.Fatal(err)
	}
	if err := c.ApplyPolyGlot("EngineCommand", `"sf`); err == nil || c.EngineCommand != "sf -a" || !reflect.DeepEqual(c.EngineArgv, []string{"sf", "-a"}) {
		t.Errorf("err %v, EngineCommand %q, EngineArgv %q", err, c.EngineCommand, c.EngineArgv)
	}
}

// The shipped example must load cleanly, with no warnings, and point at the
// Debian packages README.md promises.
func TestExampleIniLoads(t *testing.T) {
	c := mustLoad(t, filepath.Join("..", "polyglot.ini.example"))
	if len(c.Warnings) != 0 {
		t.Errorf("warnings: %q", c.Warnings)
	}
	if !reflect.DeepEqual(c.EngineArgv, []string{"/usr/games/stockfish"}) || !c.Book ||
		!reflect.DeepEqual(c.BookFiles, []string{"/usr/share/games/gnuchess/book.bin"}) {
		t.Errorf("EngineArgv %q Book %v BookFiles %q", c.EngineArgv, c.Book, c.BookFiles)
	}
	if c.EngineName != "" || c.BookDepth != DefaultBookDepth || c.BookThreshold != DefaultBookThreshold || c.BookMode != book.Weighted {
		t.Errorf("example differs from the defaults it documents: %+v", c)
	}
	want := []Option{{"Hash", "16"}, {"Threads", "1"}}
	if !reflect.DeepEqual(c.EngineOptions, want) {
		t.Errorf("EngineOptions = %q", c.EngineOptions)
	}
}

// A clone changed at run time leaves the original as it was.
func TestCloneSharesNothing(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = sf -a\nBook = true\nBookFile = a.bin;b.bin\nKibitzMove = true\n[Engine]\nHash = 16\n")
	c := mustLoad(t, ini)
	want := *c
	want.EngineArgv = slices.Clone(c.EngineArgv)
	want.BookFiles = slices.Clone(c.BookFiles)
	want.EngineOptions = slices.Clone(c.EngineOptions)
	want.Warnings = slices.Clone(c.Warnings)
	d := c.Clone()
	if !reflect.DeepEqual(d, c) {
		t.Fatalf("clone %+v differs from %+v", d, c)
	}
	// Writes into the slices in place, then through the setters.
	d.BookFiles[0] = "changed"
	d.EngineArgv[0] = "changed"
	d.SetEngineOption("Hash", "64")
	d.Warnings = append(d.Warnings[:0], "changed")
	for _, s := range [][2]string{{"Book", "false"}, {"BookFile", "c.bin"}, {"EngineCommand", "other -b"}, {"KibitzMove", "false"}} {
		if err := d.ApplyPolyGlot(s[0], s[1]); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("original changed:\n%+v\nwant\n%+v", *c, want)
	}
}

// The book policies: off by default, each key read from the ini and
// settable at run time, bad values refused.
func TestBookPolicyKeys(t *testing.T) {
	c := Default(t.TempDir())
	if c.BookFilesWhite != nil || c.BookFilesBlack != nil || c.BookWidth != 0 || c.BookMaxMoves != 0 ||
		c.BookMinWeight != 0 || c.BookMinLine != 0 || c.BookPonder || c.BookPonderAlways {
		t.Errorf("a policy is on by default: %+v", c)
	}
	ini := writeIni(t, `[PolyGlot]
EngineCommand = sf
BookFileWhite = w.bin ; /abs/w2.bin
BookFileBlack = b.bin
BookWidth = 3
BookMaxMoves = 4
BookMinWeight = 100
BookMinLine = 2
BookPonder = true
BookPonderAlways = yes
`)
	dir := filepath.Dir(ini)
	c = mustLoad(t, ini)
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %q", c.Warnings)
	}
	if runtime.GOOS != "windows" && (!reflect.DeepEqual(c.BookFilesWhite, []string{filepath.Join(dir, "w.bin"), "/abs/w2.bin"}) ||
		!reflect.DeepEqual(c.BookFilesBlack, []string{filepath.Join(dir, "b.bin")})) {
		t.Errorf("white %q black %q", c.BookFilesWhite, c.BookFilesBlack)
	}
	if c.BookWidth != 3 || c.BookMaxMoves != 4 || c.BookMinWeight != 100 || c.BookMinLine != 2 || !c.BookPonder || !c.BookPonderAlways {
		t.Errorf("%+v", c)
	}
	for _, s := range [][2]string{{"BookFileWhite", ""}, {"bookwidth", "0"}, {"BookPonder", "off"}} {
		if err := c.ApplyPolyGlot(s[0], s[1]); err != nil {
			t.Fatal(err)
		}
	}
	if c.BookFilesWhite != nil || c.BookWidth != 0 || c.BookPonder {
		t.Errorf("not reset: %+v", c)
	}
	for _, s := range [][2]string{{"BookWidth", "-1"}, {"BookMaxMoves", "many"}, {"BookMinLine", "101"}, {"BookPonderAlways", "maybe"}} {
		if err := c.ApplyPolyGlot(s[0], s[1]); err == nil {
			t.Errorf("%s = %q accepted", s[0], s[1])
		}
	}
	d := c.Clone()
	d.BookFilesBlack[0] = "changed"
	if c.BookFilesBlack[0] == "changed" {
		t.Error("Clone shares BookFilesBlack")
	}
}

// A mistyped key, section or flag is named with its file and line and the
// name it likely is; an EngineCommand under a section polyproxy does not
// read is named there. ("BookFlie = ..." was "unknown key, ignored" with
// no line; under [Polyglott] the error said to set EngineCommand, which
// the user had set.)
func TestTyposNamed(t *testing.T) {
	ini := writeIni(t, "; my settings\n[PolyGlot]\nEngineCommand = sf\nBookFlie = my.bin\nHash = 64\nUCI = true\n[Polyglott]\nBook = true\n[Engnie]\n")
	c := mustLoad(t, ini, "-pg", "BookTreshhold=3")
	want := []string{
		ini + ":4: [PolyGlot] BookFlie: unknown key, ignored; did you mean BookFile?",
		ini + ":5: [PolyGlot] Hash: unknown key, ignored (an engine's own option goes under [Engine])",
		ini + ":6: [PolyGlot] UCI: a PolyGlot key with no effect in polyproxy, ignored",
		ini + ":7: section [Polyglott] ignored (polyproxy reads [PolyGlot] and [Engine]); did you mean [PolyGlot]?",
		"command line: -pg BookTreshhold: unknown PolyGlot key, ignored; did you mean BookTreshold?",
	}
	if !slices.Equal(c.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(c.Warnings, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct{ ini, err string }{
		{"[Polyglott]\nEngineCommand = sf\n", ":2: EngineCommand is under [Polyglott], a section polyproxy does not read; did you mean [PolyGlot]?"},
		{"[Settings]\n\nEngineCommand = sf\n", ":3: EngineCommand is under [Settings], a section polyproxy does not read; put it under [PolyGlot]"},
		{"[PolyGlot]\nBook = true\n[Engine]\nEngineCommand = sf\n", ":4: EngineCommand is under [Engine], which holds the engine's own options: put it under [PolyGlot]"},
		{"EngineCommand = sf\n[PolyGlot]\n", ":1: EngineCommand comes before any section: put [PolyGlot] above it"},
		{"[PolyGlot]\nBook = true\n", ": no EngineCommand: set EngineCommand = ENGINE under [PolyGlot], or give -ec ENGINE"},
		{"[PolyGlot]\nEngineCommand = sf\n\nBookDepth = ten\n", ":4: [PolyGlot] BookDepth = \"ten\": want a whole number"},
	} {
		path := writeIni(t, tc.ini)
		if _, err := Load([]string{path}); err == nil || !strings.HasPrefix(err.Error(), path+tc.err) {
			t.Errorf("%q: %v\nwant %s%s", tc.ini, err, path, tc.err)
		}
	}
	var clErr *CommandLineError
	if _, err := Load([]string{"-noini", "-ecc", "sf"}); err == nil || err.Error() != "unknown flag -ecc; did you mean -ec?" || !errors.As(err, &clErr) {
		t.Errorf("-ecc: %v", err)
	}
	// The ini's mistakes are the ini's, not the command line's.
	if _, err := Load([]string{writeIni(t, "[PolyGlot]\nBookDepth = ten\n")}); errors.As(err, &clErr) {
		t.Errorf("a bad ini value taken for a command line error: %v", err)
	}
}

// An error that follows warnings comes with them, for the user to be told
// first: a mistyped section or key is often why (under [Polyglott] the
// section's warning was lost with the error). A mistyped EngineCommand is
// the error itself: "no EngineCommand" alone sent the user looking for
// the key they had typed.
func TestLoadErrorKeepsWarnings(t *testing.T) {
	path := writeIni(t, "[Polyglott]\nEngineCommand = sf\n")
	_, err := Load([]string{path})
	var le *LoadError
	if !errors.As(err, &le) || len(le.Warnings) != 1 ||
		le.Warnings[0] != path+":1: section [Polyglott] ignored (polyproxy reads [PolyGlot] and [Engine]); did you mean [PolyGlot]?" ||
		err.Error() != path+":2: EngineCommand is under [Polyglott], a section polyproxy does not read; did you mean [PolyGlot]?" {
		t.Errorf("[Polyglott]: %v, %#v", err, le)
	}
	path = writeIni(t, "[PolyGlot]\nBook = true\nEngineComand = sf\n")
	_, err = Load([]string{path})
	if want := path + ":3: no EngineCommand: [PolyGlot] EngineComand is no key polyproxy knows; did you mean EngineCommand?"; err == nil || err.Error() != want {
		t.Errorf("EngineComand: %v\nwant %s", err, want)
	}
	if !errors.As(err, &le) || len(le.Warnings) != 1 || !strings.Contains(le.Warnings[0], "EngineComand: unknown key, ignored; did you mean EngineCommand?") {
		t.Errorf("EngineComand's warning: %#v", le)
	}
	// No warning, no LoadError: the error as it is.
	if _, err := Load([]string{writeIni(t, "[PolyGlot]\nBookDepth = ten\n")}); errors.As(err, &le) {
		t.Errorf("a LoadError with no warnings: %#v", le)
	}
}

// An ini file that is not there is told apart (a GUI started with a
// mistyped path, or a mistyped command).
func TestMissingIniFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nosuch.ini")
	_, err := Load([]string{missing})
	if !errors.Is(err, ErrNoIniFile) || err.Error() != "ini file "+missing+" not found (give an ini file as the first argument, or -noini -ec ENGINE)" {
		t.Errorf("%v", err)
	}
	if _, err := Load([]string{writeIni(t, "[PolyGlot]\n")}); errors.Is(err, ErrNoIniFile) {
		t.Errorf("an ini without EngineCommand taken for a missing one: %v", err)
	}
}

// Origin says where a setting was given, for a message that says what to
// fix: the ini's line, or the command line's flag; nothing for a default.
func TestOrigin(t *testing.T) {
	path := writeIni(t, "[PolyGlot]\nEngineCommand = sf\n\nbookfile = a.bin\nEngineDir = /tmp\n")
	c := mustLoad(t, path, "-ed", "/", "-pg", "BookDepth=9")
	for _, tc := range []struct{ name, want string }{
		{"EngineCommand", "at " + path + ":2"},
		{"BookFile", "at " + path + ":4"},
		{"enginedir", "by -ed on the command line"},
		{"BookDepth", "by -pg BookDepth on the command line"},
		{"BookTreshold", ""},
		{"NoSuchKey", ""},
	} {
		if got := c.Origin(tc.name); got != tc.want {
			t.Errorf("Origin(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := mustLoad(t, "-noini", "-ec", "sf").Origin("EngineCommand"); got != "by -ec on the command line" {
		t.Errorf("-ec: %q", got)
	}
	d := c.Clone()
	d.givenAt("BookDepth", "elsewhere")
	if c.Origin("BookDepth") == "elsewhere" {
		t.Error("Clone shares the origins")
	}
}

// BookLearnPolicy picks what BookLearnWeight chooses by: the factor's
// weights, or the author's weights with the posterior at the tolerance.
func TestLearnPolicyChooserOptions(t *testing.T) {
	c := Default("/base")
	c.BookLearnWeight = true
	learned := func(book.Entry) uint64 { return 1 }
	if o := c.ChooserOptions(learned); o.Weight == nil || o.NearBest {
		t.Errorf("factor: %+v", o)
	}
	c.BookLearnPolicy, c.BookLearnTolerance = LearnNearBest, 8
	if o := c.ChooserOptions(learned); o.Weight != nil || !o.NearBest || o.Tolerance != 0.08 {
		t.Errorf("nearbest: %+v", o)
	}
	c.BookLearnWeight = false
	if o := c.ChooserOptions(learned); o.Weight != nil || o.NearBest {
		t.Errorf("BookLearnWeight off: %+v", o)
	}
}
