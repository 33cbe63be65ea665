package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIdleServeStartsNothingOnConfigWrites: an idle `serve --http`, with no
// request, starts a server only when serve starts (a server whose indexing
// failed is tried once more then) or when that server's entry changes: not
// when the config file is touched, rewritten as it was (as a client that
// owns the file does), or edited elsewhere.
func TestIdleServeStartsNothingOnConfigWrites(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "started")
	flaky := markedUpstream(mark, "--server", "crm", "--fault", "exit-at-start")
	servers := map[string]serverEntry{"helpdesk": demoUpstream("--server", "helpdesk"), "flaky": flaky}
	cfg := writeConfig(t, servers, nil)
	db := filepath.Join(dir, "catalog.db")
	capbridgeCmd("index", "--config", cfg, "--db", db).Run() // exits 1: flaky fails
	starts := func() int { return len(startedPids(t, mark)) }
	if n := starts(); n != 1 {
		t.Fatalf("index started flaky %d times, want 1", n)
	}

	cmd := capbridgeCmd("serve", "--http", "127.0.0.1:0", "--config", cfg, "--db", db, "--log-level", "info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	log := &lockedBuffer{}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.Write([]byte(sc.Text() + "\n"))
		}
	}()
	waitFor := func(what string, done func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !done() {
			if time.Now().After(deadline) {
				t.Fatalf("30s without %s; serve's log:\n%s", what, log.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitFor("the retry at start", func() bool {
		return starts() == 2 && strings.Contains(log.String(), "background indexing done")
	})
	if !strings.Contains(log.String(), "trying again servers whose last indexing failed") {
		t.Errorf("serve's log does not say why it started flaky:\n%s", log.String())
	}

	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	reloads := func() int { return strings.Count(log.String(), "config changed; reconfiguring") }
	writes := []struct {
		what   string
		write  func()
		reload bool // serve reloads the config (but starts nothing)
	}{
		{"touched", func() {
			now := time.Now().Add(time.Second)
			os.Chtimes(cfg, now, now)
		}, false},
		{"rewritten as it was", func() { os.WriteFile(cfg, data, 0o600) }, false},
		{"edited elsewhere", func() {
			var doc map[string]any
			json.Unmarshal(data, &doc)
			doc["bridge"].(map[string]any)["callTimeout"] = "61s"
			edited, _ := json.Marshal(doc)
			os.WriteFile(cfg, edited, 0o600)
		}, true},
	}
	for _, w := range writes {
		before := reloads()
		w.write()
		if w.reload {
			waitFor("the reload after the config was "+w.what, func() bool { return reloads() > before })
		}
		time.Sleep(3 * time.Second) // two polls and a round of indexing, were one started
		if n := starts(); n != 2 {
			t.Errorf("the config %s: flaky started %d times in all, want 2 (index, serve's start)", w.what, n)
		}
	}

	// Its own entry changed, flaky is started again.
	flaky.Args = append(flaky.Args, "--page-size", "7")
	servers["flaky"] = flaky
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(cfg, mustReadConfigWith(t, cfg, servers), 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor("a start after flaky's entry changed", func() bool { return starts() == 3 })
}
