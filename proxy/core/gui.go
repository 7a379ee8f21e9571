package core

import (
	"fmt"
)

// onGUILine handles one line from the GUI: its front reads it.
func (c *Core) onGUILine(line string) {
	if c.log.On() {
		c.log.Traffic("gui>", line)
	}
	c.front.GUILine(line)
}

// notice tells the GUI msg, through its front, once it listens (Listening):
// what comes before waits until then.
func (c *Core) notice(msg string) {
	if !c.listening {
		c.notices = append(c.notices, msg)
		return
	}
	c.front.Notice(msg)
}

// Listening tells that the GUI takes the front's notices from now on (a
// UCI GUI once it has its uciok, a CECP GUI at once): those told before go
// to it now, in order.
func (c *Core) Listening() {
	if c.listening {
		return
	}
	c.listening = true
	for _, n := range c.notices {
		c.front.Notice(n)
	}
	c.notices = nil
}

// Tell tells the GUI msg (a notice of the front's own), in its turn among
// the core's: once the GUI listens.
func (c *Core) Tell(msg string) { c.notice(msg) }

// notify reports a problem everywhere: stderr, log and the GUI.
func (c *Core) notify(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(c.opts.Stderr, "polyproxy: "+msg)
	c.log.Printf("%s", msg)
	c.notice(msg)
}

// fatalf reports why polyproxy ends: stderr, log and the GUI.
func (c *Core) fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(c.opts.Stderr, "polyproxy: "+msg)
	c.log.Printf("fatal: %s", msg)
	c.notice(msg)
}

// Description is what the GUI is told of the engine: its options
// announced with the values the configuration gives them as their
// defaults. (Ours are the configuration's: Settings().Options.)
func (c *Core) Description() Description {
	d := Description{Name: c.engine.Name()}
	for _, h := range c.engine.Header() {
		switch {
		case h.IsName:
		case !h.IsOption:
			d.IDLines = append(d.IDLines, h.Line)
		default:
			d.Options = append(d.Options, Option{Option: h.Option, Line: h.Line, Readable: h.Readable})
		}
	}
	return d
}

// deliver hands one of our answers to the front, in its turn.
func (c *Core) deliver(ans answer) {
	if ans.observe != nil {
		ans.observe() // before the front moves the game on with it
	}
	c.front.BestMove(ans.bm)
	c.answeredGUI()
}

// answer is one of our answers to a go, and the learning calls that go
// with it.
type answer struct {
	bm      BestMove
	observe func()
}
