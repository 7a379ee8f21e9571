package core

import (
	"slices"
	"time"

	"github.com/polyproxy/polyproxy/proxy/link"
	"github.com/polyproxy/polyproxy/proxy/reply"
	"github.com/polyproxy/polyproxy/uci"
)

// search is the GUI's latest go, as long as someone owes its bestmove.
type search struct {
	state searchState
	// The engine's search (state searchEngine):
	limits     uci.Go // its limits, to issue it again after a restart
	engineLine string // the position line it searches
	// endsByItself: it has a limit (depth, nodes, movetime, mate, a
	// clock), so the engine gives its bestmove without a stop, unless it
	// ponders and no ponderhit came.
	endsByItself bool
	ponder       bool      // a go ponder
	ponderHit    bool      // ponderhit was forwarded during it
	reissued     bool      // issued again to an engine restarted after a death in it
	clockFrom    time.Time // when the mover's clock started for it (zero: pondering)
	stopSent     bool
	lastScore    []byte // its last info line with a score, for the observer
	// bookAnswer is the book's answer to a go ponder (state
	// searchBookPonder), held until ponderhit or stop.
	bookAnswer *bookAnswer
}

// searchState is who owes the GUI a bestmove.
type searchState int

const (
	searchNone       searchState = iota
	searchEngine                 // the engine is searching
	searchBookPonder             // a book answer waits for ponderhit or stop
)

// ends reports whether the engine's search ends without a stop.
func (s *search) ends() bool { return s.endsByItself && (!s.ponder || s.ponderHit) }

// hasLimit reports whether a search ends by itself: Stockfish searches a
// go without depth, nodes, movetime, mate or a clock until it is stopped.
func hasLimit(g *uci.Go) bool {
	if g.Infinite {
		return false
	}
	return g.Depth > 0 || g.Nodes > 0 || g.MoveTime > 0 || g.Mate > 0 || g.HasWTime || g.HasBTime
}

// stopEngineSearch stops the engine's search, once.
func (c *Core) stopEngineSearch() {
	if c.search.state == searchEngine && !c.search.stopSent {
		c.search.stopSent = true
		c.toEngine("stop")
	}
}

// onStop stops whoever searches: the engine (once), or a held book answer
// goes out; with nothing running the stop goes nowhere.
func (c *Core) onStop() {
	switch c.search.state {
	case searchEngine:
		c.stopEngineSearch()
	case searchBookPonder:
		c.releaseBookAnswer(false)
	default:
		c.log.Printf("stop with no search running: swallowed")
	}
}

// onPonderHit turns a ponder search into a real one: the engine's clock
// starts now, or the held book answer goes out as played.
func (c *Core) onPonderHit() {
	c.game.PonderHit() // the move pondered on is played
	switch c.search.state {
	case searchEngine:
		c.search.ponderHit = true
		c.search.clockFrom = time.Now()
		c.toEngine("ponderhit")
	case searchBookPonder:
		c.releaseBookAnswer(true)
	default:
		c.log.Printf("ponderhit with no search running: swallowed")
	}
}

// onGo answers from the book when it may, else lets the engine search.
//
// A go before the last search's bestmove still gets exactly one bestmove,
// in order. A search the engine ends by itself is never cut short: the go
// waits for its bestmove, as it would with the engine alone (Stockfish
// takes no new go until the running search ends), and the GUI's commands
// after it wait too. Only a search that cannot end by itself (go infinite,
// a go ponder without ponderhit) is stopped first: the engine would wait
// for ever.
func (c *Core) onGo(limits uci.Go, line string) {
	if c.game.Pondering() && !limits.Ponder {
		c.settlePonder() // a search of the game as played
	}
	switch {
	case c.search.state == searchBookPonder:
		c.log.Printf("go while a book answer waits for ponderhit: that answer is sent as stopped")
		c.releaseBookAnswer(false)
	case c.search.state == searchEngine && !c.search.stopSent && c.search.ends() && c.end.phase < hurried:
		c.log.Printf("go while the engine's search runs: it waits for that search's bestmove")
		c.queue = slices.Insert(c.queue, 0, command(goSearch{limits: limits, line: line}))
		c.heldBySearch = true
		return
	case c.search.state == searchEngine && !c.search.stopSent:
		c.log.Printf("go while the engine's search cannot end by itself: stopping it first")
		c.stopEngineSearch()
	}
	c.search.state = searchNone
	if c.game.Refused() != "" {
		c.log.Printf("book: no (position refused); no search: bestmove 0000")
		c.replies.Emit([]answer{{bm: BestMove{Why: c.game.Refused()}}}, nil)
		return
	}
	if c.game.OK() {
		c.books.Asked(c.game.Number(), len(c.game.Current().Keys)-1)
	}
	if ans, ok := c.bookMove(&limits); ok {
		if limits.Ponder {
			c.search.state = searchBookPonder
			c.search.bookAnswer = ans
			c.log.Printf("book answer held until ponderhit or stop")
			c.startWarm(c.game.EngineLine(), "the GUI ponders on a book position", false)
			return
		}
		c.search.bookAnswer = ans
		c.releaseBookAnswer(true)
		return
	}
	c.search.engineLine = c.game.EngineLine()
	if line == "" {
		line = limits.String()
	}
	c.toEngineAfterPosition(line)
	c.replies.Expect(reply.Bestmove)
	c.search.state = searchEngine
	c.search.limits = limits
	c.search.endsByItself = hasLimit(&limits)
	c.search.ponder = limits.Ponder
	c.search.reissued = false
	c.search.clockFrom = time.Time{}
	if !limits.Ponder {
		c.search.clockFrom = time.Now()
	}
	c.search.stopSent, c.search.ponderHit = false, false
	c.search.lastScore = c.search.lastScore[:0]
}

// toEngineAfterPosition sends the GUI's position (the engine gets it only
// when it is to search: book answers need none) and then goLine.
func (c *Core) toEngineAfterPosition(goLine string) {
	if pos := c.game.EngineLine(); pos != "" {
		c.toEnginePosition(pos)
	}
	c.toEngine(goLine)
}

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
