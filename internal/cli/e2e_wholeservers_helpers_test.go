package cli

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bridgeTransport connects a real go-sdk client, with the given options
// (nil: defaults), to a `capbridge serve` over cfg and the catalog db.
type bridgeTransport struct {
	name    string
	connect func(t *testing.T, cfg, db string, opts *mcp.ClientOptions) *mcp.ClientSession
}

// bridgeTransports are the two ways a client reaches capbridge.
var bridgeTransports = []bridgeTransport{
	{"stdio", connectStdioServe},
	{"http", connectHTTPServe},
}

func connectStdioServe(t *testing.T, cfg, db string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "warn")
	cmd.Stderr = testWriter{t}
	return connectClient(t, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, opts)
}

func connectHTTPServe(t *testing.T, cfg, db string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	s := startHTTPServe(t, cfg, nil, "--db", db, "--log-level", "warn")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("serve --http stderr:\n%s", s.log())
		}
	})
	return connectClient(t, &mcp.StreamableClientTransport{Endpoint: s.url}, opts)
}

// connectDirect connects the client straight to the server entry runs, as
// a client would without capbridge.
func connectDirect(t *testing.T, entry serverEntry, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(entry.Command, entry.Args...)
	for k, v := range entry.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if cmd.Env != nil {
		cmd.Env = append(cmd.Env, "PATH=/usr/local/bin:/usr/bin:/bin")
	}
	cmd.Stderr = testWriter{t}
	return connectClient(t, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, opts)
}

func connectClient(t *testing.T, tr mcp.Transport, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "capbridge-e2e", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
