package core

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/polyproxy/polyproxy/config"
	"github.com/polyproxy/polyproxy/proxy/loop"
	"github.com/polyproxy/polyproxy/proxy/reply"
	"github.com/polyproxy/polyproxy/uci"
)

// engineLink is the running engine and what we know of it: which start it
// is, its handshake and what it announced there, and what must survive a
// restart (the GUI's options, when it last died). The core's loop owns
// it like all its state; what the engine says is handled by the core.
type engineLink struct {
	eng Engine
	gen int // counts starts: lines from an older one are a dead engine's last words

	handshaking bool      // "uci" sent, uciok not yet received
	everReady   bool      // a handshake has completed once: a death from now on is restarted
	lastDeath   time.Time // a second death within restartWindow of it is fatal
	// slowHandshake fires when the engine has not finished its handshake
	// in time (unset once it has).
	slowHandshake loop.Timer

	position string      // the last position line it was sent ("": none since its start or ucinewgame)
	header   []announced // the engine's id and option lines, for the GUI's uci
	name     string      // its id name
	options  []uci.Option
	// configured are the configured options ([Engine], -uci) as sent to
	// it: its spelling, values fitted to its ranges.
	configured []config.Option
	// guiSetOptions are the engine options the GUI set, replayed after a
	// restart; the latest value of each wins.
	guiSetOptions []uci.SetOption
	// poisons are when positions killed it twice, within restartWindow.
	poisons []time.Time
	// diedWarm: the last death was in a warm search. A search of the
	// GUI's issued again after it is then not yet known to kill the
	// engine: its next death counts as a first one.
	diedWarm bool
}

// restartWindow: a second engine death within it ends polyproxy.
const restartWindow = time.Minute

// start takes a new engine as the running one; the handshake begins (the
// caller sends "uci", and starts slowHandshake).
func (l *engineLink) start(eng Engine) {
	l.eng = eng
	l.gen++
	l.handshaking = true
	l.header = l.header[:0]
	l.options = l.options[:0]
	l.name = "" // an engine that sends no id name has none
	l.position = ""
}

// announced is an id or option line of the engine's handshake, as it
// wrote it and as read.
type announced struct {
	line     string
	isOption bool
	option   uci.Option // isOption and readable: the option read
	readable bool
	isName   bool // an id name line
}

// headerLine keeps an id or option line (option: an option line) of the
// handshake; an option line it cannot read is kept for the GUI but
// returned as an error.
func (l *engineLink) headerLine(line string, option bool) error {
	h := announced{line: line, isOption: option}
	var err error
	if option {
		h.option, err = uci.ParseOption(line)
		if h.readable = err == nil; h.readable {
			l.options = append(l.options, h.option)
		}
	} else if id, idErr := uci.ParseID(line); idErr == nil && id.Key == "name" {
		h.isName, l.name = true, id.Value
	}
	l.header = append(l.header, h)
	return err
}

// handshakeDone ends the handshake; restart tells whether an earlier
// engine had finished one (so this one replaces it).
func (l *engineLink) handshakeDone() (restart bool) {
	l.handshaking = false
	l.slowHandshake.Stop()
	restart = l.everReady
	l.everReady = true
	return restart
}

// rememberSetOption keeps an engine option the GUI set, for a restart.
// Settings are kept, actions are not: a button (Clear Hash, or one that
// writes a file or crashes the engine) was pressed for the engine it was
// sent to, and pressing it again on a new one repeats the action. An
// option the engine never announced counts as a button when it comes
// without a value, as a button does.
func (l *engineLink) rememberSetOption(o uci.SetOption) {
	if announced, ok := l.option(o.Name); ok && strings.EqualFold(announced.Type, "button") || !ok && !o.HasValue {
		return
	}
	kept := l.guiSetOptions[:0]
	for _, old := range l.guiSetOptions {
		if !strings.EqualFold(old.Name, o.Name) {
			kept = append(kept, old)
		}
	}
	l.guiSetOptions = append(kept, o)
}

// death is what an engine's death means for the run.
type death int

const (
	deathRestart     death = iota // restart it
	deathPoison                   // it died again in the search issued again after a restart: that position kills it
	deathInHandshake              // fatal: it never finished a handshake (not a UCI engine?)
	deathAgain                    // fatal: the second within restartWindow, or a restarted engine died at start
	deathTooOften                 // fatal: maxPoisons positions killed it within restartWindow
)

// maxPoisons is how many positions may kill the engine within
// restartWindow before polyproxy gives up on it.
const maxPoisons = 3

// ended is called once the engine's output has closed: it makes sure the
// engine and whatever it started are gone, and says how it ended.
func (l *engineLink) ended() (status string) {
	select {
	case <-l.eng.Exited():
	case <-time.After(200 * time.Millisecond):
		l.eng.Kill()
		<-l.eng.Exited()
	}
	status = "exit status 0"
	if err := l.eng.ExitErr(); err != nil {
		status = err.Error()
	}
	l.eng.Kill() // whatever it left behind in its group
	return status
}

