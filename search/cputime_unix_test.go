//go:build unix

package search

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used (user + system): on a
// shared machine it measures the work of a benchmark where wall time also
// measures the neighbours.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
