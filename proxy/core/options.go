package core

import (
	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/learn"
	"github.com/polyproxy/polyproxy/proxy/link"
	"github.com/polyproxy/polyproxy/proxy/logfile"
	"github.com/polyproxy/polyproxy/uci"
)

// onSetOption routes a setoption: one of ours (Polyglot ...) changes our
// settings; any other goes to the engine and is kept for a restart.
func (c *Core) onSetOption(o uci.SetOption) {
	if name, ours := config.OurOption(o.Name); ours {
		c.setOurOption(name, o.Value)
		return
	}
	was := c.engine.Modes()
	c.sent(c.engine.SetOption(o))
	c.noteModes(was)
}

// noteModes follows the modes the engine was set to (link.Modes),
// however they were set (setoption, [Engine], -uci), from was. With
// UCI_Chess960 positions are read, and book moves answered, in
// Chess960's notation: the game is read again from the next position
// line in the new rules. UCI_AnalyseMode puts the book off: analysis is
// the engine's; only logged, since python-chess switches it for every
// analyse and play.
func (c *Core) noteModes(was link.Modes) {
	now := c.engine.Modes()
	if now.Chess960 != was.Chess960 {
		c.game.SetChess960(now.Chess960)
		if now.Chess960 {
			c.notice("UCI_Chess960 is on: positions and book moves in Chess960 notation (castling king takes rook) from the next position")
		} else {
			c.notice("UCI_Chess960 is off: standard chess from the next position")
		}
	}
	switch {
	case now.Analyse == was.Analyse:
	case now.Analyse:
		c.log.Printf("UCI_AnalyseMode on: book off, the engine analyses")
	default:
		c.log.Printf("UCI_AnalyseMode off: book on again")
	}
}

// setOurOption applies "setoption name Polyglot NAME value V" to our
// settings and makes anew what the change invalidates (config's table
// says what).
func (c *Core) setOurOption(name, value string) {
	changed, err := c.settings.SetOption(name, value)
	if err != nil {
		c.notify("setoption Polyglot %s: %v", name, err)
		return
	}
	c.log.Printf("option Polyglot %s set to %q", name, value)
	if changed&config.ResendLearning != 0 {
		c.tellLearning()
	}
	if changed&config.RecheckWarm != 0 {
		c.stopWarmIfOff()
	}
	if changed&config.ReopenLog != 0 && c.opts.Log == nil {
		c.applyLogConfig()
	}
	if s, _ := config.Lookup(name); s != nil && s.Reload {
		// Reopened even when the value is the same, as PolyGlot does:
		// the way to reload a book that changed.
		c.openBooks(changed &^ config.ReopenBooks)
		c.tell(c.books.Reopen(func(string) string { return "setoption Polyglot " + s.Name }))
		return
	}
	c.openBooks(changed)
}

// tellLearning gives the observer the learning settings as they are now.
func (c *Core) tellLearning() {
	if !c.observer.On() {
		return // nothing to work out
	}
	ls := learn.Settings{
		On:          c.settings.BookLearn,
		ResignScore: c.settings.LearnResignScore,
		ResignMoves: c.settings.LearnResignMoves,
		PGN:         c.settings.BookLearnPGN,
	}
	if c.settings.Book {
		ls.Books = c.settings.BooksInUse()
	}
	c.observer.Now(func(o GameObserver) { o.SetLearning(ls) })
}

// applyLogConfig (re)opens the log after a change of Log or LogFile.
func (c *Core) applyLogConfig() {
	c.log.Close()
	l, err := logfile.Open(c.settings)
	if err != nil {
		c.notify("%v: logging off", err)
		return
	}
	c.log = l
}

// onObserverSaid passes on what the observer said: to the log, and its
// warnings to stderr and the GUI too.
func (c *Core) onObserverSaid() {
	for _, w := range c.observer.Said() {
		if w.Warn {
			c.notify("%s", w.Msg)
		} else {
			c.log.Printf("%s", w.Msg)
		}
	}
}

// EngineOption is the option the engine announced under name (in any
// case), as it announced it.
func (c *Core) EngineOption(name string) (uci.Option, bool) { return c.engine.Option(name) }

// sendConfiguredOptions sends the configured engine options ([Engine],
// -uci) that the engine announced, in its spelling and fitted to its
// range (link.Configure), and tells the user of the others.
func (c *Core) sendConfiguredOptions() {
	was := c.engine.Modes()
	notices, err := c.engine.Configure(c.settings.EngineOptions)
	for _, n := range notices {
		c.notify("%s", n)
	}
	c.sent(err)
	c.noteModes(was)
}
