//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time this process has used, user and system,
// or 0 if the system will not say.
func Process() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
