package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// loginThroughBrowser runs `capbridge login NAME --no-browser` and plays
// the user's browser: it opens each address the command prints (following
// the authorization server's redirect to capbridge's loopback listener)
// until the command ends. It returns the command's output.
func loginThroughBrowser(t *testing.T, cfg, dataHome, name string) (string, error) {
	t.Helper()
	cmd := capbridgeCmd("login", name, "--no-browser", "--timeout", "60s", "--config", cfg)
	cmd.Env = append(cmd.Env, secretEnv(dataHome)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var printed strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		printed.WriteString(line + "\n")
		addr, ok := strings.CutPrefix(line, "  ")
		if !ok || !strings.HasPrefix(addr, "http://") {
			continue
		}
		resp, err := http.Get(addr)
		if err != nil {
			t.Errorf("the browser could not open %s: %v", addr, err)
			continue
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(page), "Signed in") {
			t.Errorf("the loopback page after sign-in says %q", page)
		}
	}
	err = cmd.Wait()
	return printed.String() + stdout.String(), err
}

// TestSignIn signs in to a remote server that asks for OAuth (a real
// authorization server and MCP server on loopback, a real capbridge), and
// follows the sign-in through its life: login with the browser step, a
// call, expiry and refresh, a step-up to more scopes, a revoked grant, and
// logout; and checks where the tokens were kept.
func TestSignIn(t *testing.T) {
	t.Parallel()
	// Tokens live 2 s: within EarlyRefresh, so capbridge refreshes before
	// each use once a session starts.
	as := newOAuthServer(t, 2*time.Second)
	data := t.TempDir()
	cfgData, _ := json.Marshal(map[string]any{
		"mcpServers": map[string]any{"notes": map[string]any{"url": as.resource()}},
		"bridge":     map[string]any{"discoveryWait": "60s", "callTimeout": "20s"},
	})
	cfg := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfg, cfgData, 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "catalog.db")
	run := func(args ...string) (string, error) {
		cmd := capbridgeCmd(append(args, "--config", cfg, "--db", db)...)
		cmd.Env = append(cmd.Env, secretEnv(data)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	// Before any sign-in, index names the command to run, not a raw 401.
	out, err := run("index")
	if err == nil || !strings.Contains(out, "not signed in: run capbridge login notes") || strings.Contains(out, "401") {
		t.Fatalf("index before login: %v\n%s", err, out)
	}

	out, err = loginThroughBrowser(t, cfg, data, "notes")
	if err != nil || !strings.Contains(out, `Signed in to "notes"`) {
		t.Fatalf("login: %v\n%s", err, out)
	}
	if got := as.lastScope(); got != "notes:read" {
		t.Errorf("the first authorization asked for scope %q, want the challenge's notes:read", got)
	}
	// The tokens are in the private file (no keychain here), never in the
	// config or the catalog.
	file := filepath.Join(data, "capbridge", "secrets", "secrets.json")
	kept, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var secrets struct{ Secrets map[string]string }
	if err := json.Unmarshal(kept, &secrets); err != nil {
		t.Fatal(err)
	}
	access := secrets.Secrets["signin:notes:access"]
	if !strings.HasPrefix(access, "at-") || !strings.HasPrefix(secrets.Secrets["signin:notes:refresh"], "rt-") {
		t.Fatalf("the kept sign-in: %s", kept)
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %o, want 600", file, fi.Mode().Perm())
		}
		if di, _ := os.Stat(filepath.Dir(file)); di.Mode().Perm() != 0o700 {
			t.Errorf("%s has mode %o, want 700", filepath.Dir(file), di.Mode().Perm())
		}
	}

	out, err = run("index")
	if err != nil {
		t.Fatalf("index after login: %v\n%s", err, out)
	}
	out, err = run("servers")
	if err != nil || !strings.Contains(out, "signed in") {
		t.Fatalf("servers: %v\n%s", err, out)
	}

	serveLog := &logBuffer{}
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--log-level", "debug")
	cmd.Env = append(cmd.Env, secretEnv(data)...)
	cmd.Stderr = serveLog
	cs := connectServe(t, cmd)

	// A call; the token expires within the refresh margin, so the session
	// refreshes it first, and the server sees a refreshed token.
	refreshesBefore := as.refreshes()
	read := discoverAction(t, cs, "read my saved notes", "notes", "read_notes")
	if got := resultText(runAction(t, cs, read["actionId"].(string), map[string]any{})); !strings.Contains(got, "note one") {
		t.Fatalf("read_notes answered %q\nserve log:\n%s", got, serveLog)
	}
	time.Sleep(2500 * time.Millisecond) // past the token's expiry
	if got := resultText(runAction(t, cs, read["actionId"].(string), map[string]any{})); !strings.Contains(got, "note one") {
		t.Fatalf("read_notes after the token expired answered %q\nserve log:\n%s", got, serveLog)
	}
	if as.refreshes() <= refreshesBefore {
		t.Errorf("no refresh grant reached the authorization server (%d before, %d after)", refreshesBefore, as.refreshes())
	}
	if slices.Contains(as.acceptedTokens()[len(as.acceptedTokens())-1:], access) {
		t.Error("the server still sees the token of the login, not a refreshed one")
	}

	// Step-up: write_note needs notes:write, which the sign-in lacks.
	write := discoverAction(t, cs, "save a new note", "notes", "write_note")
	res, _ := callBridge(t, cs, "run_capability", map[string]any{"actionId": write["actionId"], "params": map[string]any{"text": "hello"}})
	if got := resultText(res); !res.IsError || !strings.Contains(got, "capbridge login notes") || !strings.Contains(got, "notes:write") || strings.Contains(got, "403") {
		t.Fatalf("write_note without the scope answered %q", got)
	}
	out, err = loginThroughBrowser(t, cfg, data, "notes")
	if err != nil {
		t.Fatalf("login for the step-up: %v\n%s", err, out)
	}
	if got := strings.Fields(as.lastScope()); !slices.Contains(got, "notes:read") || !slices.Contains(got, "notes:write") {
		t.Errorf("the step-up login asked for scope %q, want notes:read and notes:write", got)
	}
	cs.Close()
	cs = connectServe(t, capbridgeCmdEnv(t, secretEnv(data), "serve", "--config", cfg, "--db", db, "--log-level", "warn"))
	write = discoverAction(t, cs, "save a new note", "notes", "write_note")
	if got := resultText(runAction(t, cs, write["actionId"].(string), map[string]any{"text": "hello"})); !strings.Contains(got, "saved") {
		t.Fatalf("write_note after the step-up answered %q", got)
	}

	// The user revokes the grant at the provider: the token is refused,
	// the refresh is refused, and the model reads the command to run.
	as.revokeAll()
	read = discoverAction(t, cs, "read my saved notes", "notes", "read_notes")
	res, _ = callBridge(t, cs, "run_capability", map[string]any{"actionId": read["actionId"], "params": map[string]any{}})
	if got := resultText(res); !res.IsError || !strings.Contains(got, "could not be refreshed") || !strings.Contains(got, "capbridge login notes") {
		t.Fatalf("read_notes after the grant was revoked answered %q", got)
	}
	cs.Close()
	out, _ = run("servers")
	if !strings.Contains(out, "invalid_grant") {
		t.Errorf("servers does not say why the refresh failed:\n%s", out)
	}

	logout := capbridgeCmd("logout", "notes")
	logout.Env = append(logout.Env, secretEnv(data)...)
	outb, err := logout.CombinedOutput()
	out = string(outb)
	if err != nil || !strings.Contains(out, `Signed out of "notes"`) {
		t.Fatalf("logout: %v\n%s", err, out)
	}
	kept, _ = os.ReadFile(file)
	if strings.Contains(string(kept), "signin:notes") {
		t.Fatalf("after logout the file still holds: %s", kept)
	}
	out, err = run("index")
	if err == nil || !strings.Contains(out, "not signed in: run capbridge login notes") {
		t.Fatalf("index after logout: %v\n%s", err, out)
	}
	for _, text := range []string{serveLog.String()} {
		for name, v := range secrets.Secrets {
			if strings.Contains(text, v) {
				t.Errorf("serve's debug log holds %s", name)
			}
		}
	}
}

// capbridgeCmdEnv is capbridgeCmd with extra environment and stderr to the
// test log.
func capbridgeCmdEnv(t *testing.T, env []string, args ...string) *exec.Cmd {
	cmd := capbridgeCmd(args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = testWriter{t}
	return cmd
}
