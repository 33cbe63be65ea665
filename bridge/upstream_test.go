package bridge

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

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
