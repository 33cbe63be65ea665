package upstream

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What the upstream manager adds to a tools/call: compare with the same call
// on a bare go-sdk session over mcp.CommandTransport to the same server.

var benchArgs = json.RawMessage(`{"ticket_id":"T-1"}`)

func BenchmarkUpstreamsCall(b *testing.B) {
	ctx := context.Background()
	u := newTestUpstreams(b, testConfig(demoServer(b, "demo")), nil)
	if _, err := u.Call(ctx, "demo", "get_ticket", benchArgs); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := u.Call(ctx, "demo", "get_ticket", benchArgs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDirectSessionCall(b *testing.B) {
	ctx := context.Background()
	s := demoServer(b, "demo")
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(s.Command, s.Args...)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "get_ticket", Arguments: benchArgs}
	b.ResetTimer()
	for b.Loop() {
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpstreamsListTools(b *testing.B) {
	ctx := context.Background()
	u := newTestUpstreams(b, testConfig(demoServer(b, "big", "--fault", "big-catalog:1000", "--page-size", "100")), nil)
	l, err := u.ListTools(ctx, "big")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(l.Bytes)
	b.ResetTimer()
	for b.Loop() {
		if _, err := u.ListTools(ctx, "big"); err != nil {
			b.Fatal(err)
		}
	}
}
