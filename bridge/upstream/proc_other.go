//go:build !unix

package upstream

import (
	"os"
	"os/exec"
)

// inOwnGroup is a no-op where process groups are not available; only the
// direct child is stopped.
func inOwnGroup(*exec.Cmd) {}

// exitedNow answers only through the child's Wait here (process.exited).
func exitedNow(int) bool { return false }

func terminateGroup(pid int) error { return killGroup(pid) }

func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return nil
	}
	return p.Kill()
}
