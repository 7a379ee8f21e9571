package config

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// numericKeys are the [PolyGlot] keys that take a number, with their
// range and the setting they set.
var numericKeys = map[string]struct {
	min, max uint64
	get      func(*Config) uint64
}{
	"bookdepth":        {0, 1 << 20, func(c *Config) uint64 { return uint64(c.BookDepth) }},
	"booktreshold":     {0, 1000, func(c *Config) uint64 { return uint64(c.BookThreshold) }},
	"bookthreshold":    {0, 1000, func(c *Config) uint64 { return uint64(c.BookThreshold) }},
	"bookseed":         {0, math.MaxUint64, func(c *Config) uint64 { return c.BookSeed }},
	"learnresignscore": {1, 100000, func(c *Config) uint64 { return uint64(c.LearnResignScore) }},
	"learnresignmoves": {1, 1000, func(c *Config) uint64 { return uint64(c.LearnResignMoves) }},
	"bookwidth":        {0, MaxBookWidth, func(c *Config) uint64 { return uint64(c.BookWidth) }},
	"bookmaxmoves":     {0, MaxBookMaxMoves, func(c *Config) uint64 { return uint64(c.BookMaxMoves) }},
	"bookminweight":    {0, MaxBookMinWeight, func(c *Config) uint64 { return uint64(c.BookMinWeight) }},
	"bookminline":      {0, MaxBookMinLine, func(c *Config) uint64 { return uint64(c.BookMinLine) }},
	"resignmoves":      {0, 10000, func(c *Config) uint64 { return uint64(c.ResignMoves) }},
	"resignscore":      {0, 10000, func(c *Config) uint64 { return uint64(c.ResignScore) }},
	"contemptscore":    {0, 10000, func(c *Config) uint64 { return uint64(c.ContemptScore) }},
	"stfudge":          {0, 1000, func(c *Config) uint64 { return uint64(c.STFudge) }},
}

// otherKeys are the keys that take no number: paths, names, booleans,
// the book mode, the engine command.
var otherKeys = []string{
	"enginedir", "enginecommand", "enginename", "log", "logfile", "book",
	"bookfile", "bookfilewhite", "bookfileblack", "bookrandom", "bookmode",
	"bookavoidrepetition", "booklearn", "booklearnweight", "bookponder", "bookponderalways",
	"resign", "queenneverresigns", "handledraws", "showponder",
}

// hostile are numbers no key takes.
var hostile = []string{
	"nan", "NaN", "inf", "-inf", "+Inf", "1e400", "1e3", "1.5", "0x10", "ten", "",
	"-1", "99999999999999999999", "-99999999999999999999", "18446744073709551616", "9223372036854775808",
}

// TestNumericKeysBounded: every key that takes a number (a new key must
// be listed here) refuses NaN, the infinities, fractions, overflows and
// values outside its range, in the ini, with -pg and at run time, with an
// error naming the key and the range, and leaves the setting as it was;
// both ends of the range are taken.
func TestNumericKeysBounded(t *testing.T) {
	listed := map[string]bool{}
	for _, k := range otherKeys {
		listed[k] = true
	}
	for k := range numericKeys {
		listed[k] = true
	}
	for k := range setters {
		if !listed[k] {
			t.Errorf("key %s is in neither numericKeys nor otherKeys: say whether it takes a number", k)
		}
	}
	for key, r := range numericKeys {
		above := strconv.FormatUint(r.max+1, 10)
		if r.max == math.MaxUint64 {
			above = "18446744073709551616"
		}
		values := append([]string{above}, hostile...)
		if r.min > 0 {
			values = append(values, strconv.FormatUint(r.min-1, 10))
		}
		for _, v := range values {
			if n, err := strconv.ParseUint(v, 10, 64); err == nil && n >= r.min && n <= r.max {
				continue // a number this key takes
			}
			c := Default("/base")
			before := r.get(c)
			err := c.ApplyPolyGlot(key, v)
			if err == nil || !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "want") {
				t.Errorf("%s = %q: error %v, want one naming the key and what it wants", key, v, err)
			}
			if r.get(c) != before {
				t.Errorf("%s = %q: the setting changed to %d", key, v, r.get(c))
			}
			if _, err := Load([]string{"-noini", "-ec", "engine", "-pg", key + "=" + v}); err == nil {
				t.Errorf("-pg %s=%q: accepted", key, v)
			}
		}
		for _, v := range []uint64{r.min, r.max} {
			c := Default("/base")
			if err := c.ApplyPolyGlot(key, strconv.FormatUint(v, 10)); err != nil || r.get(c) != v {
				t.Errorf("%s = %d (an end of its range): %v, set to %d", key, v, err, r.get(c))
			}
		}
	}
}

// TestLogFileIsNoInput: the log is appended to; a LogFile that is the
// ini file or a book, under any name, was taken, and the log grew into
// it (an ini with log lines does not load at the next start). It is
// refused in the ini, on the command line and at run time.
func TestLogFileIsNoInput(t *testing.T) {
	ini := writeIni(t, "[PolyGlot]\nEngineCommand = engine\nBookFile = a.bin;b.bin\nLogFile = sub/../b.bin\n")
	dir := filepath.Dir(ini)
	if _, err := Load([]string{ini}); err == nil || !strings.Contains(err.Error(), "LogFile") || !strings.Contains(err.Error(), "BookFile") {
		t.Errorf("LogFile = a book: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if _, err := Load([]string{ini, "-lf", ini}); err == nil || !strings.Contains(err.Error(), "the ini file") {
		t.Errorf("-lf the ini file: %v", err)
	}
	if err := os.Symlink(ini, filepath.Join(dir, "log-link")); err == nil {
		if _, err := Load([]string{ini, "-pg", "LogFile=" + filepath.Join(dir, "log-link")}); err == nil {
			t.Error("LogFile = a link to the ini file: accepted")
		}
	}
	if _, err := Load([]string{ini, "-pg", "LogFile=c.log", "-pg", "BookFileWhite=c.log"}); err == nil || !strings.Contains(err.Error(), "BookFileWhite") {
		t.Errorf("BookFileWhite = the log: %v", err)
	}
	c := mustLoad(t, ini, "-lf", filepath.Join(dir, "polyproxy.log"))
	before := c.LogFile
	for _, kv := range [][2]string{{"LogFile", "a.bin"}, {"BookFile", "polyproxy.log"}, {"BookFileBlack", "x.bin;" + before}, {"LogFile", ini}} {
		if err := c.ApplyPolyGlot(kv[0], kv[1]); err == nil || !strings.Contains(err.Error(), "LogFile") {
			t.Errorf("at run time %s = %s: %v", kv[0], kv[1], err)
		}
		if c.LogFile != before || len(c.BookFilesBlack) != 0 || len(c.BookFiles) != 2 {
			t.Errorf("at run time %s = %s: settings changed: %s %q %q", kv[0], kv[1], c.LogFile, c.BookFiles, c.BookFilesBlack)
		}
	}
	if err := c.ApplyPolyGlot("LogFile", "other.log"); err != nil || c.LogFile != filepath.Join(dir, "other.log") {
		t.Errorf("LogFile = other.log: %v, %s", err, c.LogFile)
	}
}
