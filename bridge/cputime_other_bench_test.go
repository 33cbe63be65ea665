//go:build !unix

package bridge

import "time"

// processCPU is unknown here: cpu-ms/op reads 0.
func processCPU() time.Duration { return 0 }
