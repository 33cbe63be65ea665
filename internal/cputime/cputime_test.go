package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessGrowsWithWork: burning CPU for a while shows in Process.
func TestProcessGrowsWithWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("not measured on " + runtime.GOOS)
	}
	before := Process()
	x := 0
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		x++
	}
	if used := Process() - before; used < 10*time.Millisecond {
		t.Errorf("Process grew by %v over 50 ms of busy loop (%d turns), want at least 10 ms", used, x)
	}
}