// judge says what a death now means. inResumedSearch tells that the
// engine died in the search issued to it again after a restart: the
// second death on one position, which the position explains.
func (l *engineLink) judge(inResumedSearch bool) death {
	now := time.Now()
	switch {
	case !l.everReady:
		return deathInHandshake
	case l.handshaking:
		return deathAgain
	case inResumedSearch:
		recent := l.poisons[:0]
		for _, t := range l.poisons {
			if now.Sub(t) < restartWindow {
				recent = append(recent, t)
			}
		}
		l.poisons = append(recent, now)
		if len(l.poisons) >= maxPoisons {
			return deathTooOften
		}
		l.lastDeath = time.Time{}
		return deathPoison
	case !l.lastDeath.IsZero() && now.Sub(l.lastDeath) < restartWindow:
		return deathAgain
	}
	l.lastDeath = now
	return deathRestart
}

// startEngine starts the engine and begins the handshake; the rest
// happens as its lines arrive (onUCIOK).
func (c *Core) startEngine() error {
	if err := c.spawnEngine(); err != nil {
		return err
	}
	c.toEngine("uci")
	return nil
}

// spawnEngine starts the engine process and has its output read: by the
// poll loop itself when it can, else by a goroutine.
func (c *Core) spawnEngine() error {
	c.resetWarm()
	eng, err := c.opts.StartEngine()
	if err != nil {
		return err
	}
	c.engine.start(eng)
	c.loop.Start(&c.engine.slowHandshake, c.opts.SlowHandshake, c.onSlowHandshake)
	// The process may end with its output still open in one it left
	// behind: ending its group closes it, and the end of its output is the
	// death (after any last lines).
	c.loop.Attach(eng, eng.Kill)
	return nil
}

// toEngine sends one line to the engine.
func (c *Core) toEngine(line string) {
	if strings.HasPrefix(line, "go") {
		c.soon = false // the search takes the CPU (answerDue)
	}
	c.warmBeforeEngineLine(line)
	if c.log.On() {
		c.log.Traffic(">engine", line)
	}
	if err := c.engine.eng.WriteLine(line); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// It stopped reading: as good as dead. Ending it makes its
			// output close, and the death is handled as any other.
			c.notify("the engine has not read its input for %v: ending it", uci.WriteTimeout)
			c.engine.eng.Kill()
			return
		}
		c.log.Printf("writing to the engine: %v", err)
	}
}

// onEngineDeath restarts the engine; a second death within a minute, a
// death at start, or too many positions that kill it, are fatal. When the
// restarted engine dies again in the search it was given again, that
// position kills it: the search gets bestmove 0000 and the run goes on
// with a fresh engine. A death in a search of our own (onWarmDeath) is
// never fatal.
func (c *Core) onEngineDeath() error {
	status := c.engine.ended()
	c.engine.diedWarm = c.deathInWarmSearch()
	if c.engine.diedWarm {
		c.onWarmDeath(status)
	} else if err := c.judgeDeath(status); err != nil {
		return err
	}
	if err := c.startEngine(); err != nil {
		c.fatalf("cannot restart the engine: %v", err)
		return err
	}
	return nil
}

// judgeDeath says what a death in the GUI's service means: an error when
// it is fatal, else nil (the engine is restarted).
func (c *Core) judgeDeath(status string) error {
	switch c.engine.judge(c.search.state == searchEngine && c.search.reissued) {
	case deathInHandshake:
		c.fatalf("the engine ended before finishing the uci handshake (%s): is EngineCommand a UCI engine?", status)
		return fmt.Errorf("%w during the handshake (%s)", ErrEngineDied, status)
	case deathAgain:
		c.notify("the engine died again within a minute (%s): giving up", status)
		return fmt.Errorf("%w twice within a minute (%s)", ErrEngineDied, status)
	case deathTooOften:
		c.notify("the engine died (%s) on %d positions within a minute: giving up", status, maxPoisons)
		return fmt.Errorf("%w on %d positions within a minute (%s)", ErrEngineDied, maxPoisons, status)
	case deathPoison:
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
	c.game.poisoned = c.search.engineLine
	c.search.state = searchNone
	c.search.reissued = false
	g := &c.game
	g.changed()
	g.clearLine()
	g.refused = why
	g.forget()
	c.gui.heldBySearch = false // what waited for that search waits for the new engine's handshake now
}

// onUCIOK completes a handshake: options from the configuration, then,
// after a restart, what the dead engine had; then the GUI's commands that
// waited for it.
func (c *Core) onUCIOK() {
	restart := c.engine.handshakeDone()
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
	for _, o := range c.engine.guiSetOptions {
		c.toEngine(setOptionLine(o))
	}
	c.toEngine("ucinewgame")
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
	case c.game.engineLine() != "":
		c.toEnginePosition(c.game.engineLine())
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
			if c.game.ok {
				white = c.game.pos().WhiteToMove()
				black = !white
			}
			limits = limits.Charged(time.Since(c.search.clockFrom).Milliseconds(), white, black)
		}
		goLine := limits.String()
		c.log.Printf("re-issuing the search the engine died in: %s", goLine)
		c.toEngine(goLine)
		c.search.reissued = !c.engine.diedWarm
		if c.search.stopSent {
			c.toEngine("stop")
		}
	}
}

func setOptionLine(o uci.SetOption) string {
	if o.HasValue {
		return "setoption name " + o.Name + " value " + o.Value
	}
	return "setoption name " + o.Name
}
