//go:build !linux

package core

// idleThread does nothing here: only Linux has a per-thread idle class.
func idleThread() {}
