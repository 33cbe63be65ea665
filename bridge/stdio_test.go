package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestStdioAnswersBeforeEOF: a client that writes its requests and closes
// its end at once still gets every answer.
func TestStdioAnswersBeforeEOF(t *testing.T) {
	b := newBridge(t, nil, nil)
	requests := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"discover_capability","arguments":{"intent":"send mail"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_capability","arguments":{"actionId":"act_x"}}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := b.Serve(ctx, NewStdioTransport(strings.NewReader(requests), &out, 10*time.Second, nil)); err != nil {
		t.Fatal(err)
	}
	answered := map[float64]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("output line %q: %v", line, err)
		}
		if msg.Result != nil {
			answered[msg.ID] = true
		}
	}
	for id := 1.0; id <= 4; id++ {
		if !answered[id] {
			t.Errorf("request %v was not answered before the session ended; output:\n%s", id, out.String())
		}
	}
}
