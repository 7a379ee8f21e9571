package adapter

import (
	"slices"
	"time"

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
func (a *Adapter) stopEngineSearch() {
	if a.search.state == searchEngine && !a.search.stopSent {
		a.search.stopSent = true
		a.toEngine("stop")
	}
}

// onStop stops whoever searches: the engine (once), or a held book answer
// goes out; with nothing running the stop goes nowhere.
func (a *Adapter) onStop() {
	switch a.search.state {
	case searchEngine:
		a.stopEngineSearch()
	case searchBookPonder:
		a.releaseBookAnswer(false)
	default:
		a.log.printf("stop with no search running: swallowed")
	}
}

// onPonderHit turns a ponder search into a real one: the engine's clock
// starts now, or the held book answer goes out as played.
func (a *Adapter) onPonderHit() {
	a.game.pondering = false // the move pondered on is played
	switch a.search.state {
	case searchEngine:
		a.search.ponderHit = true
		a.search.clockFrom = time.Now()
		a.toEngine("ponderhit")
	case searchBookPonder:
		a.releaseBookAnswer(true)
	default:
		a.log.printf("ponderhit with no search running: swallowed")
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
func (a *Adapter) onGo(limits uci.Go) {
	if a.game.pondering && !limits.Ponder {
		a.settlePonder() // a search of the game as played
	}
	switch {
	case a.search.state == searchBookPonder:
		a.log.printf("go while a book answer waits for ponderhit: that answer is sent as stopped")
		a.releaseBookAnswer(false)
	case a.search.state == searchEngine && !a.search.stopSent && a.search.ends() && a.end.phase < hurried:
		a.log.printf("go while the engine's search runs: it waits for that search's bestmove")
		a.gui.queued = slices.Insert(a.gui.queued, 0, command{kind: cmdGo, limits: limits})
		a.gui.heldBySearch = true
		return
	case a.search.state == searchEngine && !a.search.stopSent:
		a.log.printf("go while the engine's search cannot end by itself: stopping it first")
		a.stopEngineSearch()
	}
	a.search.state = searchNone
	if a.game.refused != "" {
		a.log.printf("book: no (position refused); no search: bestmove 0000")
		a.replies.emit([]*answer{{bm: BestMove{Why: a.game.refused}}}, nil)
		return
	}
	if a.game.ok {
		a.books.policy.asked(a.game.number, len(a.game.cur.Keys)-1)
	}
	if ans, ok := a.bookMove(&limits); ok {
		if limits.Ponder {
			a.search.state = searchBookPonder
			a.search.bookAnswer = ans
			a.log.printf("book answer held until ponderhit or stop")
			a.startWarm(a.game.engineLine(), "the GUI ponders on a book position", false)
			return
		}
		a.search.bookAnswer = ans
		a.releaseBookAnswer(true)
		return
	}
	a.search.engineLine = a.game.engineLine()
	a.toEngineAfterPosition(limits.String())
	a.replies.expect(replyBestmove)
	a.search.state = searchEngine
	a.search.limits = limits
	a.search.endsByItself = hasLimit(&limits)
	a.search.ponder = limits.Ponder
	a.search.reissued = false
	a.search.clockFrom = time.Time{}
	if !limits.Ponder {
		a.search.clockFrom = time.Now()
	}
	a.search.stopSent, a.search.ponderHit = false, false
	a.search.lastScore = a.search.lastScore[:0]
}

// toEngineAfterPosition sends the GUI's position (the engine gets it only
// when it is to search: book answers need none) and then goLine.
func (a *Adapter) toEngineAfterPosition(goLine string) {
	if pos := a.game.engineLine(); pos != "" {
		a.toEnginePosition(pos)
	}
	a.toEngine(goLine)
}

// toEnginePosition sends the engine a position line, and notes it as the
// engine's position.
func (a *Adapter) toEnginePosition(line string) {
	a.toEngine(line)
	a.engine.position = line
}
