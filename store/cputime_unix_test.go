//go:build unix

package store

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time this process has used, user and system.
// The benchmarks report it beside wall time because the machines they run
// on are shared: wall time there measures the neighbours too.
func processCPU() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
