package core

import (
	"bytes"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/proxy/link"
	"github.com/polyproxy/polyproxy/proxy/reply"
	"github.com/polyproxy/polyproxy/uci"
)

// onEngineBatch handles a chunk of the engine's lines (each ending in
// '\n') in order, each line's kind found once. Most are info lines passed
// on as they are; a run of them goes to the front as one slice, so a flood
// costs what a copy costs.
func (c *Core) onEngineBatch(data []byte) {
	c.runs = c.runs[:0]
	run := lineRun{start: -1} // lines of one kind not yet passed on
	flushRun := func() {
		if run.start < 0 {
			return
		}
		if run.info {
			c.front.Info(data[run.start:run.end])
			c.runs = append(c.runs, run)
		} else {
			c.front.Text(data[run.start:run.end])
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
		if c.log.On() {
			c.log.Traffic("engine>", string(line))
		}
		kind := uci.ClassifyEngineLine(line)
		info := kind == uci.EngineInfo
		if info && c.engine.InWarm() {
			flushRun()
			continue // a warm search's: the GUI did not ask for it
		}
		// Info lines, and any line that is not UCI (the engine's answer to
		// a command of the user's: go perft, d, eval, "Unknown command"),
		// reach the GUI as they are, as from the engine alone; only what
		// it says during a handshake (a banner, start-up talk) stays in
		// the log.
		if (info || kind == uci.EngineOther) && !c.engine.Handshaking() {
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
			c.keepLastScore(data, scoredUpTo)
			scoredUpTo = len(c.runs)
			c.onEngineBestMove(line, data[lineStart:end])
		case uci.EngineReadyOK:
			c.onReadyOK()
		case uci.EngineUCIOK:
			if c.engine.Handshaking() {
				c.onUCIOK()
			} else {
				c.log.Printf("uciok without a uci from us: dropped")
			}
		case uci.EngineID, uci.EngineOption:
			if !c.engine.Handshaking() {
				c.log.Printf("id/option line outside the handshake: dropped")
			} else if err := c.engine.HeaderLine(string(line), kind == uci.EngineOption); err != nil {
				c.log.Printf("engine option line not understood: %v", err)
			}
		case uci.EngineInfo, uci.EngineOther:
			c.log.Printf("engine line during its handshake: not relayed")
		default: // copyprotection, registration
			c.front.Text(data[lineStart:end])
		}
	}
	flushRun()
	c.keepLastScore(data, scoredUpTo)
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
func (c *Core) keepLastScore(data []byte, from int) {
	if !c.observer.On() || c.search.state != searchEngine {
		return
	}
	for i := len(c.runs) - 1; i >= from; i-- {
		lines := data[c.runs[i].start:c.runs[i].end]
		for end := len(lines); end > 0; {
			start := bytes.LastIndexByte(lines[:end-1], '\n') + 1
			if line := lines[start : end-1]; uci.HasScore(line) {
				c.search.lastScore = append(c.search.lastScore[:0], line...)
				return
			}
			end = start
		}
	}
}

// onReadyOK passes on the engine's readyok and releases the answers that
// were waiting for it.
func (c *Core) onReadyOK() {
	switch r := c.replies.NextReadyOK(); r {
	case reply.OwnReadyOK:
		// Our own, after a command of the user's: its answer is complete.
		c.replies.Settle(r)
	case reply.ReadyOK:
		c.front.ReadyOK()
		c.replies.Settle(r)
		c.answeredGUI()
	default:
		c.front.ReadyOK()
		c.log.Printf("readyok nobody asked for (relayed)")
	}
}

// onEngineBestMove passes on the bestmove (line; whole: with its end) of
// a search the GUI asked for; a bestmove nobody asked for is dropped, so
// the GUI sees exactly one per go.
func (c *Core) onEngineBestMove(line, whole []byte) {
	if c.engine.SwallowBestmove() {
		c.search.lastScore = c.search.lastScore[:0] // its scores are no search's of the GUI
		return
	}
	owed := c.replies.Owes(reply.Bestmove)
	if owed == 0 {
		if c.replies.Owes(reply.OwnReadyOK) > 0 {
			// Part of the output of a command of the user's (Stockfish's
			// bench prints one per position it searches).
			c.front.Text(whole)
			return
		}
		c.log.Printf("bestmove without a pending engine search: dropped")
		return
	}
	bm := BestMove{Raw: line}
	bm.Move, bm.Ponder = link.ParseBestMove(line)
	current := owed == 1 && c.search.state == searchEngine
	if current {
		c.observeBestMove(bm.Move) // before the front moves the game on with it
	}
	c.front.BestMove(bm)
	c.replies.Settle(reply.Bestmove)
	if !current {
		c.log.Printf("bestmove of an earlier, stopped search relayed")
		return
	}
	c.search.state = searchNone
	c.search.stopSent, c.search.ponderHit, c.search.reissued = false, false, false
	c.answeredGUI()
	if c.heldBySearch {
		c.heldBySearch = false
		c.releaseQueued()
	}
}

// observeBestMove gives the observer the engine's last score and the
// position after its move, worked out after the bestmove is on its way,
// from a copy of the position (the game's line is not needed: a copy of
// it would cost the game's length).
func (c *Core) observeBestMove(move board.Move) {
	scoreLine := string(c.search.lastScore)
	c.search.lastScore = c.search.lastScore[:0]
	if !c.observer.On() || !c.game.OK() {
		return
	}
	pos := c.game.Current().Pos
	c.observer.Later(func(o GameObserver) {
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
