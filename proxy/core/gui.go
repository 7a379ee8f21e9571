package core

import (
	"fmt"
)

// guiSide is what we know of the GUI's side of the conversation.
type guiSide struct {
	// queued are its commands waiting for the engine's handshake, or
	// (heldBySearch) a go waiting for the running search to end and the
	// commands after it.
	queued       []command
	heldBySearch bool
}

// onGUILine handles one line from the GUI: its front reads it.
func (c *Core) onGUILine(line string) {
	if c.log.On() {
		c.log.Traffic("gui>", line)
	}
	c.front.GUILine(line)
}

// notify reports a problem everywhere: stderr, log and the GUI.
func (c *Core) notify(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(c.opts.Stderr, "polyproxy: "+msg)
	c.log.Printf("%s", msg)
	c.front.Notice(msg)
}

// fatalf reports why polyproxy ends: stderr, log and the GUI.
func (c *Core) fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(c.opts.Stderr, "polyproxy: "+msg)
	c.log.Printf("fatal: %s", msg)
	c.front.Notice(msg)
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
