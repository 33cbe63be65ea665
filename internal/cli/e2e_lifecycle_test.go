package cli

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestServeStartsUpstreamsLazily: with the catalog stored, serve answers
// tools/list and discovery without starting the upstream; the first run
// starts it, once.
func TestServeStartsUpstreamsLazily(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "started")
	cfg := writeConfig(t, map[string]serverEntry{"helpdesk": markedUpstream(mark, "--server", "helpdesk")}, nil)
	db := filepath.Join(t.TempDir(), "catalog.db")
	runCapbridge(t, "index", "--config", cfg, "--db", db)
	if n := len(startedPids(t, mark)); n != 1 {
		t.Fatalf("index started the server %d times, want 1", n)
	}
	os.Remove(mark)

	cs := startServe(t, cfg, db)
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
	if pids := startedPids(t, mark); len(pids) != 0 {
		t.Fatalf("tools/list and discovery started the upstream (pids %v)", pids)
	}
	runAction(t, cs, card["actionId"].(string), map[string]any{})
	runAction(t, cs, card["actionId"].(string), map[string]any{})
	if pids := startedPids(t, mark); len(pids) != 1 {
		t.Fatalf("two runs started the upstream %d times, want once", len(pids))
	}
}

// TestServeExitKillsUpstreams: serve exits on stdin EOF and on SIGTERM, and
// its upstream children do not outlive it.
func TestServeExitKillsUpstreams(t *testing.T) {
	tests := []struct {
		name string
		stop func(t *testing.T, closeStdin func(), serve *os.Process)
	}{
		{"stdin EOF", func(t *testing.T, closeStdin func(), _ *os.Process) { closeStdin() }},
		{"SIGTERM", func(t *testing.T, _ func(), serve *os.Process) {
			if err := serve.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "started")
			cfg := writeConfig(t, map[string]serverEntry{"helpdesk": markedUpstream(mark, "--server", "helpdesk")}, nil)
			cs, cmd := startServeCmd(t, cfg, filepath.Join(t.TempDir(), "catalog.db"))
			card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
			runAction(t, cs, card["actionId"].(string), map[string]any{})
			pids := startedPids(t, mark)
			if len(pids) == 0 {
				t.Fatal("the upstream never started")
			}
			exited := make(chan struct{})
			go func() {
				// The client's Close closes serve's stdin and waits for it.
				tt.stop(t, func() { cs.Close() }, cmd.Process)
				if tt.name == "SIGTERM" {
					cmd.Process.Wait()
				}
				close(exited)
			}()
			select {
			case <-exited:
			case <-time.After(15 * time.Second):
				t.Fatal("serve did not exit within 15s")
			}
			for _, pid := range pids {
				if !processGone(pid, 5*time.Second) {
					t.Errorf("upstream pid %d outlived serve", pid)
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		})
	}
}

// TestServeFollowsConfigChanges: a server added to the config file while
// serve runs is indexed and discoverable without a restart.
func TestServeFollowsConfigChanges(t *testing.T) {
	servers := map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk")}
	cfg := writeConfig(t, servers, nil)
	cs := startServe(t, cfg, filepath.Join(t.TempDir(), "catalog.db"))
	discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")

	servers["calendar"] = demoUpstream("--server", "calendar")
	data := mustReadConfigWith(t, cfg, servers)
	time.Sleep(10 * time.Millisecond) // a distinct modification time
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, ans := callBridge(t, cs, "discover_capability", map[string]any{"intent": "create a calendar event", "limit": 5})
		for _, m := range ans["matches"].([]any) {
			if m.(map[string]any)["provider"] == "calendar" {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("30s after the config gained a calendar server, discovery still does not show it: %v", ans)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// mustReadConfigWith renders a config file like writeConfig's with servers.
func mustReadConfigWith(t *testing.T, path string, servers map[string]serverEntry) []byte {
	t.Helper()
	other := writeConfig(t, servers, nil)
	data, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestServeConfigCreatedLater: serve started without a config file picks the
// file up once it is written.
func TestServeConfigCreatedLater(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	cs := startServe(t, cfg, filepath.Join(dir, "catalog.db"))
	data := mustReadConfigWith(t, cfg, map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk")})
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, ans := callBridge(t, cs, "discover_capability", map[string]any{"intent": "list helpdesk tickets"})
		if len(ans["matches"].([]any)) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("30s after the config file appeared, discovery still finds nothing: %v", ans)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
