package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportMovesSecrets imports a client config holding an API key in a
// server's env and a bearer token in another's headers: without
// --move-secrets import offers the move and copies them as they are; with
// it the values go to the secret store and the config names them as
// ${secret:NAME}, which load back to the same values.
func TestImportMovesSecrets(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	src := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	client := `{"mcpServers": {
  "linear": {"command": "npx", "args": ["-y", "linear-mcp"], "env": {"LINEAR_API_KEY": "lin_api_abcdef0123456789", "LOG_LEVEL": "debug-verbose"}},
  "notes": {"url": "https://notes.example.com/mcp", "headers": {"Authorization": "Bearer nt_0123456789abcdef"}}
}}`
	if err := os.WriteFile(src, []byte(client), 0o600); err != nil {
		t.Fatal(err)
	}
	importInto := func(cfg string, extra ...string) string {
		cmd := capbridgeCmd(append([]string{"import", src, "--config", cfg}, extra...)...)
		cmd.Env = append(cmd.Env, secretEnv(data)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("import %v: %v\n%s", extra, err, out)
		}
		return string(out)
	}

	plain := filepath.Join(t.TempDir(), "config.json")
	out := importInto(plain)
	if !strings.Contains(out, "LINEAR_API_KEY (linear.env)") || !strings.Contains(out, "--move-secrets") || strings.Contains(out, "LOG_LEVEL") {
		t.Fatalf("import without --move-secrets does not offer the move:\n%s", out)
	}
	if raw, _ := os.ReadFile(plain); !strings.Contains(string(raw), "lin_api_abcdef0123456789") {
		t.Fatalf("without --move-secrets the value should be copied as it is:\n%s", raw)
	}

	moved := filepath.Join(t.TempDir(), "config.json")
	out = importInto(moved, "--move-secrets")
	raw, _ := os.ReadFile(moved)
	for _, v := range []string{"lin_api_abcdef0123456789", "nt_0123456789abcdef"} {
		if strings.Contains(string(raw), v) || strings.Contains(out, v) {
			t.Fatalf("the value %s is still in the config or the output:\n%s\n%s", v, raw, out)
		}
	}
	for _, ref := range []string{`"${secret:linear-linear_api_key}"`, `"Bearer ${secret:notes-authorization}"`, `"debug-verbose"`} {
		if !strings.Contains(string(raw), ref) {
			t.Fatalf("the config lacks %s:\n%s", ref, raw)
		}
	}
	cmd := capbridgeCmd("secret", "list")
	cmd.Env = append(cmd.Env, secretEnv(data)...)
	list, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(list), "linear-linear_api_key") || !strings.Contains(string(list), "notes-authorization") {
		t.Fatalf("secret list after the move: %v\n%s", err, list)
	}
}
