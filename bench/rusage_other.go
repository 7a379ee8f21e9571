//go:build !unix

package main

import "os"

func peakRSS(ps *os.ProcessState) (bytes int64, ok bool) { return 0, false }
