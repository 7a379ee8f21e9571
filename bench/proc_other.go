//go:build !unix

package main

import "os/exec"

func setProcessGroup(c *exec.Cmd) {}

// killTree can only end the child itself here; an adapter's engine may
// outlive it if the adapter does not end it.
func killTree(c *exec.Cmd) {
	if c.Process != nil {
		_ = c.Process.Kill()
	}
}
