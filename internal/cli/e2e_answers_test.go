package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeAnswersSayWhatTheyAre runs a real serve over demo servers and
// checks issue 16's answers end to end: an aliased input says which
// provider field it is, a list whose records come both as JSON text and
// inside structuredContent shows them once, a mask that names nothing
// says so and lists the fields, a discovery that matches nothing names
// the servers it searched, and a tool that needs task augmentation is
// offered beside its sibling (the bridge runs it as a task).
func TestServeAnswersSayWhatTheyAre(t *testing.T) {
	tasks := filepath.Join(t.TempDir(), "tasks.jsonl")
	catalog := `{"server":"tasks","name":"simulate-research-query","description":"Simulates a deep research query as a long-running task.","inputSchema":{"type":"object","properties":{"topic":{"type":"string"}}},"execution":{"taskSupport":"required"}}
{"server":"tasks","name":"quick_research_query","description":"Answers a research query at once.","inputSchema":{"type":"object","properties":{"topic":{"type":"string"}}},"execution":{"taskSupport":"optional"}}
`
	if err := os.WriteFile(tasks, []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, map[string]serverEntry{
		"helpdesk": demoUpstream("--server", "helpdesk"),
		"tasks":    demoUpstream("--catalog", tasks, "--server", "tasks"),
	}, nil)
	cs := startServe(t, cfg, filepath.Join(t.TempDir(), "catalog.db"))

	t.Run("aliased inputs", func(t *testing.T) {
		card := discoverAction(t, cs, "open a support ticket for a customer", "helpdesk", "create_ticket")
		named := map[string]bool{}
		for _, in := range card["inputs"].([]any) {
			in := in.(map[string]any)
			name, _ := in["name"].(string)
			desc, _ := in["description"].(string)
			if strings.HasPrefix(name, "param_") {
				provider, _, _ := strings.Cut(desc, ":")
				named[provider] = true
			}
		}
		if !named["cc-emails"] || !named["x-request-id"] {
			t.Errorf("aliased inputs do not name cc-emails and x-request-id: %s", resultTextOf(card["inputs"]))
		}
	})

	t.Run("records once", func(t *testing.T) {
		card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
		res := runAction(t, cs, card["actionId"].(string), map[string]any{"limit": 2})
		text := resultText(res)
		if !strings.Contains(text, "count") {
			t.Errorf("the structured form (items, count) is not the one shown:\n%s", text)
		}
		for _, line := range strings.Split(text, "\n") {
			if id, ok := strings.CutPrefix(strings.TrimSpace(line), "| "); ok && id != "" {
				if first, _, _ := strings.Cut(id, " |"); first != "" && strings.Count(text, "| "+first+" |") > 1 {
					t.Errorf("record %s shown twice:\n%s", first, text)
				}
			}
		}
	})

	t.Run("mask matching nothing", func(t *testing.T) {
		card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
		res, _ := callBridge(t, cs, "run_capability", map[string]any{"actionId": card["actionId"], "params": map[string]any{"limit": 2}, "fields": []string{"no_such_field"}})
		text := resultText(res)
		if !strings.Contains(text, "no field matched") || !strings.Contains(text, "subject") || strings.Contains(text, "{}") {
			t.Errorf("a mask naming nothing answered:\n%s", text)
		}
	})

	t.Run("nothing matched", func(t *testing.T) {
		res, _ := callBridge(t, cs, "discover_capability", map[string]any{"intent": "what tools do you have?"})
		text := resultText(res)
		if !strings.Contains(text, "No tool matched") || !strings.Contains(text, "Searched servers: helpdesk, tasks.") {
			t.Errorf("a discovery that matched nothing does not name the servers searched:\n%s", text)
		}
	})

	t.Run("task-only tool", func(t *testing.T) {
		res, _ := callBridge(t, cs, "discover_capability", map[string]any{"intent": "simulate a research query", "limit": 5})
		text := resultText(res)
		if !strings.Contains(text, "simulate-research-query") || !strings.Contains(text, "quick_research_query") {
			t.Errorf("discovery did not offer the task-only tool and its sibling:\n%s", text)
		}
	})
}
