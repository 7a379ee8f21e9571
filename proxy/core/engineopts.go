package core

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/uci"
)

// fitOption checks a configured value ([Engine], -uci) against the option
// the engine announced: a spin value outside min..max is clamped into it
// (an engine such as Stockfish silently ignores it, and a GUI shown it as
// the default may refuse the option); a check value is written true or
// false, a combo value in the engine's spelling. A value that cannot be
// made to fit (not a number, not a bool, not one of the combo's values) is
// not sent. warning, when set, says what was done and why.
func fitOption(o uci.Option, value string) (v, warning string, ok bool) {
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

// EngineOption is the option the engine announced under name (in any
// case), as it announced it.
func (c *Core) EngineOption(name string) (uci.Option, bool) { return c.engine.option(name) }

// option is the option the engine announced under name (case-insensitive).
func (l *engineLink) option(name string) (uci.Option, bool) {
	for _, o := range l.options {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return uci.Option{}, false
}

// sendConfiguredOptions sends the configured engine options ([Engine],
// -uci) that the engine announced, in its spelling and fitted to its
// range, and keeps what was sent: the GUI is shown those values as the
// options' defaults.
func (c *Core) sendConfiguredOptions() {
	c.engine.configured = c.engine.configured[:0]
	for _, set := range c.settings.EngineOptions {
		o, ok := c.engine.option(set.Name)
		if !ok {
			c.notify("[Engine] option %q is not an option of the engine: not sent", set.Name)
			continue
		}
		v, warning, ok := fitOption(o, set.Value)
		if warning != "" {
			c.notify("[Engine] option %s: %s", o.Name, warning)
		}
		if !ok {
			continue
		}
		c.toEngine("setoption name " + o.Name + " value " + v)
		c.engine.configured = append(c.engine.configured, config.Option{Name: o.Name, Value: v})
		c.noteChess960(o.Name, v)
		c.noteAnalyseMode(o.Name, v)
	}
}
