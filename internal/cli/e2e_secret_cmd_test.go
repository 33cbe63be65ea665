package cli

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/capbridge/capbridge/output"
)

// secretEnv is the environment of a capbridge child whose secrets go to a
// private file under dataHome, never to the user's keychain or data folder.
func secretEnv(dataHome string) []string {
	return []string{"XDG_DATA_HOME=" + dataHome, "CAPBRIDGE_SECRETS=file"}
}

// TestSecretCommand keeps an API key with `capbridge secret set` (from
// standard input), names it as ${secret:NAME} in a real stdio server's env,
// and checks that the server gets the value, the model reads it redacted,
// the config file never holds it, and the private file is 0600 in a 0700
// folder; then list and rm.
func TestSecretCommand(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	key := "sk-" + rand.Text()
	set := capbridgeCmd("secret", "set", "helpdesk-key")
	set.Env = append(set.Env, secretEnv(data)...)
	set.Stdin = strings.NewReader(key + "\n")
	out, err := set.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "${secret:helpdesk-key}") || strings.Contains(string(out), key) {
		t.Fatalf("secret set: %v\n%s", err, out)
	}
	file := filepath.Join(data, "capbridge", "secrets", "secrets.json")
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatalf("the private file: %v", err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %o, want 600", file, fi.Mode().Perm())
		}
		di, _ := os.Stat(filepath.Dir(file))
		if di.Mode().Perm() != 0o700 {
			t.Errorf("%s has mode %o, want 700", filepath.Dir(file), di.Mode().Perm())
		}
	}

	srv := demoUpstream("--server", "helpdesk", "--env-tool")
	srv.Env["API_TOKEN"] = "${secret:helpdesk-key}"
	cfg := writeConfig(t, map[string]serverEntry{"helpdesk": srv}, map[string]any{"callTimeout": "20s"})
	if raw, _ := os.ReadFile(cfg); strings.Contains(string(raw), key) {
		t.Fatal("the config holds the key")
	}
	db := filepath.Join(t.TempDir(), "catalog.db")
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "debug")
	cmd.Env = append(cmd.Env, secretEnv(data)...)
	log := &logBuffer{}
	cmd.Stderr = log
	cs := connectServe(t, cmd)
	card := discoverAction(t, cs, "report the environment variable names of the demo server", "helpdesk", "demo_env")
	echo := resultText(runAction(t, cs, card["actionId"].(string), map[string]any{"name": "API_TOKEN"}))
	if !strings.Contains(echo, output.Redacted) || strings.Contains(echo, key) {
		t.Fatalf("the server's echo of the secret reached the model as %q", echo)
	}
	if !strings.Contains(echo, "set: true") {
		t.Fatalf("demo_env's answer: %q", echo)
	}
	cs.Close()
	if strings.Contains(log.String(), key) {
		t.Fatal("serve's debug log holds the key")
	}

	list := capbridgeCmd("secret", "list")
	list.Env = append(list.Env, secretEnv(data)...)
	out, err = list.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "helpdesk-key") || strings.Contains(string(out), key) {
		t.Fatalf("secret list: %v\n%s", err, out)
	}
	rm := capbridgeCmd("secret", "rm", "helpdesk-kee")
	rm.Env = append(rm.Env, secretEnv(data)...)
	if out, err := rm.CombinedOutput(); err == nil || !strings.Contains(string(out), `"helpdesk-key"`) {
		t.Fatalf("secret rm of a misspelt name: %v\n%s (want a failure suggesting the name)", err, out)
	}
	rm = capbridgeCmd("secret", "rm", "helpdesk-key")
	rm.Env = append(rm.Env, secretEnv(data)...)
	if out, err := rm.CombinedOutput(); err != nil {
		t.Fatalf("secret rm: %v\n%s", err, out)
	}
	raw, _ := os.ReadFile(file)
	var left struct{ Secrets map[string]string }
	if err := json.Unmarshal(raw, &left); err != nil || len(left.Secrets) != 0 {
		t.Fatalf("after rm the file holds %s (%v)", raw, err)
	}

	// An empty value keeps nothing.
	set = capbridgeCmd("secret", "set", "empty")
	set.Env = append(set.Env, secretEnv(data)...)
	set.Stdin = strings.NewReader("")
	if out, err := set.CombinedOutput(); err == nil || !strings.Contains(string(out), "empty") {
		t.Fatalf("secret set with no input: %v\n%s", err, out)
	}
}

// TestSecretStoreFallsBack runs `secret set` with the store left to choose
// (no CAPBRIDGE_SECRETS) on a Linux box with no session bus, like CI: the
// keychain probe must give up and the private file be used, not hang.
func TestSecretStoreFallsBack(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		t.Skip("a session bus may answer here: the test would write to the user's keychain")
	}
	data := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "secret", "set", "probe-test")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CAPBRIDGE_SECRETS=") && !strings.HasPrefix(kv, "XDG_DATA_HOME=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, asCapbridge+"=1", "XDG_DATA_HOME="+data)
	cmd.Stdin = strings.NewReader("value-0123456789")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "private file") {
		t.Fatalf("secret set with no keychain: %v\n%s", err, out)
	}
	fi, err := os.Stat(filepath.Join(data, "capbridge", "secrets", "secrets.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the fallback file: %v %v", fi, err)
	}
}
