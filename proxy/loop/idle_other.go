//go:build !linux

package loop

// IdleThread does nothing here: only Linux has a per-thread idle class.
func IdleThread() {}
