package cli

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// keepEnvironPrivate marks this process non-dumpable, so that a stdio
// server it starts, running as the same user, cannot read its environment
// (every API key, CAPBRIDGE_HTTP_TOKEN) through /proc/$PPID/environ, nor
// attach a debugger to it: the kernel makes /proc/PID's files root's and
// refuses ptrace from the same user. The servers themselves stay dumpable
// (exec resets the flag). Root can still read everything.
func keepEnvironPrivate() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("marking the process non-dumpable (prctl PR_SET_DUMPABLE): %w; stdio servers can read its environment in /proc", err)
	}
	return nil
}
