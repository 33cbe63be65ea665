//go:build !unix

package search

import "time"

// processCPU is unknown on this platform.
func processCPU() time.Duration { return 0 }
