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
// range and the setting they set: every Spin of the table under each of
// its keys, and BookSeed, a number offered as a string.
func numericKeys() map[string]struct{ min, max uint64 } {
	keys := map[string]struct{ min, max uint64 }{"bookseed": {0, math.MaxUint64}}
	for _, s := range Settings() {
		if s.Kind != Spin {
			continue
		}
		for _, k := range append([]string{s.Name}, s.Aliases...) {
			keys[strings.ToLower(k)] = struct{ min, max uint64 }{uint64(s.Min), uint64(s.Max)}
		}
	}
	return keys
}

// hostile are numbers no key takes.
var hostile = []string{
	"nan", "NaN", "inf", "-inf", "+Inf", "1e400", "1e3", "1.5", "0x10", "ten", "",
	"-1", "99999999999999999999", "-99999999999999999999", "18446744073709551616", "9223372036854775808",
}

// TestNumericKeysBounded: every key that takes a number refuses NaN, the
// infinities, fractions, overflows and values outside its range, in the
// ini, with -pg and at run time, with an error naming the key and the
// range, and leaves the setting as it was; both ends of the range are
// taken.
func TestNumericKeysBounded(t *testing.T) {
	keys := numericKeys()
	if len(keys) < 14 {
		t.Fatalf("only %d numeric keys: the walk misses some", len(keys))
	}
	for key, r := range keys {
		s, _ := Lookup(key)
		get := func(c *Config) uint64 {
			n, err := strconv.ParseUint(s.Value(c), 10, 64)
			if err != nil {
				t.Fatalf("%s's value %q", key, s.Value(c))
			}
			return n
		}
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
			before := get(c)
			err := c.ApplyPolyGlot(key, v)
			if err == nil || !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "want") {
				t.Errorf("%s = %q: error %v, want one naming the key and what it wants", key, v, err)
			}
			if get(c) != before {
				t.Errorf("%s = %q: the setting changed to %d", key, v, get(c))
			}
			if _, err := Load([]string{"-noini", "-ec", "engine", "-pg", key + "=" + v}); err == nil {
				t.Errorf("-pg %s=%q: accepted", key, v)
			}
		}
		for _, v := range []uint64{r.min, r.max} {
			c := Default("/base")
			if err := c.ApplyPolyGlot(key, strconv.FormatUint(v, 10)); err != nil || get(c) != v {
				t.Errorf("%s = %d (an end of its range): %v, set to %d", key, v, err, get(c))
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
