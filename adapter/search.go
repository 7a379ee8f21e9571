package adapter

import (
	"time"

	"github.com/polyproxy/polyproxy/uci"
)

// search is the GUI's latest go, as long as someone owes its bestmove.
type search struct {
	state searchState
	// The engine's search (state searchEngine):
	goLine    string    // the go line it is searching, to issue again after a restart
	ponderHit bool      // ponderhit was forwarded during it
	clockFrom time.Time // when the mover's clock started for it (zero: pondering)
	stopSent  bool
	lastScore []byte // its last info line with a score, for the observer
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

// onStop stops whoever searches: the engine (once), or a held book answer
// goes out; with nothing running the stop goes nowhere.
func (a *Adapter) onStop() {
	switch a.search.state {
	case searchEngine:
		if !a.search.stopSent {
			a.search.stopSent = true
			a.toEngine("stop")
		}
	case searchBookPonder:
		a.releaseBookAnswer(false)
	default:
		a.log.printf("stop with no search running: swallowed")
	}
}

// onPonderHit turns a ponder search into a real one: the engine's clock
// starts now, or the held book answer goes out as played.
func (a *Adapter) onPonderHit(c uci.Command) {
	switch a.search.state {
	case searchEngine:
		a.search.ponderHit = true
		a.search.clockFrom = time.Now()
		a.toEngine(c.Line)
	case searchBookPonder:
		a.releaseBookAnswer(true)
	default:
		a.log.printf("ponderhit with no search running: swallowed")
	}
}

// onGo answers from the book when it may, else lets the engine search.
func (a *Adapter) onGo(c uci.Command) {
	// A go before the last search's bestmove is a GUI error; each go still
	// gets exactly one bestmove, in order.
	switch {
	case a.search.state == searchBookPonder:
		a.log.printf("go while a book answer waits for ponderhit (GUI error): that answer is sent as stopped")
		a.releaseBookAnswer(false)
	case a.search.state == searchEngine && !a.search.stopSent:
		// Unstopped, an infinite or ponder search would never end, and an
		// engine such as Stockfish takes no new go until it does.
		a.log.printf("go during the engine's search (GUI error): stopping that search first")
		a.toEngine("stop")
	}
	a.search.state = searchNone
	if a.game.refused != "" {
		a.log.printf("book: no (position refused); no search: bestmove 0000")
		a.replies.emit([]string{"info string no move: " + a.game.refused, "bestmove 0000"}, nil)
		return
	}
	if ans, ok := a.bookMove(c.Go); ok {
		if c.Go.Ponder {
			a.search.state = searchBookPonder
			a.search.bookAnswer = ans
			a.log.printf("book answer held until ponderhit or stop")
			return
		}
		a.search.bookAnswer = ans
		a.releaseBookAnswer(true)
		return
	}
	a.toEngineAfterPosition(c.Line)
	a.replies.expect(replyBestmove)
	a.search.state = searchEngine
	a.search.goLine = c.Line
	a.search.clockFrom = time.Time{}
	if !c.Go.Ponder {
		a.search.clockFrom = time.Now()
	}
	a.search.stopSent, a.search.ponderHit = false, false
	a.search.lastScore = a.search.lastScore[:0]
}

// toEngineAfterPosition sends the GUI's position (the engine gets it only
// when it is to search: book answers need none) and then goLine.
func (a *Adapter) toEngineAfterPosition(goLine string) {
	if a.game.engineLine != "" {
		a.toEngine(a.game.engineLine)
	}
	a.toEngine(goLine)
}
