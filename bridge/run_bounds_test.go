package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/schema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wideObject returns a JSON object of n members.
func wideObject(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"k%d":%d`, i, i)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestRunBoundsParams sends run_capability params past the member and item
// bounds through a real client: each gets invalid_params naming where,
// and the tool is never called; params at the bound are read as usual.
func TestRunBoundsParams(t *testing.T) {
	f := newFixture(t, "helpdesk")
	cs := connectClient(t, f.b)
	id := discoverOne(t, cs, "open a support ticket for a customer", "create_ticket")["actionId"].(string)
	tests := []struct {
		name     string
		params   string
		wantPath string // "" when the bound is not what fails
	}{
		{"200,000 members", wideObject(200_000), "/params"},
		{"members past the bound, nested", `{"subject":"s","meta":` + wideObject(schema.MaxArgMembers+1) + `}`, "/params/meta"},
		{"items past the bound", `{"subject":"s","tags":[` + strings.TrimSuffix(strings.Repeat(`"t",`, schema.MaxArgItems+1), ",") + `]}`, "/params/tags"},
		{"members at the bound", wideObject(schema.MaxArgMembers), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := json.RawMessage(`{"actionId":"` + id + `","params":` + tt.params + `}`)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: RunTool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			var ans struct {
				Status string       `json:"status"`
				Errors []fieldError `json:"errors"`
			}
			json.Unmarshal([]byte(text), &ans)
			bounded := len(ans.Errors) == 1 && ans.Errors[0].Path == tt.wantPath && strings.Contains(ans.Errors[0].Message, "more than")
			switch {
			case tt.wantPath != "" && (!res.IsError || ans.Status != statusInvalidParams || !bounded):
				t.Errorf("answer %.300s; want invalid_params at %s", text, tt.wantPath)
			case tt.wantPath == "" && strings.Contains(text, "more than"):
				t.Errorf("params at the bound refused for their size: %.300s", text)
			}
		})
	}
}

// BenchmarkRunOversizedParams measures run_capability's answer to params of
// 200,000 members, from the handler's first line: the bound check answers
// invalid_params after scanning past the 1,000th member only.
func BenchmarkRunOversizedParams(b *testing.B) {
	br, err := New(testConfig(), openStore(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	args := json.RawMessage(`{"actionId":"act_00000000000000000000000000000000","params":` + wideObject(200_000) + `}`)
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: RunTool, Arguments: args}}
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		res, _ := br.run(context.Background(), req)
		if !res.IsError {
			b.Fatal("oversized params accepted")
		}
	}
}
