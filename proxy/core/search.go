package core

import (
	"slices"
	"time"

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
