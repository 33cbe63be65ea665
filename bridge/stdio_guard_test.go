package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestStdioGuard: a client message go-sdk would end the session on (nested
// too deep, longer than its line limit) is answered alone with an Invalid
// Request error for its id, and the requests after it are served.
func TestStdioGuard(t *testing.T) {
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	tests := []struct {
		name, line string
		wantError  bool // an error answer for id 9
	}{
		{"deep request", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"run_capability","arguments":{"params":` + deep + `}}}`, true},
		{"deep before the id", `{"jsonrpc":"2.0","params":{"x":` + deep + `},"method":"tools/call","id":9}`, true},
		{"long request", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":{"s":"` + strings.Repeat("x", maxClientLine) + `"}}}`, true},
		{"deep notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":` + deep + `}`, false},
		{"deep brackets inside a string", `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"cursor":"` + deep + `"}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBridge(t, nil, nil)
			requests := strings.Join([]string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				tt.line,
				`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			}, "\n") + "\n"
			var out bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := b.Serve(ctx, NewStdioTransport(strings.NewReader(requests), &out, 10*time.Second, nil)); err != nil {
				t.Fatalf("the session ended on the hostile line: %v", err)
			}
			answers := map[float64]string{}
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var msg struct {
					ID     float64         `json:"id"`
					Result json.RawMessage `json:"result"`
					Error  *struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"error"`
				}
				if err := json.Unmarshal([]byte(line), &msg); err != nil {
					t.Fatalf("output line %.200q: %v", line, err)
				}
				if msg.Error != nil {
					answers[msg.ID] = "error " + msg.Error.Message
				} else {
					answers[msg.ID] = "result"
				}
			}
			if answers[2] != "result" {
				t.Errorf("the request after the hostile line: %q", answers[2])
			}
			if got := strings.HasPrefix(answers[9], "error Invalid Request"); got != tt.wantError {
				t.Errorf("answer to id 9: %q, want an Invalid Request error %v", answers[9], tt.wantError)
			}
		})
	}
}
