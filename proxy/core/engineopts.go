package core

import (
	"github.com/polyproxy/polyproxy/uci"
)

// EngineOption is the option the engine announced under name (in any
// case), as it announced it.
func (c *Core) EngineOption(name string) (uci.Option, bool) { return c.engine.Option(name) }

// sendConfiguredOptions sends the configured engine options ([Engine],
// -uci) that the engine announced, in its spelling and fitted to its
// range (link.Configure), and tells the user of the others.
func (c *Core) sendConfiguredOptions() {
	was := c.engine.Modes()
	notices, err := c.engine.Configure(c.settings.EngineOptions)
	for _, n := range notices {
		c.notify("%s", n)
	}
	c.sent(err)
	c.noteModes(was)
}
