//go:build linux

package core

// Spins counts the poll loop's busy-waits so far.
func (c *Core) Spins() int32 { return c.poll.spins.Load() }
