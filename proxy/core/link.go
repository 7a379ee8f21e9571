package core

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/proxy/link"
	"github.com/polyproxy/polyproxy/proxy/reply"
)

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
		c.fatalf("cannot restart the engine: %v", err)
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
		c.fatalf("the engine ended before finishing the uci handshake (%s): is EngineCommand a UCI engine?", status)
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
