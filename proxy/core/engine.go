package core

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/book/board"
	"github.com/polyproxy/polyproxy/internal/plainerr"
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

// The core's side of the engine link (proxy/link): starting the engine,
// its deaths and restarts, and the lines it is sent.

// startEngine starts the engine and begins its handshake, and has its
// output read: by the poll loop itself when it can, else by a goroutine.
// The rest happens as its lines arrive (onUCIOK).
func (c *Core) startEngine() error {
	eng, err := c.opts.StartEngine()
	if err != nil {
		return err
	}
	c.loop.Start(&c.slowHandshake, c.opts.SlowHandshake, c.onSlowHandshake)
	// The process may end with its output still open in one it left
	// behind: ending its group closes it, and the end of its output is the
	// death (after any last lines).
	c.loop.Attach(eng, eng.Kill)
	c.sent(c.engine.Start(eng))
	return nil
}

// onSlowHandshake: the engine has not answered uci in time; the GUI
// decides how long to wait, but the user is told.
func (c *Core) onSlowHandshake() {
	c.notify("the engine has not answered uci with uciok after %v: is %q a UCI engine?", c.opts.SlowHandshake, strings.Join(c.settings.EngineArgv, " "))
}

// toEngine sends one line to the engine.
func (c *Core) toEngine(line string) {
	if strings.HasPrefix(line, "go") {
		c.soon = false // the search takes the CPU (answerDue)
	}
	c.sent(c.engine.Send(line))
}

// toEnginePosition sends the engine a position line.
func (c *Core) toEnginePosition(line string) { c.sent(c.engine.SendPosition(line)) }

// sent reports what went wrong sending the engine a line: an engine that
// stopped reading its input has been ended, and its death is handled as
// any other.
func (c *Core) sent(err error) {
	switch {
	case errors.Is(err, link.ErrStalled):
		c.notify("%v", err)
	case err != nil:
		c.log.Printf("writing to the engine: %v", err)
	}
}

// onEngineDeath restarts the engine; a second death within a minute, a
// death at start, or too many positions that kill it, are fatal. When the
// restarted engine dies again in the search it was given again, that
// position kills it: the search gets bestmove 0000 and the run goes on
// with a fresh engine. A death in a search of our own (a warm search) is
// never fatal.
func (c *Core) onEngineDeath() error {
	if err := c.judgeDeath(c.engine.Ended()); err != nil {
		return err
	}
	if err := c.startEngine(); err != nil {
		c.fatalf("cannot restart the engine: %s; check EngineCommand%s", plainerr.Text(err), c.engineCommandSet())
		return err
	}
	return nil
}

// judgeDeath says what a death means (link.Judge): an error when it is
// fatal, else nil (the engine is restarted).
func (c *Core) judgeDeath(status string) error {
	switch c.engine.Judge(c.search.state == searchEngine && c.search.reissued) {
	case link.InWarmSearch:
		c.notify("%s", c.engine.WarmDeath(status))
	case link.InHandshake:
		c.fatalf("the engine %q ended before finishing the uci handshake (%s): is it a UCI engine? Check EngineCommand%s", strings.Join(c.settings.EngineArgv, " "), status, c.engineCommandSet())
		return fmt.Errorf("%w during the handshake (%s)", ErrEngineDied, status)
	case link.Again:
		c.notify("the engine died again within a minute (%s): giving up", status)
		return fmt.Errorf("%w twice within a minute (%s)", ErrEngineDied, status)
	case link.TooOften:
		c.notify("the engine died (%s) on %d positions within a minute: giving up", status, link.MaxPoisons)
		return fmt.Errorf("%w on %d positions within a minute (%s)", ErrEngineDied, link.MaxPoisons, status)
	case link.Poison:
		c.onPoisonedSearch(status)
	default:
		c.notify("the engine died (%s): restarting it", status)
	}
	return nil
}

// onPoisonedSearch answers a search whose position killed the engine
// twice: bestmove 0000, with an info string saying why, and that position
// is not sent to an engine again (a go on it gets bestmove 0000 at once);
// the GUI's next position goes to a fresh engine.
func (c *Core) onPoisonedSearch(status string) {
	why := "the engine died twice in a search of this position (" + status + ")"
	c.notify("%s: bestmove 0000; a fresh engine for what follows", why)
	for range c.replies.ReplaceLostBestmoves(false) {
	}
	c.game.Poison(c.search.engineLine, why)
	c.search.state = searchNone
	c.search.reissued = false
	c.heldBySearch = false // what waited for that search waits for the new engine's handshake now
}

// onUCIOK completes a handshake: options from the configuration, then,
// after a restart, what the dead engine had; then the GUI's commands that
// waited for it.
func (c *Core) onUCIOK() {
	c.slowHandshake.Stop()
	restart := c.engine.HandshakeDone()
	c.sendConfiguredOptions()
	if restart {
		c.resume()
	}
	c.releaseQueued()
}

// resume gives a restarted engine what the dead one had: the GUI's
// options, a new game, the isreadys it had not answered, the position and
// the search it was in.
func (c *Core) resume() {
	c.sent(c.engine.Resume())
	// Bestmoves of stopped searches the dead engine owed will not
	// come; the latest search is issued again below.
	for range c.replies.ReplaceLostBestmoves(c.search.state == searchEngine) {
		c.log.Printf("the engine died owing the bestmove of a stopped search: bestmove 0000 instead")
	}
	for range c.replies.Owes(reply.ReadyOK) + c.replies.Owes(reply.OwnReadyOK) {
		c.toEngine("isready")
	}
	switch {
	case c.search.state == searchEngine:
		c.toEnginePosition(c.search.engineLine)
	case c.game.EngineLine() != "":
		c.toEnginePosition(c.game.EngineLine())
	}
	if c.search.state == searchEngine {
		// The position just sent is the one the search was for.
		limits := c.search.limits
		if c.search.ponderHit {
			limits.Ponder = false
		}
		if !c.search.clockFrom.IsZero() {
			// The mover's clock has run since the search began (or the
			// ponder hit): the new engine must not count on that time.
			white, black := true, true
			if c.game.OK() {
				white = (&c.game.Current().Pos).WhiteToMove()
				black = !white
			}
			limits = limits.Charged(time.Since(c.search.clockFrom).Milliseconds(), white, black)
		}
		goLine := limits.String()
		c.log.Printf("re-issuing the search the engine died in: %s", goLine)
		c.toEngine(goLine)
		c.search.reissued = !c.engine.DiedWarm()
		if c.search.stopSent {
			c.toEngine("stop")
		}
	}
}
