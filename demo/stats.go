package demo

import (
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const statsToolName = "demo_stats"

// statsTool is the catalog entry of demo_stats, added by [Options.StatsTool].
const statsTool = (`{"name":"demo_stats","title":"Demo server statistics",` +
	`"description":"Report how many tool calls this demo server process has answered since it started, in total and per tool, and how many times it was listed. Read-only; for checking that a tool was called exactly once.",` +
	`"inputSchema":{"type":"object","properties":{}},` +
	`"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}}`)

// stats answers demo_stats; n is this call's own number.
func (s *server) stats(n int) (*mcp.CallToolResult, error) {
	s.mu.Lock()
	total, byTool, lists := s.total, maps.Clone(s.calls), s.lists
	s.mu.Unlock()
	return objectResult(record{{"calls", total}, {"by_tool", byTool}, {"call_number", n}, {"lists", lists}})
}
