// Package flagval holds the flag values the commands share: bounded
// numbers, player names, lists. Every numeric flag of the book tools is
// bounded, so a typo, an overflow or an absurd size is a usage error
// naming the flag, not a silent wrap-around, an empty result written over
// a file, or a run that eats the machine.
package flagval

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// IntRange is an int flag that refuses, when parsed, anything outside
// Min..Max.
type IntRange struct {
	P        *int
	Min, Max int
}

func (r *IntRange) String() string {
	if r.P == nil {
		return "0"
	}
	return strconv.Itoa(*r.P)
}

func (r *IntRange) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < int64(r.Min) || n > int64(r.Max) {
		return fmt.Errorf("want a whole number from %d to %d", r.Min, r.Max)
	}
	*r.P = int(n)
	return nil
}

func (r *IntRange) Get() any { return *r.P }

// Bounds is the range a numeric flag accepts; the tests try every
// numeric flag of every command with values outside it.
func (r *IntRange) Bounds() (min, max float64) { return float64(r.Min), float64(r.Max) }

// FloatRange is a float64 flag bounded like IntRange; NaN and the
// infinities are refused (NaN compares false with every bound, so an
// unchecked -min-share nan would filter nothing).
type FloatRange struct {
	P        *float64
	Min, Max float64
}

func (r *FloatRange) String() string {
	if r.P == nil {
		return "0"
	}
	return strconv.FormatFloat(*r.P, 'g', -1, 64)
}

func (r *FloatRange) Set(s string) error {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || x < r.Min || x > r.Max {
		return fmt.Errorf("want a number from %g to %g", r.Min, r.Max)
	}
	*r.P = x
	return nil
}

func (r *FloatRange) Get() any                   { return *r.P }
func (r *FloatRange) Bounds() (min, max float64) { return r.Min, r.Max }

// Int defines an int flag that takes min..max; def need not be in the
// range (a default such as 0 can mean "not given").
func Int(fs *flag.FlagSet, p *int, name string, def, min, max int, usage string) {
	*p = def
	fs.Var(&IntRange{p, min, max}, name, usage+fmt.Sprintf(", from %d to %d", min, max))
}

// Float defines a float64 flag that takes min..max.
func Float(fs *flag.FlagSet, p *float64, name string, def, min, max float64, usage string) {
	*p = def
	fs.Var(&FloatRange{p, min, max}, name, usage+fmt.Sprintf(", from %g to %g", min, max))
}

// Percent defines a Float flag from 0 to 100, 0 by default.
func Percent(fs *flag.FlagSet, p *float64, name string, usage string) {
	Float(fs, p, name, 0, 0, 100, usage)
}

// Players is the -player flag of make-book and learn: each value is one
// player's name exactly as written (trimmed), commas included, since PGN
// writes names "Last, First"; several players are given by repeating the
// flag. A value with no letter or digit ("", ",", blanks) is refused: it
// would silently match nobody or, worse, mean no filter.
type Players []string

func (l *Players) String() string { return strings.Join(*l, "; ") }

func (l *Players) Set(v string) error {
	name := strings.TrimSpace(v)
	if strings.IndexFunc(name, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return errors.New("want a player's name as in the White/Black tags (repeat -player for several)")
	}
	*l = append(*l, name)
	return nil
}

// List is a repeatable flag whose values may also be comma-separated;
// check, when set, refuses a value.
type List struct {
	P     *[]string
	Check func(string) error
}

func (l List) String() string {
	if l.P == nil {
		return ""
	}
	return strings.Join(*l.P, ",")
}

func (l List) Set(v string) error {
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x == "" {
			continue
		}
		if l.Check != nil {
			if err := l.Check(x); err != nil {
				return err
			}
		}
		*l.P = append(*l.P, x)
	}
	return nil
}

// Strings is a repeatable string flag, each value whole.
type Strings []string

func (s *Strings) String() string     { return strings.Join(*s, ",") }
func (s *Strings) Set(v string) error { *s = append(*s, v); return nil }

// Switch is a flag without a value that runs set, as flag.BoolFunc
// defines, for a table of flags that hands out flag.Values.
type Switch func() error

func (f Switch) String() string   { return "" }
func (f Switch) Set(string) error { return f() }
func (f Switch) IsBoolFlag() bool { return true }

// Bool is a bool flag, for a table of flags that hands out flag.Values.
type Bool struct{ P *bool }

func (b Bool) String() string {
	if b.P == nil {
		return "false"
	}
	return strconv.FormatBool(*b.P)
}

func (b Bool) Set(s string) (err error) {
	*b.P, err = strconv.ParseBool(s)
	return err
}

func (b Bool) IsBoolFlag() bool { return true }
