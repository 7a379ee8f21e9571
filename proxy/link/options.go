package link

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/uci"
)

// FitOption checks a configured value ([Engine], -uci) against the option
// the engine announced: a spin value outside min..max is clamped into it
// (an engine such as Stockfish silently ignores it, and a GUI shown it as
// the default may refuse the option); a check value is written true or
// false, a combo value in the engine's spelling. A value that cannot be
// made to fit (not a number, not a bool, not one of the combo's values) is
// not sent. warning, when set, says what was done and why.
func FitOption(o uci.Option, value string) (v, warning string, ok bool) {
	switch strings.ToLower(o.Type) {
	case "spin":
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			return "", fmt.Sprintf("%q is not a whole number: not sent", value), false
		}
		if lo, err := strconv.ParseInt(o.Min, 10, 64); err == nil && n < lo {
			return strconv.FormatInt(lo, 10), fmt.Sprintf("%d is below the option's minimum: %d sent", n, lo), true
		}
		if hi, err := strconv.ParseInt(o.Max, 10, 64); err == nil && n > hi {
			return strconv.FormatInt(hi, 10), fmt.Sprintf("%d is above the option's maximum: %d sent", n, hi), true
		}
		return strconv.FormatInt(n, 10), "", true
	case "check":
		b, err := config.ParseBool(value)
		if err != nil {
			return "", fmt.Sprintf("%q is not true or false: not sent", value), false
		}
		return strconv.FormatBool(b), "", true
	case "combo":
		for _, w := range o.Vars {
			if strings.EqualFold(w, strings.TrimSpace(value)) {
				return w, "", true
			}
		}
		return "", fmt.Sprintf("%q is not one of %s: not sent", value, strings.Join(o.Vars, ", ")), false
	}
	return value, "", true
}

// WithConfiguredDefault is an engine's option (o, announced as line)
// with the value the configuration ([Engine], -uci: configured) gives it
// as its default, as PolyGlot announces it: a GUI that sends every
// option's stored default (Arena) then keeps the configured value instead
// of overriding it.
func WithConfiguredDefault(o uci.Option, line string, configured []config.Option) (uci.Option, string) {
	if o.Type == "button" {
		return o, line
	}
	for _, c := range configured {
		if !strings.EqualFold(c.Name, o.Name) {
			continue
		}
		v := c.Value
		switch o.Type {
		case "check":
			b, err := config.ParseBool(v)
			if err != nil {
				return o, line
			}
			v = strconv.FormatBool(b)
		case "string":
			if v == "" {
				v = "<empty>"
			}
		}
		o.Default = v
		return o, o.String()
	}
	return o, line
}
