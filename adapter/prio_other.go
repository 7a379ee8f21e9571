//go:build !linux

package adapter

// idleThread does nothing here: only Linux has a per-thread idle class.
func idleThread() {}
