package core

import (
	"github.com/polyproxy/polyproxy/proxy/link"
	"github.com/polyproxy/polyproxy/proxy/reply"
)

// The warm searches (BookPonder) as the settings allow them: the link runs
// them (link.StartWarm).

// startWarm lets the engine search position line while nothing else needs
// it, when BookPonder is on and the engine owes the GUI no bestmove; why
// says what for, in the log; always tells that it is BookPonderAlways's
// search.
func (c *Core) startWarm(line, why string, always bool) {
	if !c.warmAllowed(always) || c.replies.Owes(reply.Bestmove) > 0 {
		return
	}
	c.sent(c.engine.StartWarm(line, why, always))
	if running, _ := c.engine.Warm(); running {
		c.soon = false // the search takes the CPU (answerDue)
	}
}

// warmAfterBookMove starts, with BookPonderAlways, the search of the
// position after a book move just played, in the opponent's time.
func (c *Core) warmAfterBookMove(ans *bookAnswer) {
	if !c.warmAllowed(true) || !c.game.OK() || c.game.Seq() != ans.forGame {
		return
	}
	c.startWarm(link.WithMove(c.game.EngineLine(), ans.move), "after the book move "+ans.move+", in the opponent's time", true)
}

// warmAllowed reports whether the settings allow a warm search, always
// telling whether it is BookPonderAlways's: the book must be on too (a
// book answer held from before it was turned off still goes out, but
// starts no search).
func (c *Core) warmAllowed(always bool) bool {
	s := c.settings
	return s.Book && s.BookPonder && (!always || s.BookPonderAlways)
}

// stopWarmIfOff ends the running warm search when the settings no longer
// allow it (the GUI turned Book, BookPonder or BookPonderAlways off): no
// search the GUI did not ask for goes on once the feature is off.
func (c *Core) stopWarmIfOff() {
	if running, always := c.engine.Warm(); !running || c.warmAllowed(always) {
		return
	}
	c.log.Printf("warm engine: stopped, the settings no longer allow it")
	c.sent(c.engine.StopWarm())
}
