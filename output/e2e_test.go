package output

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestThroughMCPClient calls a real go-sdk server over in-memory transports,
// so that the result is what a client decodes (structuredContent as a map,
// the same data as JSON text), then shapes it and follows every cursor: all
// 500 ids come back, once each and in order, no internal key is visible, no
// page is over the ceiling, and the tool ran once.
func TestThroughMCPClient(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int32
	server := mcp.NewServer(&mcp.Implementation{Name: "tracker", Version: "1.0.0"}, nil)
	server.AddTool(&mcp.Tool{Name: "list_issues", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			calls.Add(1)
			text := compactJSON(object{{"total", json.Number("500")}, {"items", issueRecords(500)}})
			var structured any
			if err := json.Unmarshal([]byte(text), &structured); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: structured}, nil
		})
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bridge", Version: "1.0.0"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_issues"})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Shape(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	bodies := followCursors(t, "e2e", sh, NewPager(nil))
	rowID := regexp.MustCompile(`(?m)^\| (\d+) \|`)
	var ids []string
	for i, body := range bodies {
		if got := EstimateTokens(body); got > DefaultMaxTokens {
			t.Errorf("page %d holds %d estimated tokens", i+1, got)
		}
		for _, internal := range []string{"_id", "__v", "created_at", "updated_at", "hash", "label_ids"} {
			if strings.Contains(body, internal) {
				t.Errorf("page %d shows internal key %s", i+1, internal)
			}
		}
		if i > 0 && !strings.HasPrefix(body, "items:\n| id |") {
			t.Errorf("page %d does not stand alone:\n%.200s", i+1, body)
		}
		for _, m := range rowID.FindAllStringSubmatch(body, -1) {
			ids = append(ids, m[1])
		}
	}
	if len(ids) != 500 {
		t.Fatalf("recovered %d ids over %d pages, want 500", len(ids), len(bodies))
	}
	for i, id := range ids {
		if want := fmt.Sprint(1000 + i); id != want {
			t.Fatalf("id %d is %s, want %s", i, id, want)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("the tool ran %d times, want 1", n)
	}
}
