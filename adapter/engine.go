package adapter

import (
	"bytes"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/uci"
)

// onEngineBatch handles a chunk of the engine's lines (each ending in
// '\n') in order, each line's kind found once. Most are info lines passed
// on as they are; a run of them goes to the front as one slice, so a flood
// costs what a copy costs.
func (a *Adapter) onEngineBatch(data []byte) {
	a.runs = a.runs[:0]
	run := lineRun{start: -1} // lines of one kind not yet passed on
	flushRun := func() {
		if run.start < 0 {
			return
		}
		if run.info {
			a.front.Info(data[run.start:run.end])
			a.runs = append(a.runs, run)
		} else {
			a.front.Text(data[run.start:run.end])
		}
		run.start = -1
	}
	scoredUpTo := 0 // info runs before it were looked at for a score
	for start := 0; start < len(data); {
		nl := start + bytes.IndexByte(data[start:], '\n')
		lineStart, end := start, nl+1 // end: after the line's '\n'
		start = nl + 1
		line := data[lineStart:nl]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			// The line ends at its '\r', which becomes its end: the run
			// that holds it ends with it.
			line = line[:len(line)-1]
			data[nl-1] = '\n'
			end = nl
		}
		if a.log.on {
			a.log.traffic("engine>", string(line))
		}
		kind := uci.ClassifyEngineLine(line)
		info := kind == uci.EngineInfo
		if info && a.books.warm.owed > 0 {
			flushRun()
			continue // a warm search's: the GUI did not ask for it
		}
		// Info lines, and any line that is not UCI (the engine's answer to
		// a command of the user's: go perft, d, eval, "Unknown command"),
		// reach the GUI as they are, as from the engine alone; only what
		// it says during a handshake (a banner, start-up talk) stays in
		// the log.
		if (info || kind == uci.EngineOther) && !a.engine.handshaking {
			if run.start >= 0 && (run.info != info || run.end != lineStart) {
				flushRun()
			}
			if run.start < 0 {
				run = lineRun{start: lineStart, info: info}
			}
			run.end = end
			continue
		}
		flushRun()
		switch kind {
		case uci.EngineBestMove:
			a.keepLastScore(data, scoredUpTo)
			scoredUpTo = len(a.runs)
			a.onEngineBestMove(line, data[lineStart:end])
		case uci.EngineReadyOK:
			a.onReadyOK()
		case uci.EngineUCIOK:
			if a.engine.handshaking {
				a.onUCIOK()
			} else {
				a.log.printf("uciok without a uci from us: dropped")
			}
		case uci.EngineID, uci.EngineOption:
			if !a.engine.handshaking {
				a.log.printf("id/option line outside the handshake: dropped")
			} else if err := a.engine.headerLine(string(line), kind == uci.EngineOption); err != nil {
				a.log.printf("engine option line not understood: %v", err)
			}
		case uci.EngineInfo, uci.EngineOther:
			a.log.printf("engine line during its handshake: not relayed")
		default: // copyprotection, registration
			a.front.Text(data[lineStart:end])
		}
	}
	flushRun()
	a.keepLastScore(data, scoredUpTo)
}

// lineRun is a run of the engine's lines of one kind, each ending in
// '\n': data[start:end] of the batch.
type lineRun struct {
	start, end int
	info       bool
}

// keepLastScore keeps the last info line with a score among the info runs
// of data from the from'th, for the observer at bestmove time. It looks
// backwards, so a flood costs one line's check per batch, not one per line.
func (a *Adapter) keepLastScore(data []byte, from int) {
	if a.observer.obs == nil || a.search.state != searchEngine {
		return
	}
	for i := len(a.runs) - 1; i >= from; i-- {
		lines := data[a.runs[i].start:a.runs[i].end]
		for end := len(lines); end > 0; {
			start := bytes.LastIndexByte(lines[:end-1], '\n') + 1
			if line := lines[start : end-1]; uci.HasScore(line) {
				a.search.lastScore = append(a.search.lastScore[:0], line...)
				return
			}
			end = start
		}
	}
}

// onReadyOK passes on the engine's readyok and releases the answers that
// were waiting for it.
func (a *Adapter) onReadyOK() {
	switch r := a.replies.nextReadyOK(); r {
	case replyOwnReadyOK:
		// Our own, after a command of the user's: its answer is complete.
		a.replies.settle(r)
	case replyReadyOK:
		a.front.ReadyOK()
		a.replies.settle(r)
		a.answeredGUI()
	default:
		a.front.ReadyOK()
		a.log.printf("readyok nobody asked for (relayed)")
	}
}

// onEngineBestMove passes on the bestmove (line; whole: with its end) of
// a search the GUI asked for; a bestmove nobody asked for is dropped, so
// the GUI sees exactly one per go.
func (a *Adapter) onEngineBestMove(line, whole []byte) {
	if a.warmSwallows() {
		return
	}
	owed := a.replies.owes(replyBestmove)
	if owed == 0 {
		if a.replies.owes(replyOwnReadyOK) > 0 {
			// Part of the output of a command of the user's (Stockfish's
			// bench prints one per position it searches).
			a.front.Text(whole)
			return
		}
		a.log.printf("bestmove without a pending engine search: dropped")
		return
	}
	bm := BestMove{Raw: line}
	bm.Move, bm.Ponder = parseBestMove(line)
	current := owed == 1 && a.search.state == searchEngine
	if current {
		a.observeBestMove(bm.Move) // before the front moves the game on with it
	}
	a.front.BestMove(bm)
	a.replies.settle(replyBestmove)
	if !current {
		a.log.printf("bestmove of an earlier, stopped search relayed")
		return
	}
	a.search.state = searchNone
	a.search.stopSent, a.search.ponderHit, a.search.reissued = false, false, false
	a.answeredGUI()
	if a.gui.heldBySearch {
		a.gui.heldBySearch = false
		a.releaseQueued()
	}
}

// observeBestMove gives the observer the engine's last score and the
// position after its move, worked out after the bestmove is on its way,
// from a copy of the position (the game's line is not needed: a copy of
// it would cost the game's length).
func (a *Adapter) observeBestMove(move board.Move) {
	scoreLine := string(a.search.lastScore)
	a.search.lastScore = a.search.lastScore[:0]
	if a.observer.obs == nil || !a.game.ok {
		return
	}
	pos := a.game.cur.Pos
	a.observer.later(func(o GameObserver) {
		// Scores are from the side to move.
		if in, err := uci.ParseInfo(scoreLine); err == nil && in.HasScore {
			o.EngineScore(pos.WhiteToMove(), in.Score.CP, in.Score.Mate, in.Score.IsMate)
		}
		if move.IsNull() {
			return
		}
		m := pos.ToPlayed(move) // as board.Line.Play plays it
		if _, err := pos.LegalMove(m); err == nil {
			pos.Play(m)
			o.AfterBestmove(pos)
		}
	})
}
