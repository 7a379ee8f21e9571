//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the largest resident set of a process that has exited, in
// bytes; ok is false when the system does not say. On Linux the figure
// starts from the parent's resident size at the fork (the high-water mark
// survives exec), so a small tool started by a big runner looks as big as
// the runner: runTool prefers GNU time, which forks from a small process.
func peakRSS(ps *os.ProcessState) (bytes int64, ok bool) {
	ru, isRusage := ps.SysUsage().(*syscall.Rusage)
	if !isRusage || ru == nil {
		return 0, false
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss), true // bytes there
	}
	return int64(ru.Maxrss) * 1024, true // kilobytes elsewhere
}
