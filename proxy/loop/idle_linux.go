//go:build linux

package loop

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// IdleThread moves the calling goroutine to a thread of its own in
// SCHED_IDLE: it runs only when a CPU has nothing else to run. The thread
// stays locked, so it ends with the goroutine and never serves others.
func IdleThread() {
	runtime.LockOSThread()
	attr := unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: unix.SCHED_IDLE}
	unix.SchedSetAttr(0, &attr, 0) // best effort: at worst the check runs at normal priority
}
