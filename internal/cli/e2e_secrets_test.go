package cli

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capbridge/capbridge/output"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSecretsNeverShown plants unique secrets in ${VAR}s expanded into a
// server's env, args and a url, and in an HTTP server's headers, with
// servers that work and servers that fail (one prints its secrets on
// stderr as it dies). It runs index (quiet and -v), serve at debug level,
// discovery, runs, servers and stats (text and --json), and finds none of
// the secrets in any output, any answer, or the catalog file itself.
func TestSecretsNeverShown(t *testing.T) {
	t.Parallel()
	envSecret := "env-secret-" + rand.Text()
	headerSecret := "header-secret-" + rand.Text()
	varSecret := "var-secret-" + rand.Text()
	// For the children only: the test runs in parallel.
	secretEnv := []string{"CAPBRIDGE_TEST_SECRET=" + varSecret, "CAPBRIDGE_TEST_ENV_SECRET=" + envSecret}

	helpdesk := demoUpstream("--server", "helpdesk")
	helpdesk.Env["API_TOKEN"] = "${CAPBRIDGE_TEST_ENV_SECRET}"
	helpdesk.Env["EXPANDED_TOKEN"] = "${CAPBRIDGE_TEST_SECRET}"
	cfgDoc := map[string]any{
		"mcpServers": map[string]any{
			"helpdesk": helpdesk,
			"leaky": map[string]any{
				"command": "sh",
				"args":    []string{"-c", `echo "starting with $API_TOKEN and $1" >&2; exit 1`, "sh", "${CAPBRIDGE_TEST_SECRET}"},
				"env":     map[string]string{"API_TOKEN": "${CAPBRIDGE_TEST_ENV_SECRET}"},
			},
			"remote": map[string]any{
				"url":     "http://127.0.0.1:1/mcp?key=${CAPBRIDGE_TEST_SECRET}",
				"headers": map[string]string{"Authorization": "Bearer " + headerSecret},
			},
		},
		"bridge": map[string]any{"discoveryWait": "60s", "callTimeout": "20s"},
	}
	data, err := json.Marshal(cfgDoc)
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "catalog.db")

	var outputs []string
	collect := func(name string, args ...string) {
		cmd := capbridgeCmd(args...)
		cmd.Env = append(cmd.Env, secretEnv...)
		out, _ := cmd.CombinedOutput() // index fails: leaky and remote cannot be listed
		outputs = append(outputs, name+"\n"+string(out))
	}
	collect("index", "index", "--config", cfg, "--db", db)
	collect("index -v", "index", "-v", "--config", cfg, "--db", db)

	serveLog := &logBuffer{}
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "debug")
	cmd.Env = append(cmd.Env, secretEnv...)
	cmd.Stderr = serveLog
	client := mcp.NewClient(&mcp.Implementation{Name: "secrets", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	answers := func(res *mcp.CallToolResult) {
		b, _ := json.Marshal(res)
		outputs = append(outputs, "answer\n"+string(b))
	}
	for _, intent := range []string{"list helpdesk tickets", "remote", "leaky starting"} {
		res, _ := callBridge(t, cs, "discover_capability", map[string]any{"intent": intent, "limit": 5})
		answers(res)
	}
	card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
	answers(runAction(t, cs, card["actionId"].(string), map[string]any{}))
	res, _ := callBridge(t, cs, "run_capability", map[string]any{"actionId": card["actionId"], "params": map[string]any{"count": "not a number"}})
	answers(res)
	cs.Close()
	outputs = append(outputs, "serve --log-level debug\n"+serveLog.String())
	if !strings.Contains(serveLog.String(), "starting with") {
		t.Errorf("serve's debug log never showed the failing server's stderr; the test would not see a leak there:\n%s", serveLog.String())
	}

	collect("servers", "servers", "--config", cfg, "--db", db)
	collect("servers --json", "servers", "--json", "--config", cfg, "--db", db)
	collect("stats", "stats", "--config", cfg, "--db", db)
	collect("stats --json", "stats", "--json", "--config", cfg, "--db", db)
	catalog, err := readAll(db, db+"-wal")
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, "catalog file\n"+catalog)

	for _, out := range outputs {
		name, _, _ := strings.Cut(out, "\n")
		for _, secret := range []string{envSecret, headerSecret, varSecret} {
			if i := strings.Index(out, secret); i >= 0 {
				t.Errorf("%s shows a secret: ...%s...", name, out[max(0, i-200):min(len(out), i+len(secret)+50)])
			}
		}
	}
	if !strings.Contains(strings.Join(outputs, "\n"), output.Redacted) {
		t.Error("no output shows a scrubbed value ([redacted]): the failing servers' errors were not exercised")
	}
}

// readAll joins the contents of the files that exist.
func readAll(paths ...string) (string, error) {
	var b strings.Builder
	for _, p := range paths {
		f, err := os.Open(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = io.Copy(&b, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return b.String(), nil
}
