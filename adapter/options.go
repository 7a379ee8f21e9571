package adapter

import (
	"strconv"
	"strings"

	"github.com/polyproxy/polyproxy/book"
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/uci"
)

// ourOptionPrefix marks the options that belong to polyproxy, as PolyGlot
// names them in UCI mode ("Polyglot BookFile").
const ourOptionPrefix = "Polyglot "

// ourOptionLines are polyproxy's own UCI options, named as PolyGlot names
// them in UCI mode, with the settings c as defaults.
func ourOptionLines(c *config.Config) []string {
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
	mode := "option name " + ourOptionPrefix + "BookMode type combo default " + c.BookMode.String()
	for _, m := range book.Modes() {
		mode += " var " + m.String()
	}
	return []string{
		check("Book", c.Book),
		str("BookFile", strings.Join(c.BookFiles, config.BookFileSeparator)),
		spin("BookDepth", c.BookDepth, 0, max(c.BookDepth, 1000)),
		spin("BookTreshold", c.BookThreshold, 0, 1000),
		check("BookRandom", c.BookMode != book.Best),
		mode,
		check("BookAvoidRepetition", c.BookAvoidRepetition),
		check("BookLearn", c.BookLearn),
		str("BookLearnPGN", c.BookLearnPGN),
		check("BookLearnWeight", c.BookLearnWeight),
		str("BookSeed", strconv.FormatUint(c.BookSeed, 10)),
		str("BookFileWhite", strings.Join(c.BookFilesWhite, config.BookFileSeparator)),
		str("BookFileBlack", strings.Join(c.BookFilesBlack, config.BookFileSeparator)),
		spin("BookWidth", c.BookWidth, 0, config.MaxBookWidth),
		spin("BookMaxMoves", c.BookMaxMoves, 0, config.MaxBookMaxMoves),
		spin("BookMinWeight", c.BookMinWeight, 0, config.MaxBookMinWeight),
		spin("BookMinLine", c.BookMinLine, 0, config.MaxBookMinLine),
		check("BookPonder", c.BookPonder),
		check("BookPonderAlways", c.BookPonderAlways),
		spin("LearnResignScore", c.LearnResignScore, 1, 100000),
		spin("LearnResignMoves", c.LearnResignMoves, 1, 1000),
		check("Log", c.Log),
		str("LogFile", c.LogFile),
	}
}

// withConfiguredDefault is an engine's option line announced with the
// value the configuration ([Engine], -uci: configured) gives it as its
// default, as PolyGlot does: a GUI that sends every option's stored
// default (Arena) then keeps the configured value instead of overriding it.
func withConfiguredDefault(line string, configured []config.Option) string {
	o, err := uci.ParseOption(line)
	if err != nil || o.Type == "button" {
		return line
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

// onSetOption routes a setoption: one of ours (Polyglot ...) changes our
// settings; any other goes to the engine and is kept for a restart.
func (a *Adapter) onSetOption(c uci.Command) {
	o := *c.SetOption
	if len(o.Name) > len(ourOptionPrefix) && strings.EqualFold(o.Name[:len(ourOptionPrefix)], ourOptionPrefix) {
		a.setOurOption(strings.TrimSpace(o.Name[len(ourOptionPrefix):]), o.Value)
		return
	}
	a.toEngine(c.Line)
	a.engine.rememberSetOption(o)
	a.noteChess960(o.Name, o.Value)
	a.noteAnalyseMode(o.Name, o.Value)
}

// noteChess960 follows the engine option UCI_Chess960, however it is set
// (setoption, [Engine], -uci): positions are read, and book moves
// answered, in Chess960's notation while it is on. The game is read again
// from the next position line in the new rules.
func (a *Adapter) noteChess960(name, value string) {
	if !strings.EqualFold(name, "UCI_Chess960") {
		return
	}
	on, err := config.ParseBool(value)
	if err != nil || on == a.game.chess960 {
		return
	}
	a.game.chess960 = on
	a.game.forget()
	if on {
		a.infoString("UCI_Chess960 is on: positions and book moves in Chess960 notation (castling king takes rook) from the next position")
	} else {
		a.infoString("UCI_Chess960 is off: standard chess from the next position")
	}
}

// setOurOption applies "setoption name Polyglot NAME value V" to our
// settings and to what depends on them.
func (a *Adapter) setOurOption(name, value string) {
	if value == "<empty>" {
		value = "" // how UCI writes an empty string; GUIs echo our default back
	}
	if err := a.settings.ApplyPolyGlot(name, value); err != nil {
		a.notify("setoption Polyglot %s: %v", name, err)
		return
	}
	a.log.printf("option Polyglot %s set to %q", name, value)
	a.tellLearning()
	a.stopWarmIfOff()
	switch strings.ToLower(name) {
	case "log", "logfile":
		if a.opts.Log == nil {
			a.applyLogConfig()
		}
	}
	if strings.EqualFold(name, "BookFile") {
		// Reopened even when the path is the same, as PolyGlot does: the
		// way to reload a book that changed.
		a.reopenBooks(func(string) string { return "setoption Polyglot BookFile" })
		return
	}
	a.openBooks() // reopens only when the book settings changed
}

// tellLearning gives the observer the learning settings as they are now.
func (a *Adapter) tellLearning() {
	if a.observer.obs == nil {
		return
	}
	ls := learn.Settings{
		On:          a.settings.BookLearn,
		ResignScore: a.settings.LearnResignScore,
		ResignMoves: a.settings.LearnResignMoves,
		PGN:         a.settings.BookLearnPGN,
	}
	if a.settings.Book {
		ls.Books = booksInUse(a.settings)
	}
	a.observer.laterNow(func(o GameObserver) { o.SetLearning(ls) })
}
