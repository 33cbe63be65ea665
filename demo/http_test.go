package demo

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestServeHTTP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, ln, &Options{Tools: demoTools(t), StatsTool: true}) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "1"}, nil)
	endpoint := "http://" + ln.Addr().String() + "/mcp"
	for session := 1; session <= 2; session++ {
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tools, _ := listAll(t, cs); len(tools) != len(demoTools(t))+1 {
			t.Errorf("session %d listed %d tools", session, len(tools))
		}
		// Sessions share the server, so the call counter runs on.
		res := call(t, cs, "create_ticket", map[string]any{"subject": "s"})
		if n := res.StructuredContent.(map[string]any)["call_number"]; n != float64(session) {
			t.Errorf("session %d: call_number %v", session, n)
		}
		cs.Close()
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeHTTP did not stop when its context ended")
	}
}
