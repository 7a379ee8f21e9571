package cli

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// intRange is an int flag that refuses, when parsed, anything outside
// min..max: every numeric flag of the book tools is bounded, so a typo, an
// overflow or an absurd size is a usage error naming the flag, not a
// silent wrap-around, an empty result written over a file, or a run that
// eats the machine.
type intRange struct {
	p        *int
	min, max int
}

func (r *intRange) String() string {
	if r.p == nil {
		return "0"
	}
	return strconv.Itoa(*r.p)
}

func (r *intRange) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < int64(r.min) || n > int64(r.max) {
		return fmt.Errorf("want a whole number from %d to %d", r.min, r.max)
	}
	*r.p = int(n)
	return nil
}

func (r *intRange) Get() any { return *r.p }

// Bounds is the range a numeric flag accepts; the tests try every
// numeric flag of every command with values outside it.
func (r *intRange) Bounds() (min, max float64) { return float64(r.min), float64(r.max) }

// floatRange is a float64 flag bounded like intRange; NaN and the
// infinities are refused (NaN compares false with every bound, so an
// unchecked -min-share nan would filter nothing).
type floatRange struct {
	p        *float64
	min, max float64
}

func (r *floatRange) String() string {
	if r.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*r.p, 'g', -1, 64)
}

func (r *floatRange) Set(s string) error {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || x < r.min || x > r.max {
		return fmt.Errorf("want a number from %g to %g", r.min, r.max)
	}
	*r.p = x
	return nil
}

func (r *floatRange) Get() any                   { return *r.p }
func (r *floatRange) Bounds() (min, max float64) { return r.min, r.max }

// intFlag defines an int flag that takes min..max; def need not be in the
// range (a default such as 0 can mean "not given").
func intFlag(fs *flag.FlagSet, p *int, name string, def, min, max int, usage string) {
	*p = def
	fs.Var(&intRange{p, min, max}, name, usage+fmt.Sprintf(", from %d to %d", min, max))
}

// floatFlag defines a float64 flag that takes min..max.
func floatFlag(fs *flag.FlagSet, p *float64, name string, def, min, max float64, usage string) {
	*p = def
	fs.Var(&floatRange{p, min, max}, name, usage+fmt.Sprintf(", from %g to %g", min, max))
}

// percentFlag is a floatFlag from 0 to 100.
func percentFlag(fs *flag.FlagSet, p *float64, name string, usage string) {
	floatFlag(fs, p, name, 0, 0, 100, usage)
}

// playerList is the -player flag of make-book and learn: each value is one
// player's name exactly as written (trimmed), commas included, since PGN
// writes names "Last, First"; several players are given by repeating the
// flag. A value with no letter or digit ("", ",", blanks) is refused: it
// would silently match nobody or, worse, mean no filter.
type playerList []string

func (l *playerList) String() string { return strings.Join(*l, "; ") }

func (l *playerList) Set(v string) error {
	name, err := parsePlayer(v)
	if err != nil {
		return err
	}
	*l = append(*l, name)
	return nil
}

// parsePlayer reads one -player value.
func parsePlayer(v string) (string, error) {
	name := strings.TrimSpace(v)
	if strings.IndexFunc(name, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return "", errors.New("want a player's name as in the White/Black tags (repeat -player for several)")
	}
	return name, nil
}
