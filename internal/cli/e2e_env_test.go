package cli

import (
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/capbridge/capbridge/output"
)

// TestServeUpstreamEnvironment runs serve with secrets in its environment
// and a real stdio upstream that reports what it received (demo_env): the
// upstream gets the safe default set, its inheritEnv names and its own env,
// never capbridge's other variables; a ${VAR} value it echoes reaches the
// model redacted, whole through the output stage, and counted in stats; a
// short ${VAR} value is not a secret and stays.
func TestServeUpstreamEnvironment(t *testing.T) {
	t.Parallel()
	aws := "aws-" + rand.Text()
	token := "tok-" + rand.Text()
	env := map[string]any{
		"command": os.Args[0],
		"args":    []string{"demo-server", "--server", "helpdesk", "--env-tool"},
		"env": map[string]string{
			asCapbridge:   "1",
			"OWN_SETTING": "own-value",
			"API_TOKEN":   "${CAPBRIDGE_TEST_TOKEN}",
			"STUB_MODE":   "${CAPBRIDGE_TEST_MODE}",
		},
		"inheritEnv": []string{"CAPBRIDGE_TEST_INHERITED"},
	}
	data, err := json.Marshal(map[string]any{
		"mcpServers": map[string]any{"noinit": env},
		"bridge":     map[string]any{"discoveryWait": "60s", "callTimeout": "20s"},
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "catalog.db")
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "warn")
	cmd.Env = append(cmd.Env, "AWS_SECRET_ACCESS_KEY="+aws, "CAPBRIDGE_TEST_TOKEN="+token,
		"CAPBRIDGE_TEST_MODE=noinit", "CAPBRIDGE_TEST_INHERITED=inherited-value")
	cmd.Stderr = testWriter{t}
	cs := connectServe(t, cmd)
	card := discoverAction(t, cs, "report the environment variable names of the demo server", "noinit", "demo_env")
	id := card["actionId"].(string)

	// The output stage shapes the answer ({"names":[...]}) as lines: one
	// quoted name a line.
	text := resultText(runAction(t, cs, id, map[string]any{}))
	got := func(name string) bool { return strings.Contains(text, `"`+name+`"`) }
	if !got("HOME") {
		t.Fatalf("demo_env's answer lists no HOME; the test cannot read it:\n%s", text)
	}
	for _, name := range []string{"PATH", "CAPBRIDGE_TEST_INHERITED", "OWN_SETTING", "API_TOKEN", asCapbridge} {
		if !got(name) {
			t.Errorf("the upstream did not get %s:\n%s", name, text)
		}
	}
	for _, name := range []string{"AWS_SECRET_ACCESS_KEY", "CAPBRIDGE_TEST_TOKEN", "CAPBRIDGE_TEST_MODE"} {
		if got(name) {
			t.Errorf("the upstream got %s:\n%s", name, text)
		}
	}

	echo := resultText(runAction(t, cs, id, map[string]any{"name": "API_TOKEN"}))
	if strings.Contains(echo, token) || !strings.Contains(echo, output.Redacted) {
		t.Errorf("the upstream's echo of a ${VAR} secret reached the model as %q", echo)
	}
	if got := resultText(runAction(t, cs, id, map[string]any{"name": "STUB_MODE"})); !strings.Contains(got, "noinit") {
		t.Errorf("a 6-character value was redacted: %q", got)
	}
	cs.Close()

	out, _ := runCapbridge(t, "stats", "--json", "--config", cfg, "--db", db)
	var stats struct {
		Calls struct {
			Redactions int `json:"redactions"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &stats); err != nil {
		t.Fatalf("stats --json: %v\n%s", err, out)
	}
	if stats.Calls.Redactions != 1 {
		t.Errorf("stats counts %d redactions, want 1:\n%s", stats.Calls.Redactions, out)
	}
}
