package output

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// issueRecord is one record as an issue tracker API returns it, internal
// fields included.
func issueRecord(i int) map[string]any {
	return map[string]any{
		"id":         1000 + i,
		"number":     i + 1,
		"title":      fmt.Sprintf("Issue %d: fix the | pipe and \\ backslash", i+1),
		"status":     []string{"open", "closed"}[i%2],
		"user":       map[string]any{"login": fmt.Sprintf("dev%d", i%7), "id": 50 + i%7},
		"_id":        fmt.Sprintf("65f1c0ffee%014d", i),
		"__v":        0,
		"created_at": "2026-11-29T10:00:00Z",
		"updated_at": "2026-11-30T05:00:00Z",
		"hash":       fmt.Sprintf("%064x", i*7919),
		"label_ids":  []int{i % 3, i % 5, i % 11},
	}
}

func issueRecords(n int) []any {
	recs := make([]any, n)
	for i := range recs {
		recs[i] = issueRecord(i)
	}
	return recs
}

// jsonResult returns a result carrying v both as structuredContent and as
// its JSON text, as go-sdk servers send it.
func jsonResult(t testing.TB, v any) *mcp.CallToolResult {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var structured any
	if err := json.Unmarshal(raw, &structured); err != nil {
		t.Fatal(err)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(raw)}},
		StructuredContent: structured,
	}
}
