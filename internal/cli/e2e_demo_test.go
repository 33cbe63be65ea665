package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeToolsListBytes measures what a real client receives from a real
// `capbridge serve` process: two tools whose compact JSON stays under the
// 4,000-byte budget whatever is connected.
func TestServeToolsListBytes(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{
		"helpdesk": demoUpstream("--server", "helpdesk"),
		"crm":      demoUpstream("--server", "crm"),
	}, nil)
	cs := startServe(t, cfg, filepath.Join(t.TempDir(), "catalog.db"))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 2 || res.Tools[0].Name != "discover_capability" || res.Tools[1].Name != "run_capability" {
		t.Fatalf("tools/list: %d tools, want discover_capability and run_capability", len(res.Tools))
	}
	data, err := json.Marshal(res.Tools)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list tools array: %d bytes", len(data))
	if len(data) >= 4000 {
		t.Fatalf("tools/list tools array is %d bytes, budget 4,000", len(data))
	}
}

// TestStressToolEndToEnd takes the oversized stress tool (300 parameters,
// provider names such as x-api-version, user.email and user-id that need
// aliases) through the whole flow: serve indexes it in the background,
// discovery finds it, a run without params answers needs_input, and a run
// with every missing value reaches the demo server under the exact provider
// names, which its echo shows. Its descriptions carry an injection lure, so
// it is held on first sight, and its card, once approved, has no trace of
// the lure.
func TestStressToolEndToEnd(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{"stress": demoUpstream("--catalog", stressCatalog(t), "--server", "stress")}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	cs := startServe(t, cfg, db)

	res, ans := callBridge(t, cs, "discover_capability", map[string]any{"intent": "upsert a stress test record"})
	if ans["held"] != 1.0 || len(ans["matches"].([]any)) != 0 || strings.Contains(resultText(res), "Ignore all") {
		t.Fatalf("discovery of the lured stress tool: %s, want it held and nothing of it shown", resultText(res))
	}
	runCapbridge(t, "approve", "--db", db, "stress/upsert_stress_record")
	card := discoverAction(t, cs, "upsert a stress test record", "stress", "upsert_stress_record")
	id := card["actionId"].(string)
	if strings.Contains(resultTextOf(card), "Ignore all previous instructions") {
		t.Fatalf("the card carries the provider's injection lure: %v", card)
	}

	res, ans = callBridge(t, cs, "run_capability", map[string]any{"actionId": id})
	if !res.IsError || ans["status"] != "needs_input" {
		t.Fatalf("run without params: %s, want needs_input", resultText(res))
	}
	if n := len(resultText(res)); n > 6000 {
		t.Fatalf("needs_input is %d bytes, budget 6,000", n)
	}
	missing := ans["missing"].([]any)
	more, _ := ans["more"].(float64)
	params := map[string]any{}
	for _, m := range missing {
		name := m.(map[string]any)["name"].(string)
		params[name] = "v-" + name
	}
	if more > 0 {
		t.Fatalf("needs_input held back %v inputs; the stress tool's 40 required ones should fit", more)
	}

	// A wrong type under an alias is reported under that alias.
	var alias string
	for name := range params {
		if strings.HasPrefix(name, "param_") {
			alias = name
			break
		}
	}
	bad := map[string]any{}
	for k, v := range params {
		bad[k] = v
	}
	bad[alias] = 42
	res, ans = callBridge(t, cs, "run_capability", map[string]any{"actionId": id, "params": bad})
	if !res.IsError || ans["status"] != "invalid_params" || !strings.Contains(resultText(res), `"path":"/`+alias+`"`) {
		t.Fatalf("a number for string input %s: %s, want invalid_params at /%s", alias, resultText(res), alias)
	}

	res = runAction(t, cs, id, params)
	// The demo server echoes the arguments it received: they arrive under
	// the provider's own names, not the card's aliases, every value intact.
	text := resultText(res)
	line, ok := findLine(text, "received: ")
	if !ok {
		t.Fatalf("no echo of the received arguments in:\n%s", text)
	}
	var received map[string]string
	if err := json.Unmarshal([]byte(line), &received); err != nil {
		t.Fatalf("echo %q: %v", line, err)
	}
	for _, provider := range []string{"x-api-version", "user.email", "user-id", "user_id", "größe"} {
		if _, ok := received[provider]; !ok {
			t.Errorf("the provider did not receive %q; it received %v", provider, received)
		}
	}
	sent := map[string]bool{}
	for name, v := range received {
		if strings.HasPrefix(name, "param_") {
			t.Errorf("alias %q reached the provider", name)
		}
		sent[v] = true
	}
	for _, v := range params {
		if !sent[v.(string)] {
			t.Errorf("value %q was not received", v)
		}
	}
	if len(received) != len(params) {
		t.Errorf("the provider received %d arguments, the model gave %d", len(received), len(params))
	}
}

