package cli

import (
	"bufio"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeHTTP: `capbridge serve --http` serves the same two operations
// over Streamable HTTP, and an action id or a cursor stays with the client
// session that received it.
func TestServeHTTP(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk")}, nil)
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", filepath.Join(t.TempDir(), "catalog.db"), "--http", "127.0.0.1:0", "--log-level", "warn")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "Streamable HTTP at "); ok {
				addr <- url
			}
		}
	}()
	var url string
	select {
	case url = <-addr:
	case <-time.After(30 * time.Second):
		t.Fatal("serve --http did not say where it listens")
	}

	connectHTTP := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-e2e", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatalf("connecting to %s: %v", url, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	first, second := connectHTTP(), connectHTTP()
	tools, err := first.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools/list over HTTP: %v, %v", tools, err)
	}
	card := discoverAction(t, first, "list helpdesk tickets", "helpdesk", "list_tickets")
	runAction(t, first, card["actionId"].(string), map[string]any{"limit": 2})
	res, ans := callBridge(t, second, "run_capability", map[string]any{"actionId": card["actionId"]})
	if !res.IsError || ans["status"] != "unknown_action" {
		t.Fatalf("another HTTP session's action id: %s, want unknown_action", resultText(res))
	}

	// So does a cursor to a result's next page.
	text := resultText(runAction(t, first, card["actionId"].(string), map[string]any{"limit": 500}))
	_, cursor, ok := strings.Cut(text, `{"cursor":"`)
	cursor, _, _ = strings.Cut(cursor, `"`)
	if !ok || cursor == "" {
		t.Fatalf("500 tickets: no cursor in the first page:\n%.300s", text)
	}
	res, ans = callBridge(t, second, "run_capability", map[string]any{"cursor": cursor})
	if !res.IsError || ans["status"] != "unknown_action" {
		t.Fatalf("another HTTP session's cursor: %.300s, want unknown_action", resultText(res))
	}
	if res, _ := callBridge(t, first, "run_capability", map[string]any{"cursor": cursor}); res.IsError {
		t.Fatalf("the cursor in its own session: %.300s", resultText(res))
	}
}
