package demo

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkDirectCall measures one tools/call round trip from a go-sdk
// client to a real demo server child over stdio, with no bridge between
// them: the baseline the bridge's run overhead is compared against. It
// reports p50 and p99 beside the mean.
func BenchmarkDirectCall(b *testing.B) {
	cs, _, stderr, err := connectChild(b, "")
	if err != nil {
		b.Fatalf("connecting: %v (stderr: %s)", err, stderr)
	}
	params := &mcp.CallToolParams{Name: "get_ticket", Arguments: json.RawMessage(`{"ticket_id":"TCK-001042"}`)}
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := cs.CallTool(b.Context(), params)
		took = append(took, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-us")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-us")
}
