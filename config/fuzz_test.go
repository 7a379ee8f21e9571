package config

import (
	"strings"
	"testing"

	"github.com/polyproxy/polyproxy/book"
)

// FuzzReadIni: arbitrary ini bytes give a config or an error, never a panic,
// and whatever is accepted keeps the invariants the proxy relies on.
func FuzzReadIni(f *testing.F) {
	for _, seed := range []string{
		"[PolyGlot]\nEngineCommand = stockfish\nBook = true\nBookFile = a.bin;b.bin\n[Engine]\nHash = 16\n",
		"\xef\xbb\xbf[polyglot]\r\nenginecommand=\"C:\\Program Files\\sf.exe\" -x\r\n",
		"[PolyGlot]\nEngineCommand = \"unterminated\n",
		"[PolyGlot]\nEngineDir = C:\\e\\\nBookDepth = 99999999999999999999\n",
		"x = 1\n[\n",
		"[]\n=\n",
		"[Engine]\n\"quoted key\" = `multi\nline`\n",
		"[PolyGlot]\nEngineName = \"\"\"\nBookMode = BEST\n-\n",
		"; only a comment\n# another\n",
		"[PolyGlot]\nBookRandom = false\nBookRandom = true\nBookTreshold = 1000\nBookSeed = 0\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Default("/base")
		c.IniPath = "/base/polyglot.ini"
		if _, err := c.readIni(data); err != nil {
			return
		}
		if c.BookDepth < 0 || c.BookThreshold < 0 || c.BookThreshold > 1000 {
			t.Fatalf("out of range: BookDepth %d BookThreshold %d", c.BookDepth, c.BookThreshold)
		}
		valid := false
		for _, m := range book.Modes() {
			valid = valid || c.BookMode == m
		}
		if !valid {
			t.Fatalf("BookMode %q", c.BookMode)
		}
		if (strings.TrimSpace(c.EngineCommand) == "") != (len(c.EngineArgv) == 0) {
			t.Fatalf("EngineCommand %q but EngineArgv %q", c.EngineCommand, c.EngineArgv)
		}
		seen := map[string]bool{}
		for _, o := range c.EngineOptions {
			if seen[strings.ToLower(o.Name)] {
				t.Fatalf("duplicate engine option %q in %q", o.Name, c.EngineOptions)
			}
			seen[strings.ToLower(o.Name)] = true
		}
	})
}

// FuzzSplitCommand: any command line splits or errors, never panics.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{`sf`, `"a b" c`, `a\`, `\\\"`, `'x`, `"C:\x y\e.exe" -a`, "a\tb\r\n"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, windows bool) {
		words, err := splitCommand(s, windows)
		if err == nil && len(words) == 0 {
			t.Fatalf("splitCommand(%q) = no words and no error", s)
		}
	})
}
