package output

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// issueRecord is one record as an issue tracker API returns it, in its key
// order, internal fields included.
func issueRecord(i int) object {
	num := func(n int) json.Number { return json.Number(fmt.Sprint(n)) }
	return object{
		{"id", num(1000 + i)},
		{"number", num(i + 1)},
		{"title", fmt.Sprintf("Issue %d: fix the | pipe and \\ backslash", i+1)},
		{"status", []string{"open", "closed"}[i%2]},
		{"user", object{{"login", fmt.Sprintf("dev%d", i%7)}, {"id", num(50 + i%7)}}},
		{"_id", fmt.Sprintf("65f1c0ffee%014d", i)},
		{"__v", num(0)},
		{"created_at", "2026-11-29T10:00:00Z"},
		{"updated_at", "2026-11-30T05:00:00Z"},
		{"hash", fmt.Sprintf("%064x", i*7919)},
		{"label_ids", []any{num(i % 3), num(i % 5), num(i % 11)}},
	}
}

func issueRecords(n int) []any {
	recs := make([]any, n)
	for i := range recs {
		recs[i] = issueRecord(i)
	}
	return recs
}

// jsonResult returns a result carrying v both as its JSON text and as
// structuredContent, as go-sdk servers send it. v may hold this package's
// ordered objects.
func jsonResult(t testing.TB, v any) *mcp.CallToolResult {
	t.Helper()
	raw := compactJSON(toDecoded(v))
	var structured any
	if err := json.Unmarshal([]byte(raw), &structured); err != nil {
		t.Fatal(err)
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: raw}},
		StructuredContent: structured,
	}
}

// toDecoded turns Go maps, slices and numbers into the decoded JSON values
// of this package, leaving ordered objects as they are.
func toDecoded(v any) any {
	switch v := v.(type) {
	case object:
		return v
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toDecoded(e)
		}
		return out
	}
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	d, err := decodeOrdered(raw)
	if err != nil {
		panic(err)
	}
	return d
}
