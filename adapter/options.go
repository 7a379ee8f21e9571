package adapter

import (
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/uci"
)

// ourOptionLines are polyproxy's own UCI options, named as PolyGlot names
// them in UCI mode, with the current settings as defaults.
func (a *Adapter) ourOptionLines() []string {
	c := a.settings
	check := func(name string, v bool) string {
		return "option name " + ourOptionPrefix + name + " type check default " + strconv.FormatBool(v)
	}
	str := func(name, v string) string {
		if v == "" {
			v = "<empty>"
		}
		return "option name " + ourOptionPrefix + name + " type string default " + v
	}
	spin := func(name string, v, min, max int) string {
		return "option name " + ourOptionPrefix + name + " type spin default " + strconv.Itoa(v) +
			" min " + strconv.Itoa(min) + " max " + strconv.Itoa(max)
	}
	mode := "option name " + ourOptionPrefix + "BookMode type combo default " + c.BookMode
	for _, m := range config.BookModes {
		mode += " var " + m
	}
	return []string{
		check("Book", c.Book),
		str("BookFile", strings.Join(c.BookFiles, config.BookFileSeparator)),
		spin("BookDepth", c.BookDepth, 0, max(c.BookDepth, 1000)),
		spin("BookTreshold", c.BookThreshold, 0, 1000),
		check("BookRandom", c.BookMode != config.BookModeBest),
		mode,
		check("BookAvoidRepetition", c.BookAvoidRepetition),
		check("BookLearn", c.BookLearn),
		check("BookLearnWeight", c.BookLearnWeight),
		str("BookSeed", strconv.FormatUint(c.BookSeed, 10)),
		spin("LearnResignScore", c.LearnResignScore, 1, 100000),
		spin("LearnResignMoves", c.LearnResignMoves, 1, 1000),
		check("Log", c.Log),
		str("LogFile", c.LogFile),
	}
}

// withConfiguredDefault is an engine's option line announced with the
// value the configuration ([Engine], -uci) gives it as its default, as
// PolyGlot does: a GUI that sends every option's stored default (Arena)
// then keeps the configured value instead of overriding it.
func (a *Adapter) withConfiguredDefault(line string) string {
	o, err := uci.ParseOption(line)
	if err != nil || o.Type == "button" {
		return line
	}
	for _, c := range a.settings.EngineOptions {
		if !strings.EqualFold(c.Name, o.Name) {
			continue
		}
		v := c.Value
		switch o.Type {
		case "check":
			b, err := config.ParseBool(v)
			if err != nil {
				return line
			}
			v = strconv.FormatBool(b)
		case "string":
			if v == "" {
				v = "<empty>"
			}
		}
		o.Default = v
		return o.String()
	}
	return line
}
