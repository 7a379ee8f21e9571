package adapter

import (
	"bytes"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/uci"
)

// onEngineBatch handles a chunk of the engine's lines (each ending in
// '\n') in order. Most are info lines relayed byte for byte; a run of them
// is written to the GUI as one slice, so a flood costs what a copy costs.
func (a *Adapter) onEngineBatch(data []byte) {
	runStart := -1 // start of lines relayed as they are, not yet written
	flushRun := func(end int) {
		if runStart >= 0 {
			a.gui.out.WriteLinesRaw(data[runStart:end])
			runStart = -1
		}
	}
	start := 0
	scoredUpTo := 0 // lines before it were looked at for a score
	for start < len(data) {
		nl := start + bytes.IndexByte(data[start:], '\n')
		line := data[start:nl]
		lineStart := start
		start = nl + 1
		cr := len(line) > 0 && line[len(line)-1] == '\r'
		if cr {
			line = line[:len(line)-1]
		}
		if a.log.on {
			a.log.traffic("engine>", string(line))
		}
		kind := uci.ClassifyEngineLine(line)
		if kind == uci.EngineInfo && a.books.warm.owed > 0 {
			flushRun(lineStart)
			continue // a warm search's: the GUI did not ask for it
		}
		// Info lines, and any line that is not UCI (the engine's answer to
		// a command of the user's: go perft, d, eval, "Unknown command"),
		// reach the GUI as they are, as from the engine alone; only what
		// it says during a handshake (a banner, start-up talk) stays in
		// the log.
		if (kind == uci.EngineInfo || kind == uci.EngineOther) && !a.engine.handshaking {
			if a.log.on {
				a.log.traffic(">gui", string(line))
			}
			if cr {
				flushRun(lineStart)
				a.gui.out.WriteLineBytes(line)
			} else if runStart < 0 {
				runStart = lineStart
			}
			continue
		}
		flushRun(lineStart)
		switch kind {
		case uci.EngineBestMove:
			a.keepLastScore(data[scoredUpTo:lineStart])
			scoredUpTo = start
			a.onEngineBestMove(line)
		case uci.EngineReadyOK:
			a.onReadyOK(line)
		case uci.EngineUCIOK:
			if a.engine.handshaking {
				a.onUCIOK()
			} else {
				a.log.printf("uciok without a uci from us: dropped")
			}
		case uci.EngineID, uci.EngineOption:
			if !a.engine.handshaking {
				a.log.printf("id/option line outside the handshake: dropped")
			} else if err := a.engine.headerLine(string(line)); err != nil {
				a.log.printf("engine option line not understood: %v", err)
			}
		case uci.EngineInfo, uci.EngineOther:
			a.log.printf("engine line during its handshake: not relayed")
		default: // copyprotection, registration
			a.relay(line)
		}
	}
	flushRun(len(data))
	a.keepLastScore(data[scoredUpTo:])
}

// keepLastScore keeps the last info line with a score among lines (whole
// lines), for the observer at bestmove time. It looks backwards, so a
// flood costs one line's check per batch, not one per line.
func (a *Adapter) keepLastScore(lines []byte) {
	if a.observer.obs == nil || a.search.state != searchEngine {
		return
	}
	for end := len(lines); end > 0; {
		start := bytes.LastIndexByte(lines[:end-1], '\n') + 1
		line := bytes.TrimSuffix(lines[start:end-1], []byte("\r"))
		if uci.ClassifyEngineLine(line) == uci.EngineInfo && uci.HasScore(line) {
			a.search.lastScore = append(a.search.lastScore[:0], line...)
			return
		}
		end = start
	}
}

// relay passes an engine line to the GUI unchanged.
func (a *Adapter) relay(line []byte) {
	if a.log.on {
		a.log.traffic(">gui", string(line))
	}
	a.gui.out.WriteLineBytes(line)
}

// onReadyOK relays the engine's readyok and releases the output that was
// waiting for it.
func (a *Adapter) onReadyOK(line []byte) {
	switch r := a.replies.nextReadyOK(); r {
	case replyOwnReadyOK:
		// Our own, after a command of the user's: its answer is complete.
		a.replies.settle(r)
	case replyReadyOK:
		a.relay(line)
		a.replies.settle(r)
		a.answeredGUI()
	default:
		a.relay(line)
		a.log.printf("readyok nobody asked for (relayed)")
	}
}

// onEngineBestMove relays the bestmove of a search the GUI asked for; a
// bestmove nobody asked for is dropped, so the GUI sees exactly one per go.
func (a *Adapter) onEngineBestMove(line []byte) {
	if a.warmSwallows() {
		return
	}
	owed := a.replies.owes(replyBestmove)
	if owed == 0 {
		if a.replies.owes(replyOwnReadyOK) > 0 {
			// Part of the output of a command of the user's (Stockfish's
			// bench prints one per position it searches).
			a.relay(line)
			return
		}
		a.log.printf("bestmove without a pending engine search: dropped")
		return
	}
	a.relay(line)
	a.replies.settle(replyBestmove)
	if owed > 1 || a.search.state != searchEngine {
		a.log.printf("bestmove of an earlier, stopped search relayed")
		return
	}
	a.search.state = searchNone
	a.search.stopSent, a.search.ponderHit, a.search.reissued = false, false, false
	a.answeredGUI()
	if a.gui.heldBySearch {
		a.gui.heldBySearch = false
		defer a.releaseQueued() // after this bestmove is settled
	}
	scoreLine := string(a.search.lastScore)
	a.search.lastScore = a.search.lastScore[:0]
	if a.observer.obs == nil || !a.game.ok {
		return
	}
	// Worked out after the bestmove is on its way, from a copy of the
	// position (the game's line is not needed: a copy of it would cost
	// the game's length).
	pos := a.game.cur.Pos
	bestmove := string(line)
	a.observer.later(func(o GameObserver) {
		// Scores are from the side to move.
		if in, err := uci.ParseInfo(scoreLine); err == nil && in.HasScore {
			o.EngineScore(pos.WhiteToMove(), in.Score.CP, in.Score.Mate, in.Score.IsMate)
		}
		bm, err := uci.ParseBestMove(bestmove)
		if err != nil {
			return
		}
		if m, err := board.ParseMove(bm.Move); err == nil {
			m = pos.ToPlayed(m) // as board.Line.Play plays it
			if _, err := pos.LegalMove(m); err == nil {
				pos.Play(m)
				o.AfterBestmove(pos)
			}
		}
	})
}
