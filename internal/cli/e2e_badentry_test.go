package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// badEntryConfig writes a config with the demo helpdesk server and a
// "calendar" entry whose "command" is misspelt "comand" when bad is set.
func badEntryConfig(t *testing.T, path string, bad bool) {
	t.Helper()
	helpdesk, calendar := demoUpstream("--server", "helpdesk"), demoUpstream("--server", "calendar")
	key := "command"
	if bad {
		key = "comand"
	}
	data, err := json.Marshal(map[string]any{
		"mcpServers": map[string]any{
			"helpdesk": helpdesk,
			"calendar": map[string]any{key: calendar.Command, "args": calendar.Args, "env": calendar.Env},
		},
		"bridge": map[string]any{"discoveryWait": "60s"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

const comandHint = `unknown key "comand" (did you mean "command"?)`

// comandLogged is comandHint as serve's text log quotes it.
var comandLogged = strings.ReplaceAll(comandHint, `"`, `\"`)

// TestOneBadEntryIndexAndServers: index stores the good server and names
// the bad entry with the key it nearly is; servers shows it invalid with
// the same reason.
func TestOneBadEntryIndexAndServers(t *testing.T) {
	dir := t.TempDir()
	cfg, db := filepath.Join(dir, "config.json"), filepath.Join(dir, "catalog.db")
	badEntryConfig(t, cfg, true)

	cmd := capbridgeCmd("index", "--config", cfg, "--db", db)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("index with a bad entry: exit %d (%v), want 1 (one server not indexed):\n%s", code, err, out)
	}
	text := string(out)
	for _, want := range []string{"helpdesk", "tools stored", "calendar", "not indexed", comandHint, "indexed 1 of 2 servers"} {
		if !strings.Contains(text, want) {
			t.Errorf("index output lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, comandHint); n != 1 {
		t.Errorf("index tells the bad key %d times, want once:\n%s", n, text)
	}

	got := serverStates(t, cfg, db)
	if s := got["helpdesk"]; s.State != "stored" || s.Tools == 0 {
		t.Errorf("helpdesk = %+v, want stored with tools", s)
	}
	if s := got["calendar"]; s.State != stateInvalid || !strings.Contains(s.LastError, comandHint) {
		t.Errorf("calendar = %+v, want invalid with %q", s, comandHint)
	}
	table, _ := runCapbridge(t, "servers", "--config", cfg, "--db", db)
	if !strings.Contains(table, "invalid") || !strings.Contains(table, `did you mean "command"`) {
		t.Errorf("servers table does not show the bad entry and its fix:\n%s", table)
	}

	// Mended, the entry is indexed; broken again, its catalog is kept.
	badEntryConfig(t, cfg, false)
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	badEntryConfig(t, cfg, true)
	capbridgeCmd("index", "--config", cfg, "--db", db).Run() // exits 1: calendar is left out
	if s := serverStates(t, cfg, db)["calendar"]; s.State != stateInvalid || s.Tools == 0 {
		t.Errorf("calendar broken again = %+v, want invalid with its stored tools kept", s)
	}
}

// serverStates reads `capbridge servers --json` by server name.
func serverStates(t *testing.T, cfg, db string) map[string]serverStatus {
	t.Helper()
	out, _ := runCapbridge(t, "servers", "--json", "--config", cfg, "--db", db)
	var got struct{ Servers []serverStatus }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("servers --json: %v\n%s", err, out)
	}
	m := map[string]serverStatus{}
	for _, s := range got.Servers {
		m[s.Name] = s
	}
	return m
}

// TestOneBadEntryServe: serve starts with a bad entry and serves the other
// server; its log and an empty discovery name the entry and the key it
// nearly is. A serve that sees the same edit while running goes on, and so
// does the next start.
func TestOneBadEntryServe(t *testing.T) {
	dir := t.TempDir()
	cfg, db := filepath.Join(dir, "config.json"), filepath.Join(dir, "catalog.db")

	// The edit while serve runs.
	badEntryConfig(t, cfg, false)
	running := &lockedBuffer{}
	cs := serveLogged(t, cfg, db, running)
	discoverAction(t, cs, "create a calendar event", "calendar", "create_event")
	time.Sleep(10 * time.Millisecond) // a distinct modification time
	badEntryConfig(t, cfg, true)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(running.String(), comandLogged) {
		if time.Now().After(deadline) {
			t.Fatalf("30s after the edit, serve's log does not name the bad key:\n%s", running.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	checkServesDespite(t, cs)

	// The next start.
	started := &lockedBuffer{}
	cs = serveLogged(t, cfg, db, started)
	checkServesDespite(t, cs)
	if log := started.String(); !strings.Contains(log, `server \"calendar\" left out`) || !strings.Contains(log, comandLogged) {
		t.Errorf("serve's log at start does not name the bad entry:\n%s", log)
	}
}

// serveLogged starts serve with its stderr (at warn) kept in log.
func serveLogged(t *testing.T, cfg, db string, log *lockedBuffer) *mcp.ClientSession {
	t.Helper()
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "warn")
	cmd.Stderr = log
	return connectServe(t, cmd)
}

// checkServesDespite checks that the helpdesk server is discovered and
// runs, that calendar is not offered, and that a discovery with no match
// names calendar's entry and the key it nearly is.
func checkServesDespite(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
	runAction(t, cs, card["actionId"].(string), map[string]any{})
	res, ans := callBridge(t, cs, "discover_capability", map[string]any{"intent": "create a calendar event", "limit": 5})
	for _, m := range ans["matches"].([]any) {
		if m.(map[string]any)["provider"] == "calendar" {
			t.Errorf("a tool of the left-out entry was offered:\n%s", resultText(res))
		}
	}
	res, ans = callBridge(t, cs, "discover_capability", map[string]any{"intent": "zzxq vvrk"})
	note, _ := ans["note"].(string)
	if len(ans["matches"].([]any)) != 0 || !strings.Contains(note, "calendar (its config entry is wrong") || !strings.Contains(note, comandHint) {
		t.Errorf("an empty discovery does not name the bad entry:\n%s", resultText(res))
	}
}
