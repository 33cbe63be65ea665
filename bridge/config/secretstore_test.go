package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func fileStore(t *testing.T) *SecretStore {
	t.Helper()
	s, err := NewSecretStore(filepath.Join(t.TempDir(), "secrets"), "file")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSecretFileKeepsValuesPrivate(t *testing.T) {
	s := fileStore(t)
	if _, err := s.Get("secret:missing"); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("Get of a missing name: %v, want ErrNoSecret", err)
	}
	if err := s.Set("secret:api", "sk-live-0123456789"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("signin:gh:access", "gho_abc"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Get("secret:api"); err != nil || v != "sk-live-0123456789" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(s.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("secrets file mode %o, want 600", got)
		}
		di, err := os.Stat(filepath.Dir(s.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := di.Mode().Perm(); got != 0o700 {
			t.Errorf("secrets folder mode %o, want 700", got)
		}
	}
	names, err := s.Names(UserSecretPrefix)
	if err != nil || !slices.Equal(names, []string{"secret:api"}) {
		t.Fatalf("Names(secret:) = %v, %v", names, err)
	}
	if err := s.Delete("secret:api"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("secret:api"); err != nil {
		t.Fatalf("deleting twice: %v", err)
	}
	if _, err := s.Get("secret:api"); !errors.Is(err, ErrNoSecret) {
		t.Fatalf("Get after Delete: %v", err)
	}
	if v, _ := s.Get("signin:gh:access"); v != "gho_abc" {
		t.Fatalf("a delete took another name with it: %q", v)
	}
}

func TestSecretFolderIsNarrowed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	s := fileStore(t)
	dir := filepath.Dir(s.file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("secret:x", "v"); err != nil {
		t.Fatal(err)
	}
	di, _ := os.Stat(dir)
	if got := di.Mode().Perm(); got != 0o700 {
		t.Errorf("folder mode %o after a write, want 700", got)
	}
}

func TestSecretFileDamaged(t *testing.T) {
	s := fileStore(t)
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.file, []byte("{not json sk-live-0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := s.Get("secret:x")
	if err == nil || strings.Contains(err.Error(), "sk-live") || !strings.Contains(err.Error(), s.file) {
		t.Fatalf("a damaged file: %v (want an error naming the file, not its text)", err)
	}
	if err := s.Set("secret:x", "v"); err == nil {
		t.Fatal("Set over a damaged file succeeded: it would lose what the file held")
	}
	data, _ := os.ReadFile(s.file)
	if !strings.Contains(string(data), "sk-live") {
		t.Fatal("the damaged file was overwritten")
	}
}

func TestSecretStoreMode(t *testing.T) {
	if _, err := NewSecretStore(t.TempDir(), "vault"); err == nil || !strings.Contains(err.Error(), EnvSecretStore) {
		t.Fatalf("an unknown mode: %v", err)
	}
	s, err := NewSecretStore(t.TempDir(), "FILE")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Where(), "private file") {
		t.Fatalf("Where = %q", s.Where())
	}
}

func TestSecretReferenceExpands(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv(EnvSecretStore, "file")
	s, err := OpenSecrets()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set(UserSecretPrefix+"linear", "lin_api_0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse([]byte(`{"mcpServers": {
		"a": {"command": "srv", "env": {"LINEAR_KEY": "${secret:linear}", "MISSING": "${secret:nope}"}},
		"b": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${secret:linear}"}}}}`), "test.json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := cfg.Servers["a"], cfg.Servers["b"]
	if a.Env["LINEAR_KEY"] != "lin_api_0123456789abcdef" || a.Env["MISSING"] != "" {
		t.Fatalf("env = %v", a.Env)
	}
	if b.Headers["Authorization"] != "Bearer lin_api_0123456789abcdef" {
		t.Fatalf("headers = %v", b.Headers)
	}
	if got := a.Redact("key lin_api_0123456789abcdef here"); strings.Contains(got, "lin_api") {
		t.Fatalf("the secret's value was not redacted: %q", got)
	}
	if a.Fingerprint() == "" || strings.Contains(a.Fingerprint(), "lin_api") {
		t.Fatal("fingerprint")
	}
	var warned bool
	for _, w := range cfg.Warnings {
		if strings.Contains(w, "${secret:nope}") && strings.Contains(w, "capbridge secret set nope") {
			warned = true
		}
		if strings.Contains(w, "lin_api") {
			t.Fatalf("a warning holds a value: %q", w)
		}
	}
	if !warned {
		t.Fatalf("no warning names the missing secret: %q", cfg.Warnings)
	}
}
