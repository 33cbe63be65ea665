package bridge

import (
	"testing"

	"github.com/capbridge/capbridge/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCursorBelongsToSession: a cursor pages for the session whose run got
// it; from any other session it is unknown, as that session's action ids
// are.
func TestCursorBelongsToSession(t *testing.T) {
	f := newFixtureWith(t, map[string]*demo.Options{"helpdesk": {}})
	owner, other := connectClient(t, f.b), connectClient(t, f.b)
	card := discoverOne(t, owner, "list helpdesk tickets", "list_tickets")
	res, _ := call(t, owner, RunTool, map[string]any{"actionId": card["actionId"], "params": map[string]any{"limit": 500}})
	text := res.Content[len(res.Content)-1].(*mcp.TextContent).Text
	m := cursorLine.FindStringSubmatch(text[len(text)-min(len(text), 200):])
	if res.IsError || m == nil {
		t.Fatalf("run: want a first page ending with a cursor, got:\n%.300s", text)
	}
	res, ans := call(t, other, RunTool, map[string]any{"cursor": m[3]})
	if !res.IsError || ans["status"] != statusUnknownAction {
		t.Fatalf("another session's cursor: %v, want unknown_action", res.Content)
	}
	if res, _ := call(t, owner, RunTool, map[string]any{"cursor": m[3]}); res.IsError {
		t.Fatalf("the owner's cursor after another session tried it: %v", res.Content)
	}
}
