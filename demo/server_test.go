package demo

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestListTools(t *testing.T) {
	catalog := demoTools(t)
	var want []string
	for _, raw := range catalog {
		var h toolHead
		if err := json.Unmarshal(raw, &h); err != nil {
			t.Fatal(err)
		}
		want = append(want, h.Name)
	}
	tests := []struct {
		name      string
		pageSize  int
		stats     bool
		wantPages int
	}{
		{"one page", 0, false, 1},
		{"pages of 7 with demo_stats", 7, true, (len(catalog)+1+6)/7 + 0},
		{"page size dividing the catalog", len(catalog), false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := connect(t, &Options{Tools: catalog, PageSize: tt.pageSize, StatsTool: tt.stats}, nil)
			tools, pages := listAll(t, cs)
			var got []string
			for _, tool := range tools {
				got = append(got, tool.Name)
			}
			wantNames := want
			if tt.stats {
				wantNames = append(slices.Clone(want), statsToolName)
			}
			if !slices.Equal(got, wantNames) {
				t.Errorf("listed %d tools %v, want %d %v", len(got), got, len(wantNames), wantNames)
			}
			if pages != tt.wantPages {
				t.Errorf("listed in %d pages, want %d", pages, tt.wantPages)
			}
		})
	}
}

// TestListingIsRaw checks that tools/list sends each catalog tool byte for
// byte, fields the SDK does not know included.
func TestListingIsRaw(t *testing.T) {
	tool := `{"name":"odd.tool-name","title":"T","description":"d <b>","inputSchema":{"type":"object","properties":{"user-id":{"type":"string"}},"required":["user-id"]},"execution":{"taskSupport":"forbidden"},"_meta":{"x":1}}`
	noType := `{"name":"no_type","inputSchema":{"properties":{"a":{"type":"string"}}}}`
	p := serveRaw(t, &Options{Tools: []json.RawMessage{json.RawMessage(tool), json.RawMessage(noType)}})
	p.send(t, rawInitialize)
	p.line(t)
	p.send(t, rawInitialized)
	p.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	got := p.line(t)
	want := `{"jsonrpc":"2.0","id":2,"result":{"tools":[` + tool + `,` + noType + `]}}`
	// The SDK escapes < in strings; the JSON value is the same.
	if strings.ReplaceAll(got, `\u003c`, "<") != want {
		t.Errorf("tools/list answer\n got %s\nwant %s", got, want)
	}
}

