package core

import "io"

// The loop's events (proxy/loop): the loop, poll or goroutine, hands the
// core every event through one handler, so each thing is done one way.
// Every event ends with settle.

// events is the core as the loop's handler.
type events Core

// GUILines handles lines the GUI sent; readErr set means its input ended
// (the end of input is a quit, in its turn).
func (h *events) GUILines(lines []string, readErr error) {
	c := (*Core)(h)
	if c.end.quitSeen() {
		return // lines after the quit are not read
	}
	for _, line := range lines {
		c.onGUILine(line)
		if c.end.quitSeen() {
			break
		}
	}
	if readErr != nil && !c.end.quitSeen() {
		if readErr != io.EOF {
			c.log.Printf("reading the GUI: %v", readErr)
		}
		c.log.Printf("GUI closed its end: quitting")
		c.front.GUIGone()
	}
}

// EngineOutput handles whole lines of the running engine (each ending in
// '\n'); readErr set means its output ended: after a quit the run ends,
// else it died. A non-nil result ends the run.
func (h *events) EngineOutput(data []byte, readErr error) error {
	c := (*Core)(h)
	c.onEngineBatch(data)
	if readErr == nil {
		return nil
	}
	if err := c.onEngineGone(); err != nil {
		c.out.w.Flush()
		c.engine.Kill()
		return err
	}
	return nil
}

// Settle ends every event.
func (h *events) Settle(failed error) (ended bool, err error) { return (*Core)(h).settle(failed) }

// QuitRead reports that the GUI's quit has been read: lines after it are
// not read.
func (h *events) QuitRead() bool { return h.end.quitSeen() }

// AnswerDue reports, and forgets, that the event made an answer due at
// once (answerDue).
func (h *events) AnswerDue() bool {
	soon := h.soon
	h.soon = false
	return soon
}

// settle ends every event: what it had to say goes to the GUI, then the
// observers run. over is true when the run ends here (err: why, if it
// failed); the engine is then stopped.
func (c *Core) settle(failed error) (ended bool, err error) {
	if failed != nil {
		return true, failed
	}
	c.front.Settled() // what the front does once the core has settled
	werr := c.out.w.Flush()
	c.observer.Flush() // after the flush: learning never delays an answer
	if werr != nil && !c.end.now() {
		c.log.Printf("writing to the GUI: %v: quitting", werr)
		c.end.reach(over)
	}
	if c.end.now() {
		c.finish()
		return true, nil
	}
	c.readBooks()
	if c.engine.EverReady() {
		c.verifyBooks() // once the first handshake is answered
	}
	return false, nil
}

// onEngineGone handles the end of the engine's output: the end of the run
// after a quit, else a death (restart, or an error that ends the run).
func (c *Core) onEngineGone() error {
	switch {
	case c.end.draining():
		c.end.reach(over)
		return nil
	case c.end.quitSeen():
		// The GUI is leaving: no restart for the answers still owed.
		c.notify("the engine died (%s) after the GUI's quit", c.engine.Ended())
		c.end.reach(over)
		return nil
	}
	return c.onEngineDeath()
}
