package bridge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/schema"
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
		{"upstream_error.json", upstreamFailure("helpdesk", fmt.Errorf("calling create_ticket: %w", fmt.Errorf("connection reset")))},
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
