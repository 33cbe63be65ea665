package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestLimitMemory: serve sets its soft memory limit unless GOMEMLIMIT
// names one, which the runtime has then applied already.
func TestLimitMemory(t *testing.T) {
	was := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(was) })
	for _, tt := range []struct {
		env  string
		want int64 // the runtime's limit after limitMemory
	}{
		{"", serveMemoryLimit},
		{"1GiB", math.MaxInt64}, // left as the runtime has it (here: no limit)
	} {
		debug.SetMemoryLimit(math.MaxInt64)
		limitMemory(func(k string) string {
			if k == "GOMEMLIMIT" {
				return tt.env
			}
			return ""
		})
		if got := debug.SetMemoryLimit(-1); got != tt.want {
			t.Errorf("GOMEMLIMIT=%q: runtime limit %d, want %d", tt.env, got, tt.want)
		}
	}
}
