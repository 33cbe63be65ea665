package bridge

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestLearningFromRuns: over real demo servers, the card the model ran
// after a discovery comes first when the same request is asked again,
// once the run is written (past quickWindow); with "learning": false
// nothing is learned.
func TestLearningFromRuns(t *testing.T) {
	for _, learning := range []bool{true, false} {
		t.Run(map[bool]string{true: "on", false: "off"}[learning], func(t *testing.T) {
			f := newFixture(t, "helpdesk", "calendar", "crm")
			if !learning {
				cfg := *f.b.config()
				cfg.Bridge.NoLearning = true
				f.b.Reconfigure(context.Background(), &cfg)
			}
			cs := connectClient(t, f.b)
			const intent = "show my tickets"
			cards := discoverCards(t, cs, intent)
			if len(cards) < 2 {
				t.Fatalf("discover %q: %d cards, want two or more", intent, len(cards))
			}
			chosen := cards[1]
			res, ans := call(t, cs, RunTool, map[string]any{"actionId": chosen["actionId"], "params": map[string]any{}})
			if res.IsError && ans["status"] != statusNeedsInput {
				t.Fatalf("run %s: %v", chosen["name"], ans)
			}
			f.clock.advance(quickWindow + time.Second)
			f.b.learner.flush(context.Background(), false)
			again := discoverCards(t, cs, intent)
			if got := again[0]["name"]; (got == chosen["name"]) != learning {
				t.Errorf("learning %v: after running %s (second card), the first card of the same request is %s", learning, chosen["name"], got)
			}
		})
	}
}

// TestLearningWeakensARepeatedRequest: a run followed soon by a discovery
// asking much the same is weaker evidence than one that was not; an
// unrelated discovery leaves it alone.
func TestLearningWeakensARepeatedRequest(t *testing.T) {
	c := newClock()
	l := newLearner(nil, slog.New(slog.DiscardHandler), c.now)
	act := action{server: "files", tool: "read_file", hash: "h"}
	l.discovered("s1", "read the file notes.md", []match{{act: act}})
	l.ran("s1", act, &mcp.CallToolResult{})
	l.ran("s2", act, &mcp.CallToolResult{}) // another session did not discover it
	if len(l.pending) != 1 || l.pending[0].run.Weight != weightSucceeded || l.pending[0].run.Intent != "read the file notes.md" {
		t.Fatalf("pending %+v, want one succeeded run of s1's intent", l.pending)
	}
	c.advance(5 * time.Second)
	l.discovered("s1", "send an email to Bob", nil)
	l.discovered("s2", "read the file notes.md again", nil)
	if w := l.pending[0].run.Weight; w != weightSucceeded {
		t.Fatalf("weight %v after an unrelated discovery and another session's, want %v", w, weightSucceeded)
	}
	l.discovered("s1", "read the file notes.md again", nil)
	if w := l.pending[0].run.Weight; w != weightSucceeded*weightAskedSoon {
		t.Errorf("weight %v after the same request soon after, want %v", w, weightSucceeded*weightAskedSoon)
	}
}

func TestRunWeight(t *testing.T) {
	for _, tt := range []struct {
		name   string
		res    *mcp.CallToolResult
		weight float64
		ok     bool
	}{
		{"succeeded", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, weightSucceeded, true},
		{"tool error", &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no such row"}}}, weightToolError, true},
		{"invalid params", invalidParams([]fieldError{{Path: "/x", Message: "bad"}}), weightNeedsFix, true},
		{"needs input", failure(statusNeedsInput, "x"), weightNeedsFix, true},
		{"upstream error", failure(statusUpstreamError, "down"), weightUpstream, true},
		{"expired", failure(statusExpired, msgExpired), 0, false},
		{"schema changed", failure(statusSchemaChanged, msgSchemaChanged), 0, false},
		{"unknown action", failure(statusUnknownAction, msgUnknownAction), 0, false},
		{"cancelled by shutdown", failure(statusCancelled, "shutting down"), 0, false},
	} {
		if w, ok := runWeight(tt.res); w != tt.weight || ok != tt.ok {
			t.Errorf("%s: runWeight = %v, %v; want %v, %v", tt.name, w, ok, tt.weight, tt.ok)
		}
	}
}

// discoverCards discovers intent and returns its cards.
func discoverCards(t *testing.T, cs *mcp.ClientSession, intent string) []map[string]any {
	t.Helper()
	res, ans := call(t, cs, DiscoverTool, map[string]any{"intent": intent, "limit": 5})
	if res.IsError {
		t.Fatalf("discover %q: %v", intent, ans)
	}
	var out []map[string]any
	for _, m := range ans["matches"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}
