package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFailureShowsTellingLine: a real `npx` of a package that does not
// exist fails with npm's 404 on stderr, among lines about logs and
// tarballs; index's line and the servers table both show the 404 line, not
// the end of stderr or a cut reason.
func TestFailureShowsTellingLine(t *testing.T) {
	if _, err := exec.LookPath("npx"); err != nil {
		t.Fatal("npx is needed: the test runs a real npx")
	}
	dir := t.TempDir()
	const pkg = "@modelcontextprotocol/server-capbridge-no-such-package"
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"helpdesk": demoUpstream("--server", "helpdesk"),
		"missing":  map[string]any{"command": "npx", "args": []string{"-y", pkg}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, db := filepath.Join(dir, "config.json"), filepath.Join(dir, "catalog.db")
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := capbridgeCmd("index", "--config", cfg, "--db", db)
	out, _ := cmd.CombinedOutput()
	notFound := "npm error 404 Not Found - GET https://registry.npmjs.org/" + strings.Replace(pkg, "/", "%2f", 1)
	var line string
	for l := range strings.Lines(string(out)) {
		if strings.HasPrefix(l, "missing ") {
			line = l
		}
	}
	if !strings.Contains(line, "stderr: "+notFound) {
		t.Fatalf("index does not end the failure with npm's 404 line %q:\n%s", notFound, out)
	}
	if strings.Contains(line, "complete log") || strings.Contains(line, "tarball") {
		t.Errorf("index shows the end of stderr, not the 404 line:\n%s", line)
	}

	table, _ := runCapbridge(t, "servers", "--config", cfg, "--db", db)
	var row string
	for l := range strings.Lines(table) {
		if strings.HasPrefix(l, "missing ") {
			row = l
		}
	}
	if !strings.Contains(row, notFound) {
		t.Errorf("the servers table does not show npm's 404 line:\n%s", table)
	}
}

// TestStartTimeoutAsConfigured: a server that never answers initialize,
// and takes seconds more to stop (it ignores SIGTERM), is reported as
// given the configured startTimeout, not the time the whole failed start
// took.
func TestStartTimeoutAsConfigured(t *testing.T) {
	stubborn := serverEntry{Command: "sh", Args: []string{"-c", "trap '' TERM INT; exec sleep 60"}}
	cfg := writeConfig(t, map[string]serverEntry{"stubborn": stubborn}, map[string]any{"startTimeout": "2s"})
	cmd := capbridgeCmd("index", "--config", cfg, "--db", filepath.Join(t.TempDir(), "catalog.db"))
	began := time.Now()
	out, _ := cmd.CombinedOutput()
	took := time.Since(began)
	if !strings.Contains(string(out), "no answer to initialize within 2s\n") {
		t.Errorf("index after %s does not report the 2s startTimeout:\n%s", took.Round(time.Millisecond), out)
	}
	t.Logf("the failed start took %s in all", took.Round(time.Millisecond))
}
