//go:build linux

package core

// Spins counts the poll loop's busy-waits so far.
func (c *Core) Spins() int32 { return int32(c.loop.Spins()) }
