package upstream

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestUpstreamsEverythingListAndCall(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(npmServer(t, "everything", "stdio")), nil)
	if u.Running("everything") {
		t.Fatal("running before first use; want lazy start")
	}
	l, err := u.ListTools(ctx, "everything")
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	names := toolNames(t, l)
	if !slices.Contains(names, "echo") || l.Refusal != "" || l.Lossy || l.Bytes == 0 {
		t.Fatalf("listing: names %v, refusal %q, lossy %v, bytes %d", names, l.Refusal, l.Lossy, l.Bytes)
	}
	if !u.Running("everything") {
		t.Fatal("not running after ListTools")
	}
	res, err := u.Call(ctx, "everything", "echo", json.RawMessage(`{"message":"hello bridge"}`))
	if err != nil {
		t.Fatalf("Call echo: %v", err)
	}
	if res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "hello bridge") {
		t.Fatalf("echo result: %+v", res)
	}
}

func TestUpstreamsMemoryRoundTrip(t *testing.T) {
	ctx := testContext(t)
	connected := make(chan string, 2)
	s := npmServer(t, "memory")
	s.Env = map[string]string{"MEMORY_FILE_PATH": filepath.Join(t.TempDir(), "memory.jsonl")}
	u := newTestUpstreams(t, testConfig(s), &Options{OnConnected: func(server string) { connected <- server }})
	create := `{"entities":[{"name":"capbridge","entityType":"project","observations":["bridges MCP servers"]}]}`
	if res, err := u.Call(ctx, "memory", "create_entities", json.RawMessage(create)); err != nil || res.IsError {
		t.Fatalf("create_entities: %v %+v", err, res)
	}
	res, err := u.Call(ctx, "memory", "read_graph", nil)
	if err != nil || res.IsError {
		t.Fatalf("read_graph: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "bridges MCP servers") {
		t.Errorf("read_graph does not show the entity: %s", text)
	}
	select {
	case got := <-connected:
		if got != "memory" {
			t.Errorf("OnConnected(%q)", got)
		}
	case <-time.After(5 * time.Second):
		t.Error("OnConnected not called after the server started")
	}
}
