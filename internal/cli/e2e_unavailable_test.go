package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDiscoveryNamesFailingServer: with a server whose indexing failed, a
// discovery whose best card is below the close-match bar names it beside
// the weak cards, an empty one names it and the servers searched in
// sentences that do not run together, and a close match does not bother
// with it. The first discovery does not wait for the failed server, which
// serve tries again in the background and which now hangs at start.
func TestDiscoveryNamesFailingServer(t *testing.T) {
	sqlite := switchableUpstream(t, "--server", "crm")
	sqlite.set(t, "exit-at-start")
	cfg := writeConfig(t, map[string]serverEntry{
		"helpdesk": demoUpstream("--server", "helpdesk"),
		"sqlite":   sqlite.serverEntry,
	}, map[string]any{"startTimeout": "40s", "discoveryWait": "30s"})
	db := filepath.Join(t.TempDir(), "catalog.db")
	capbridgeCmd("index", "--config", cfg, "--db", db).Run() // exits 1: sqlite fails
	if s := serverStates(t, cfg, db)["sqlite"]; s.State != "failing" {
		t.Fatalf("sqlite = %+v after index, want failing", s)
	}

	sqlite.set(t, "mute") // tried again at serve's start, it never answers
	cs := startServe(t, cfg, db)
	began := time.Now()
	discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
	if took := time.Since(began); took > 15*time.Second {
		t.Errorf("the first discovery took %s: it waited for the server that failed before (discoveryWait 30s)", took.Round(time.Millisecond))
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(startedPids(t, sqlite.mark)) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("serve did not try the failed server again at start")
		}
		time.Sleep(100 * time.Millisecond)
	}

	const named = "Unavailable servers: sqlite (start: initializing: server exited before answering (exit status 3))."
	res, ans := callBridge(t, cs, "discover_capability", map[string]any{"intent": "what is the weather forecast in Lisbon tomorrow"})
	note, _ := ans["note"].(string)
	if len(ans["matches"].([]any)) == 0 || !strings.HasPrefix(note, "No close match") || !strings.Contains(note, named) {
		t.Errorf("weak cards without naming the failing server:\n%s", resultText(res))
	}

	res, ans = callBridge(t, cs, "discover_capability", map[string]any{"intent": "zzxq vvrk"})
	note, _ = ans["note"].(string)
	if len(ans["matches"].([]any)) != 0 || !strings.Contains(note, named+" Searched servers: helpdesk.") {
		t.Errorf("an empty discovery does not name the failing server, then the searched ones:\n%s", resultText(res))
	}
	if runOn := regexp.MustCompile(`[a-z)] (Unavailable|Searched) servers`).FindString(note); runOn != "" {
		t.Errorf("the note runs sentences together at %q: %s", runOn, note)
	}

	res, ans = callBridge(t, cs, "discover_capability", map[string]any{"intent": "open a support ticket for a customer"})
	if note, _ := ans["note"].(string); strings.Contains(note, "Unavailable") {
		t.Errorf("a close match names unavailable servers:\n%s", resultText(res))
	}
}