// findLine returns the rest of the first line of text starting with prefix.
func findLine(text, prefix string) (string, bool) {
	for _, l := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest, true
		}
	}
	return "", false
}

// stressCatalog writes demo/catalog/stress.json as a one-tool catalog of
// server "stress", for `capbridge demo-server --catalog`.
func stressCatalog(t *testing.T) string {
	t.Helper()
	tool, err := os.ReadFile(filepath.Join("..", "..", "demo", "catalog", "stress.json"))
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(tool, &obj); err != nil {
		t.Fatal(err)
	}
	obj["server"] = json.RawMessage(`"stress"`)
	line, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "stress.jsonl")
	if err := os.WriteFile(path, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func resultTextOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestUpstreamFailures: a server that crashes mid-call or never answers
// gives upstream_error, bounded; the bridge stays up and other servers keep
// working.
func TestUpstreamFailures(t *testing.T) {
	tests := []struct {
		fault string
		want  string // in the message
	}{
		{"crash-on-call", "exit"},
		{"hang", "time"},
	}
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			cfg := writeConfig(t, map[string]serverEntry{
				"helpdesk": demoUpstream("--server", "helpdesk", "--fault", tt.fault),
				"calendar": demoUpstream("--server", "calendar"),
			}, map[string]any{"callTimeout": "2s"})
			cs := startServe(t, cfg, filepath.Join(t.TempDir(), "catalog.db"))
			card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
			res, ans := callBridge(t, cs, "run_capability", map[string]any{"actionId": card["actionId"]})
			if !res.IsError || ans["status"] != "upstream_error" {
				t.Fatalf("run against a %s server: %s, want upstream_error", tt.fault, resultText(res))
			}
			msg, _ := ans["message"].(string)
			if !strings.Contains(strings.ToLower(msg), tt.want) || len(msg) > 1000 {
				t.Fatalf("upstream_error message (%d bytes) %q, want it to mention %q, bounded", len(msg), msg, tt.want)
			}
			other := discoverAction(t, cs, "list calendar events", "calendar", "list_events")
			runAction(t, cs, other["actionId"].(string), map[string]any{"time_min": "2026-12-01T00:00:00Z", "time_max": "2026-12-02T00:00:00Z"})
		})
	}
}

// TestServeWithoutConfig: a missing config file is not an error for serve:
// it answers from an empty catalog and says how to bring servers in.
func TestServeWithoutConfig(t *testing.T) {
	dir := t.TempDir()
	cmd := capbridgeCmd("serve", "--config", filepath.Join(dir, "missing.json"), "--db", filepath.Join(dir, "catalog.db"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, ans := callBridge(t, cs, "discover_capability", map[string]any{"intent": "send an email"})
	if res.IsError || ans["matches"] == nil || len(ans["matches"].([]any)) != 0 {
		t.Fatalf("discovery on an empty catalog: %s, want {\"matches\":[]...}", resultText(res))
	}
	cs.Close()
	if !strings.Contains(stderr.String(), "capbridge import") {
		t.Fatalf("serve without a config did not point at capbridge import; stderr:\n%s", stderr.String())
	}
}
