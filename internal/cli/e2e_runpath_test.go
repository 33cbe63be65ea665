package cli

import (
	"path/filepath"
	"testing"
	"time"
)

// TestValidationBeforeStart runs a tool of a server that takes five
// seconds to start through a real serve: invalid_params and needs_input
// answer from the stored schema without starting it (no process started,
// no wait), and a valid run then starts it and is called.
func TestValidationBeforeStart(t *testing.T) {
	t.Parallel()
	const startDelay = 5 * time.Second
	mark := filepath.Join(t.TempDir(), "pids")
	cfg := writeConfig(t, map[string]serverEntry{
		"slowdesk": markedUpstream(mark, "--server", "helpdesk", "--fault", "slow-start:"+startDelay.String()),
	}, map[string]any{"startTimeout": "60s"})
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	indexed := len(startedPids(t, mark))
	cs := startServe(t, cfg, db)
	card := discoverAction(t, cs, "get one helpdesk ticket by its id", "slowdesk", "get_ticket")

	for _, tc := range []struct {
		params map[string]any
		status string
	}{
		{map[string]any{"ticket_id": "not-a-ticket-id"}, "invalid_params"},
		{map[string]any{"ticket_id": 42}, "invalid_params"},
		{map[string]any{}, "needs_input"},
	} {
		began := time.Now()
		res, ans := callBridge(t, cs, "run_capability", map[string]any{"actionId": card["actionId"], "params": tc.params})
		took := time.Since(began)
		t.Logf("%v: %s in %s", tc.params, ans["status"], took.Round(time.Millisecond))
		if !res.IsError || ans["status"] != tc.status {
			t.Errorf("%v: answered %v, want %s", tc.params, resultText(res), tc.status)
		}
		if took >= startDelay {
			t.Errorf("%v: the answer took %s, as long as the server takes to start", tc.params, took)
		}
	}
	if n := len(startedPids(t, mark)); n != indexed {
		t.Fatalf("%d server processes started by serve before a valid run, want none", n-indexed)
	}

	began := time.Now()
	res := runAction(t, cs, card["actionId"].(string), map[string]any{"ticket_id": "TCK-000001"})
	t.Logf("a valid run, starting the server: %s", time.Since(began).Round(time.Millisecond))
	if n := len(startedPids(t, mark)); n != indexed+1 {
		t.Errorf("%d server processes started by the valid run, want 1", n-indexed)
	}
	if text := resultText(res); len(text) == 0 {
		t.Error("the valid run answered nothing")
	}
}