func TestCallAnswers(t *testing.T) {
	cs := connect(t, &Options{Tools: demoTools(t)}, nil)
	t.Run("list returns count records with unique ids", func(t *testing.T) {
		for _, count := range []any{500, 3, "7", 0} {
			res := call(t, cs, "list_tickets", map[string]any{"limit": count})
			var items []map[string]any
			if err := json.Unmarshal([]byte(text(t, res)), &items); err != nil {
				t.Fatal(err)
			}
			want := 0
			fmt.Sscan(fmt.Sprint(count), &want)
			if len(items) != want {
				t.Errorf("limit %v: got %d records", count, len(items))
			}
			ids := map[any]bool{}
			for _, it := range items {
				ids[it["id"]] = true
				for _, internal := range []string{"_id", "__v", "created_at", "updated_at", "hash", "label_ids"} {
					if _, ok := it[internal]; !ok {
						t.Fatalf("record lacks %s: %v", internal, it)
					}
				}
			}
			if len(ids) != len(items) {
				t.Errorf("limit %v: %d unique ids in %d records", count, len(ids), len(items))
			}
			structured, _ := res.StructuredContent.(map[string]any)
			if got, _ := structured["items"].([]any); len(got) != want {
				t.Errorf("limit %v: structured content has %d items", count, len(got))
			}
		}
	})
	t.Run("list without a count returns the default", func(t *testing.T) {
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(text(t, call(t, cs, "list_events", map[string]any{}))), &items); err != nil {
			t.Fatal(err)
		}
		if len(items) != defaultListCount {
			t.Errorf("got %d records, want %d", len(items), defaultListCount)
		}
	})
	t.Run("get returns the object asked for", func(t *testing.T) {
		tests := []struct{ tool, key, value, field string }{
			{"get_ticket", "ticket_id", "TCK-004242", "id"},
			{"read_file", "path", "/srv/demo/readme.md", "path"},
			{"lookup_customer_by_email", "email", "ana@example.com", "email"},
		}
		for _, tt := range tests {
			res := call(t, cs, tt.tool, map[string]any{tt.key: tt.value})
			var obj map[string]any
			if err := json.Unmarshal([]byte(text(t, res)), &obj); err != nil {
				t.Fatal(err)
			}
			if res.IsError || obj[tt.field] != tt.value {
				t.Errorf("%s: %s = %v, want %q (isError %v)", tt.tool, tt.field, obj[tt.field], tt.value, res.IsError)
			}
		}
	})
	t.Run("get of a missing thing is a tool error", func(t *testing.T) {
		res := call(t, cs, "get_ticket", map[string]any{"ticket_id": "TCK-missing"})
		if !res.IsError || !strings.Contains(text(t, res), "not found") {
			t.Errorf("got isError %v, %q", res.IsError, text(t, res))
		}
	})
	t.Run("writes echo the exact arguments", func(t *testing.T) {
		args := `{"subject":"Can't log in","requester":{"email":"ana@example.com"},"cc-emails":["b@example.com"],"custom_fields":{"error_code":"E<42>"},"x-request-id":"k1"}`
		res := call(t, cs, "create_ticket", json.RawMessage(args))
		var got struct {
			Received   json.RawMessage `json:"received"`
			CallNumber int             `json:"call_number"`
		}
		if err := json.Unmarshal([]byte(text(t, res)), &got); err != nil {
			t.Fatal(err)
		}
		if string(got.Received) != args {
			t.Errorf("received\n got %s\nwant %s", got.Received, args)
		}
		if got.CallNumber == 0 {
			t.Error("no call_number")
		}
	})
}

func TestCallCounter(t *testing.T) {
	cs := connect(t, &Options{Tools: demoTools(t), StatsTool: true}, nil)
	calls := []string{"create_ticket", "list_tickets", "create_ticket", "get_event"}
	for i, tool := range calls {
		res := call(t, cs, tool, map[string]any{"event_id": "evt_1", "limit": 1})
		n, ok := res.StructuredContent.(map[string]any)["call_number"].(float64)
		if !ok || int(n) != i+1 {
			t.Errorf("call %d (%s): call_number %v", i+1, tool, res.StructuredContent)
		}
	}
	var stats struct {
		Calls  int            `json:"calls"`
		ByTool map[string]int `json:"by_tool"`
	}
	if err := json.Unmarshal([]byte(text(t, call(t, cs, statsToolName, nil))), &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Calls != len(calls)+1 {
		t.Errorf("calls = %d, want %d", stats.Calls, len(calls)+1)
	}
	want := map[string]int{"create_ticket": 2, "list_tickets": 1, "get_event": 1, statsToolName: 1}
	for tool, n := range want {
		if stats.ByTool[tool] != n {
			t.Errorf("by_tool[%s] = %d, want %d (%v)", tool, stats.ByTool[tool], n, stats.ByTool)
		}
	}
}

func TestUnknownToolIsAProtocolError(t *testing.T) {
	cs := connect(t, &Options{Tools: demoTools(t)}, nil)
	if _, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "no_such_tool"}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}

func TestNewServerRejectsBadCatalogs(t *testing.T) {
	tests := []struct {
		name  string
		tools []string
	}{
		{"duplicate names", []string{`{"name":"a","inputSchema":{"type":"object"}}`, `{"name":"a","inputSchema":{"type":"object"}}`}},
		{"no name", []string{`{"inputSchema":{"type":"object"}}`}},
		{"not JSON", []string{`{`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tools []json.RawMessage
			for _, s := range tt.tools {
				tools = append(tools, json.RawMessage(s))
			}
			if _, err := NewServer(&Options{Tools: tools}); err == nil {
				t.Error("NewServer accepted the catalog")
			}
		})
	}
}
