package config

import (
	"math"
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
}

// otherKeys are the keys that take no number: paths, names, booleans,
// the book mode, the engine command.
var otherKeys = []string{
	"enginedir", "enginecommand", "enginename", "log", "logfile", "book",
	"bookfile", "bookfilewhite", "bookfileblack", "bookrandom", "bookmode",
	"bookavoidrepetition", "booklearn", "booklearnweight", "bookponder", "bookponderalways",
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
