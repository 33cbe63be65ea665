package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/demo"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFailureAnswerShapes(t *testing.T) {
	tests := []struct {
		name string
		res  *mcp.CallToolResult
	}{
		{"needs_input.json", needsInput([]schema.Missing{
			{Path: "/subject", Type: "string", Description: "Ticket subject"},
			{Path: "/param_01", Type: "string"},
			{Path: "/user/email", Type: "string", Description: "Contact address"},
		})},
		{"invalid_params.json", invalidParams([]fieldError{{Path: "/priority", Message: "must be one of low, normal, high"}, {Path: "/items/0/name", Message: "must be a string"}})},
		{"expired.json", failure(statusExpired, msgExpired)},
		{"unknown_action.json", failure(statusUnknownAction, msgUnknownAction)},
		{"schema_changed.json", failure(statusSchemaChanged, msgSchemaChanged)},
		{"upstream_error.json", first(upstreamFailure("helpdesk", fmt.Errorf("calling create_ticket: %w", fmt.Errorf("connection reset")), nil))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.res.IsError {
				t.Fatal("a failure answer without isError")
			}
			golden(t, tt.name, []byte(answerText(t, tt.res)+"\n"))
		})
	}
}

func TestNeedsInputBudget(t *testing.T) {
	tests := []struct {
		name     string
		missing  int
		wantMore bool
	}{
		{"few", 5, false},
		{"many", 300, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ms []schema.Missing
			for i := range tt.missing {
				ms = append(ms, schema.Missing{Path: fmt.Sprintf("/param_%03d", i), Type: "string", Description: strings.Repeat("a description ", 6)})
			}
			text := answerText(t, needsInput(ms))
			if len(text) > maxAnswerBytes {
				t.Fatalf("needs_input is %d bytes, budget %d", len(text), maxAnswerBytes)
			}
			var ans struct {
				Status  string         `json:"status"`
				Missing []missingInput `json:"missing"`
				More    int            `json:"more"`
			}
			if err := json.Unmarshal([]byte(text), &ans); err != nil {
				t.Fatal(err)
			}
			if ans.Status != statusNeedsInput {
				t.Fatalf("status %q", ans.Status)
			}
			if len(ans.Missing)+ans.More != tt.missing {
				t.Fatalf("%d listed + %d more, want %d missing", len(ans.Missing), ans.More, tt.missing)
			}
			if (ans.More > 0) != tt.wantMore {
				t.Fatalf("more %d, want some: %v", ans.More, tt.wantMore)
			}
		})
	}
}

func TestInputName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/subject", "subject"},
		{"/a~1b", "a/b"},
		{"/user/email", "/user/email"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := inputName(tt.in); got != tt.want {
			t.Errorf("inputName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// BenchmarkRunPath runs one small demo tool through the bridge in process
// (in-memory client transport, demo upstream over local HTTP): the bridge's
// own work per run_capability beyond the upstream call. The e2e
// BenchmarkRunOverhead in package main compares with a direct call.
func BenchmarkRunPath(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "catalog.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	tools := demoTools(b, "helpdesk")
	cfg := &config.File{Servers: map[string]config.Server{"helpdesk": serveDemo(b, "helpdesk", &demo.Options{Tools: tools})}}
	if _, err := search.Ingest(ctx, st, store.Server{Name: "helpdesk"}, tools, nil); err != nil {
		b.Fatal(err)
	}
	br, err := New(cfg, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	sst, ct := mcp.NewInMemoryTransports()
	ss, err := br.MCP().Connect(ctx, sst, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: DiscoverTool, Arguments: map[string]any{"intent": "get a ticket by id"}})
	if err != nil {
		b.Fatal(err)
	}
	var ans discovery
	json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &ans)
	id := ""
	for _, c := range ans.Matches {
		if c.Name == "get_ticket" {
			id = c.ActionID
		}
	}
	if id == "" {
		b.Fatalf("no get_ticket card: %+v", ans)
	}
	args := map[string]any{"actionId": id, "params": map[string]any{"ticket_id": "TCK-001042"}}
	b.ResetTimer()
	for range b.N {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: RunTool, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("run: %v %v", err, res)
		}
	}
}

// TestConcurrentRuns: many runs at once through one session and one
// upstream, each answered with its own arguments.
func TestConcurrentRuns(t *testing.T) {
	f := newFixture(t, "helpdesk")
	cs := connectClient(t, f.b)
	id := discoverOne(t, cs, "add a comment to a ticket", "add_comment")["actionId"].(string)
	const runs = 40
	errs := make(chan error, runs)
	for i := range runs {
		go func() {
			body := fmt.Sprintf("comment number %03d", i)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: RunTool, Arguments: map[string]any{
				"actionId": id, "params": map[string]any{"ticket_id": "TCK-001042", "body": body},
			}})
			switch {
			case err != nil:
				errs <- err
			case res.IsError:
				errs <- fmt.Errorf("run %d: %v", i, res.Content)
			case !strings.Contains(res.Content[0].(*mcp.TextContent).Text, body):
				errs <- fmt.Errorf("run %d answered without its own body: %s", i, res.Content[0].(*mcp.TextContent).Text)
			default:
				errs <- nil
			}
		}()
	}
	for range runs {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func first[A, B any](a A, _ B) A { return a }
