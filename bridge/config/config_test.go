package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLoadConfigFull(t *testing.T) {
	t.Setenv("CAPBRIDGE_TEST_K", "k-value")
	t.Setenv("CAPBRIDGE_TEST_TOKEN", "s3cret-token")
	cfg, err := Load(filepath.Join("testdata", "config", "full.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.Enabled(), []string{"files", "gh", "old", "remote"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Enabled() = %v, want %v", got, want)
	}
	files := cfg.Servers["files"]
	if files.Type != TypeStdio || files.Command != "npx" || files.Cwd != "/some/dir" || files.Env["K"] != "k-value" ||
		!reflect.DeepEqual(files.Args, []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}) {
		t.Errorf("files = %+v", files)
	}
	remote := cfg.Servers["remote"]
	if remote.Type != TypeHTTP || remote.URL != "http://127.0.0.1:8080/mcp" || remote.Headers["Authorization"] != "Bearer s3cret-token" {
		t.Errorf("remote = %+v", remote)
	}
	if cfg.Servers["old"].Type != TypeSSE {
		t.Errorf("old.Type = %q, want sse", cfg.Servers["old"].Type)
	}
	if !cfg.Servers["off"].Disabled {
		t.Error("off is not disabled")
	}
	wantBridge := Bridge{
		CallTimeout: 30 * time.Second, IdleShutdown: 5 * time.Minute, DiscoveryWait: 3 * time.Second, StartTimeout: 90 * time.Second, LogFile: "/tmp/capbridge.log",
		Embeddings: &Embeddings{URL: "http://127.0.0.1:11434/v1", Model: "nomic-embed-text", APIKeyEnv: "OPENAI_API_KEY", Timeout: 1500 * time.Millisecond},
		HTTP:       HTTP{SessionIdle: DefaultSessionIdle, MaxSessions: DefaultMaxSessions},
		Pinning:    PinningStrict, Suspicious: SuspiciousStrip, Results: ResultsStrip, NoLearning: true,
	}
	if !reflect.DeepEqual(cfg.Bridge, wantBridge) {
		t.Errorf("Bridge = %+v, want %+v", cfg.Bridge, wantBridge)
	}
	out := cfg.Output["gh/list_issues"]
	if out.Strip == nil || !*out.Strip || out.MaxTokens != 1500 || len(out.Fields) != 3 {
		t.Errorf("Output = %+v", out)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("Warnings = %v", cfg.Warnings)
	}
}

func TestLoadConfigClientFormats(t *testing.T) {
	t.Setenv("CAPBRIDGE_TEST_GH_TOKEN", "ghp_planted")
	t.Setenv("CAPBRIDGE_TEST_TOKEN", "tok_planted")
	t.Setenv("CAPBRIDGE_TEST_DIR", "")
	claude, err := Load(filepath.Join("testdata", "config", "claude_desktop.json"))
	if err != nil {
		t.Fatal(err)
	}
	if gh := claude.Servers["github"]; gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "ghp_planted" || gh.Type != TypeStdio {
		t.Errorf("github = %+v", gh)
	}
	vscode, err := Load(filepath.Join("testdata", "config", "vscode_mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := vscode.Enabled(); !reflect.DeepEqual(got, []string{"legacy", "local", "remote"}) {
		t.Errorf("VS Code servers = %v", got)
	}
	if local := vscode.Servers["local"]; local.Cwd != "/srv" {
		t.Errorf("${VAR:-default} with VAR empty: cwd = %q, want /srv", local.Cwd)
	}
}

func TestLoadConfigDefaults(t *testing.T) {
	cfg, err := Parse([]byte(`{"mcpServers": {"a": {"command": "x"}, "b": {"url": "http://h/mcp"}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	want := Bridge{CallTimeout: DefaultCallTimeout, IdleShutdown: DefaultIdleShutdown, DiscoveryWait: DefaultDiscoveryWait, StartTimeout: DefaultStartTimeout,
		HTTP: HTTP{SessionIdle: DefaultSessionIdle, MaxSessions: DefaultMaxSessions}, Pinning: PinningRisk, Suspicious: SuspiciousHold,
		Results: ResultsWarn}
	if !reflect.DeepEqual(cfg.Bridge, want) {
		t.Errorf("Bridge = %+v, want %+v", cfg.Bridge, want)
	}
	if cfg.Servers["a"].Type != TypeStdio || cfg.Servers["b"].Type != TypeHTTP {
		t.Errorf("types: a %q, b %q", cfg.Servers["a"].Type, cfg.Servers["b"].Type)
	}
	cfg, err = Parse([]byte(`{"bridge": {"embeddings": {"url": "http://e/v1"}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Bridge.Embeddings.Timeout != DefaultEmbeddingsTimeout || len(cfg.Servers) != 0 {
		t.Errorf("embeddings = %+v, servers %v", cfg.Bridge.Embeddings, cfg.Servers)
	}
}

// TestLoadConfigErrors: a mistake in the file as a whole (its syntax, the
// bridge section) is an error naming where it is; a mistake in one server
// entry leaves that entry out, in Invalid and among the warnings with the
// same explanation, and the file's other servers load.
func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		entry string   // the server entry left out, or "" for an error of the whole file
		want  []string // substrings of the error
	}{
		{"syntax", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}\n", "", []string{"c.json", "line 3, column 26"}},
		{"type", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\", \"args\": \"not-a-list\"}\n  }\n}\n", "a", []string{`server "a"`, "line 3, column 46", `"mcpServers.a.args" must be a list of strings, not string`}},
		{"nested type", "{\"servers\": {\"ok\": {\"command\": \"y\"},\n \"t\": {\"command\": \"x\", \"tools\": {\"deny\": \"*\"}}}}", "t", []string{"line 2, column 44", `"servers.t.tools.deny" must be a list of strings`}},
		{"truncated", "{\n  \"mcpServers\": {", "", []string{"c.json", "line 2"}},
		{"neither", `{"mcpServers": {"lonely": {"args": ["x"]}}}`, "lonely", []string{`server "lonely"`, `"command"`, `"url"`}},
		{"misspelt", `{"mcpServers": {"fs": {"comand": "npx", "args": ["x"]}}}`, "fs", []string{`server "fs": unknown key "comand" (did you mean "command"?); needs "command"`}},
		{"both", `{"mcpServers": {"twice": {"command": "x", "url": "http://h"}}}`, "twice", []string{`server "twice"`, "both"}},
		{"stdio without command", `{"mcpServers": {"s": {"type": "stdio", "url": "http://h"}}}`, "s", []string{`server "s"`, `"stdio" needs "command"`}},
		{"http without url", `{"mcpServers": {"s": {"type": "http", "command": "x"}}}`, "s", []string{`server "s"`, `needs "url"`}},
		{"unknown type", `{"mcpServers": {"s": {"type": "carrier-pigeon", "command": "x"}}}`, "s", []string{`server "s"`, "carrier-pigeon"}},
		{"not an object", `{"mcpServers": {"s": "npx server"}}`, "s", []string{`server "s"`, `"mcpServers.s" must be an object, not string`}},
		{"bad duration", `{"bridge": {"callTimeout": "soon"}}`, "", []string{"bridge.callTimeout", `"soon"`}},
		{"negative duration", `{"bridge": {"idleShutdown": "-1m"}}`, "", []string{"bridge.idleShutdown", "positive"}},
		{"bad embeddings timeout", `{"bridge": {"embeddings": {"url": "http://e", "timeout": "2"}}}`, "", []string{"bridge.embeddings.timeout"}},
		{"embeddings without url", `{"bridge": {"embeddings": {"model": "m"}}}`, "", []string{"bridge.embeddings", `"url"`}},
		{"unknown pinning", `{"bridge": {"pinning": "lax"}}`, "", []string{"bridge.pinning", `"lax"`, "strict"}},
		{"unknown suspicious", `{"bridge": {"suspicious": "ignore"}}`, "", []string{"bridge.suspicious", `"ignore"`, "strip"}},
		{"unknown results", `{"bridge": {"results": "wran"}}`, "", []string{"bridge.results", `"wran"`, `"strip"`, `did you mean "warn"?`}},
		{"bad glob", `{"mcpServers": {"g": {"command": "x", "tools": {"deny": ["[a-"]}}}}`, "g", []string{`server "g"`, "[a-"}},
		{"both maps", `{"mcpServers": {}, "servers": {}}`, "", []string{"mcpServers", "servers"}},
		{"negative maxTokens", `{"output": {"a/b": {"maxTokens": -1}}}`, "", []string{`"a/b"`, "maxTokens"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tt.data), "c.json")
			if tt.entry == "" {
				if err == nil {
					t.Fatal("no error")
				}
			} else {
				if err != nil {
					t.Fatalf("one bad entry failed the whole file: %v", err)
				}
				bad := cfg.Invalid[tt.entry]
				if bad == nil {
					t.Fatalf("entry %q not in Invalid: %+v", tt.entry, cfg)
				}
				if _, ok := cfg.Servers[tt.entry]; ok {
					t.Errorf("entry %q is both invalid and served", tt.entry)
				}
				err = bad
				if !slices.ContainsFunc(cfg.Warnings, func(w string) bool { return strings.Contains(w, bad.Reason()) }) {
					t.Errorf("warnings %q do not explain %q", cfg.Warnings, bad.Reason())
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestOneBadEntryAmongGood: the good entries of a file with a bad one load
// as they would alone; the bad one's unknown keys are told with it, not
// twice.
func TestOneBadEntryAmongGood(t *testing.T) {
	data := `{"mcpServers": {
		"fs": {"comand": "npx", "args": ["-y", "server-filesystem"]},
		"git": {"command": "uvx", "args": ["mcp-server-git"], "envv": {}},
		"web": {"url": "http://127.0.0.1:1/mcp"}}}`
	cfg, err := Parse([]byte(data), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Enabled(); !slices.Equal(got, []string{"git", "web"}) {
		t.Errorf("Enabled = %q, want git and web", got)
	}
	alone, err := Parse([]byte(`{"mcpServers": {"git": {"command": "uvx", "args": ["mcp-server-git"]}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Servers["git"].Fingerprint() != alone.Servers["git"].Fingerprint() {
		t.Error("git loads differently beside a bad entry")
	}
	want := []string{
		`mcpServers.git: unknown key "envv" ignored (did you mean "env"?)`,
		`server "fs" left out: unknown key "comand" (did you mean "command"?); needs "command" (a local server) or "url" (a remote one)`,
	}
	if !slices.Equal(cfg.Warnings, want) {
		t.Errorf("warnings:\n%q\nwant\n%q", cfg.Warnings, want)
	}
}

func TestLoadConfigFileErrors(t *testing.T) {
	_, err := Load(filepath.Join("testdata", "config", "syntax_error.json"))
	if err == nil || !strings.Contains(err.Error(), "syntax_error.json") || !strings.Contains(err.Error(), "line 3, column 26") {
		t.Errorf("syntax error = %v", err)
	}
	missing := filepath.Join(t.TempDir(), "nope.json")
	_, err = Load(missing)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v, want ErrNotFound naming %s", err, missing)
	}
}

func TestConfigDisabledServerNeedsNoTransport(t *testing.T) {
	cfg, err := Parse([]byte(`{"mcpServers": {"half": {"disabled": true}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Servers["half"].Disabled || len(cfg.Enabled()) != 0 {
		t.Errorf("servers = %+v", cfg.Servers)
	}
}

func TestConfigExpansion(t *testing.T) {
	t.Setenv("CAPBRIDGE_TEST_HOST", "h.example")
	t.Setenv("CAPBRIDGE_TEST_EMPTY", "")
	os.Unsetenv("CAPBRIDGE_TEST_UNSET")
	tests := []struct {
		in, want string
		warn     bool
	}{
		{"plain", "plain", false},
		{"${CAPBRIDGE_TEST_HOST}", "h.example", false},
		{"https://${CAPBRIDGE_TEST_HOST}/mcp?x=${CAPBRIDGE_TEST_HOST}", "https://h.example/mcp?x=h.example", false},
		{"^a$b$", "^a$b$", false}, // only ${...} expands
		{"$CAPBRIDGE_TEST_HOST", "$CAPBRIDGE_TEST_HOST", false},
		{"${CAPBRIDGE_TEST_UNSET}", "", true},
		{"${CAPBRIDGE_TEST_UNSET:-fallback}", "fallback", false},
		{"${CAPBRIDGE_TEST_EMPTY:-fallback}", "fallback", false},
		{"${CAPBRIDGE_TEST_EMPTY}", "", false},
		{"${unclosed", "${unclosed", false},
		{"${env:CAPBRIDGE_TEST_HOST}", "h.example", false},
		{"Bearer ${input:api-key}", "Bearer ", true},
	}
	for _, tt := range tests {
		var x expander
		if got := x.expand("s", "args", tt.in); got != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if (len(x.warnings) > 0) != tt.warn {
			t.Errorf("expand(%q) warnings = %v, want warning %v", tt.in, x.warnings, tt.warn)
		}
	}
}

func TestConfigWarningNamesVariableNotValue(t *testing.T) {
	os.Unsetenv("CAPBRIDGE_TEST_UNSET")
	cfg, err := Parse([]byte(`{"mcpServers": {"r": {"url": "http://h/mcp", "headers": {"Authorization": "Bearer ${CAPBRIDGE_TEST_UNSET}"}}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], `server "r"`) || !strings.Contains(cfg.Warnings[0], "CAPBRIDGE_TEST_UNSET") {
		t.Errorf("Warnings = %v", cfg.Warnings)
	}
}

// TestConfigUnknownKeys warns about every key capbridge does not read, at
// every level, with the nearest known key; keys the clients keep for
// themselves are no mistake.
func TestConfigUnknownKeys(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string // each in one warning
	}{
		{"top-level typo", `{"mcpServer": {"a": {"command": "x"}}}`, []string{`unknown key "mcpServer" ignored (did you mean "mcpServers"?)`}},
		{"server key typo", `{"mcpServers": {"a": {"comand": "x", "command": "x"}}}`, []string{`mcpServers.a: unknown key "comand" ignored (did you mean "command"?)`}},
		{"bridge key typo", `{"bridge": {"callTimeOut": "5s"}}`, []string{`bridge: unknown key "callTimeOut" ignored (did you mean "callTimeout"?)`}},
		{"embeddings key typo", `{"bridge": {"embeddings": {"url": "http://h/v1", "model": "m", "modle": "m"}}}`, []string{`bridge.embeddings: unknown key "modle" ignored (did you mean "model"?)`}},
		{"output key typo", `{"output": {"s/t": {"field": ["a"]}}}`, []string{`output.s/t: unknown key "field" ignored (did you mean "fields"?)`}},
		{"nothing near", `{"zzzzzzzzzz": 1}`, []string{`unknown key "zzzzzzzzzz" ignored`}},
		{"client keys", `{"servers": {}, "inputs": []}`, nil},
		{"all known", `{"mcpServers": {"a": {"command": "x", "args": [], "env": {}, "disabled": false}}, "bridge": {"callTimeout": "5s"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tt.file), "c.json")
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Warnings) != len(tt.want) {
				t.Fatalf("Warnings = %q, want %d", cfg.Warnings, len(tt.want))
			}
			for i, w := range tt.want {
				if cfg.Warnings[i] != w {
					t.Errorf("warning %d = %q, want %q", i, cfg.Warnings[i], w)
				}
			}
		})
	}
}

func TestServerConfigAllows(t *testing.T) {
	s := Server{Tools: ToolFilter{Allow: []string{"get_*", "list_*"}, Deny: []string{"get_secret*", "delete_*"}}}
	tests := []struct {
		tool string
		want bool
	}{
		{"get_issue", true},
		{"list_repos", true},
		{"get_secret_key", false}, // deny wins
		{"delete_repo", false},
		{"create_issue", false},   // not allowed
		{"get_\u00adissue", true}, // globs match the name a card shows
	}
	for _, tt := range tests {
		if got := s.Allows(tt.tool); got != tt.want {
			t.Errorf("Allows(%q) = %v, want %v", tt.tool, got, tt.want)
		}
	}
	open := Server{Tools: ToolFilter{Deny: []string{"rm", "delete_*"}}}
	if !open.Allows("anything") || open.Allows("rm") {
		t.Error("empty allow list should allow all but the denied")
	}
	// Invisible characters, look-alike letters and case do not slip a
	// denied name past its deny.
	for _, name := range []string{"delete\u200b_all", "delete_\u2060all\u200e", "r\ufe0fm", "\u202erm",
		"d\u0435lete_all", "\uff44elete_all", "DELETE_ALL"} { // Cyrillic е, fullwidth ｄ, upper case
		if open.Allows(name) {
			t.Errorf("Allows(%q) = true, want the deny of its plain name to hold", name)
		}
	}
}

func TestServerConfigFingerprint(t *testing.T) {
	load := func(t *testing.T, doc string) Server {
		t.Helper()
		cfg, err := Parse([]byte(doc), "c.json")
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Servers["s"]
	}
	t.Setenv("CAPBRIDGE_TEST_TOKEN", "first-secret")
	base := load(t, `{"mcpServers": {"s": {"command": "srv", "args": ["--token", "${CAPBRIDGE_TEST_TOKEN}"], "env": {"K": "v1"}}}}`)
	if len(base.Fingerprint()) != 32 {
		t.Fatalf("Fingerprint() = %q", base.Fingerprint())
	}
	same := []string{
		`{"mcpServers": {"s": {"command": "srv", "args": ["--token", "${CAPBRIDGE_TEST_TOKEN}"], "env": {"K": "another"}}}}`,
		`{"mcpServers": {"s": {"command": "srv", "args": ["--token", "${CAPBRIDGE_TEST_TOKEN}"], "disabled": false}}}`,
	}
	for _, doc := range same {
		if got := load(t, doc).Fingerprint(); got != base.Fingerprint() {
			t.Errorf("env or flags changed the fingerprint: %s", doc)
		}
	}
	t.Setenv("CAPBRIDGE_TEST_TOKEN", "rotated-secret")
	if got := load(t, `{"mcpServers": {"s": {"command": "srv", "args": ["--token", "${CAPBRIDGE_TEST_TOKEN}"], "env": {"K": "v1"}}}}`).Fingerprint(); got != base.Fingerprint() {
		t.Error("a rotated ${VAR} value changed the fingerprint")
	}
	different := []string{
		`{"mcpServers": {"s": {"command": "srv2", "args": ["--token", "${CAPBRIDGE_TEST_TOKEN}"]}}}`,
		`{"mcpServers": {"s": {"command": "srv", "args": ["--token", "${OTHER}"]}}}`,
		`{"mcpServers": {"s": {"command": "srv", "args": ["--token", "${CAPBRIDGE_TEST_TOKEN}"], "cwd": "/x"}}}`,
		`{"mcpServers": {"s": {"command": "srv", "args": ["--token", "${CAPBRIDGE_TEST_TOKEN}"], "tools": {"deny": ["x"]}}}}`,
	}
	for _, doc := range different {
		if got := load(t, doc).Fingerprint(); got == base.Fingerprint() {
			t.Errorf("fingerprint did not change for %s", doc)
		}
	}
	h1 := load(t, `{"mcpServers": {"s": {"url": "http://h/mcp", "headers": {"Authorization": "Bearer one"}}}}`)
	h2 := load(t, `{"mcpServers": {"s": {"url": "http://h/mcp", "headers": {"Authorization": "Bearer two"}}}}`)
	if h1.Fingerprint() != h2.Fingerprint() {
		t.Error("a header value changed the fingerprint")
	}
}

func TestConfigChangedAndWatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	// Each version is written whole and renamed into place: on a loaded
	// machine a poll every 10 ms can see a truncated file stand still for
	// two polls, which a watch of seconds in serve does not.
	write := func(doc string) {
		t.Helper()
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"mcpServers": {"a": {"command": "x"}}}`)
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Changed() {
		t.Fatal("Changed() right after loading")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got := make(chan *File, 4)
	errs := make(chan error, 4)
	done := make(chan error, 1)
	go func() {
		done <- Watch(ctx, cfg, 10*time.Millisecond, func(c *File, err error) {
			if err != nil {
				errs <- err
				return
			}
			got <- c
		})
	}()
	write(`{"mcpServers": {"a": {"command": "x"}, "b": {"command": "y"}}}`)
	if !cfg.Changed() {
		t.Error("Changed() = false after a rewrite")
	}
	select {
	case c := <-got:
		if len(c.Servers) != 2 {
			t.Errorf("reloaded servers = %v", c.Servers)
		}
	case <-ctx.Done():
		t.Fatal("no reload after the file changed")
	}
	write(`{"mcpServers": {`)
	select {
	case err := <-errs:
		if !strings.Contains(err.Error(), "line 1") {
			t.Errorf("reload error = %v", err)
		}
	case <-ctx.Done():
		t.Fatal("no error reported for a broken file")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Watch returned %v", err)
	}
}

// Changed reports whether the file c was loaded from has changed size or
// modification time since, or is gone. A File not loaded from a file never
// changes.
func (c *File) Changed() bool {
	if c.stamp == (fileStamp{}) {
		return false
	}
	now, err := stampOf(c.Path)
	return err != nil || now != c.stamp
}

// TestWatchIgnoresSameBytes: a file touched, or written again with the
// bytes last loaded, is no change; other bytes are.
func TestWatchIgnoresSameBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	data := []byte(`{"mcpServers": {"a": {"command": "x"}}}`)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got := make(chan *File, 4)
	go Watch(ctx, cfg, 10*time.Millisecond, func(c *File, err error) { got <- c })
	later := time.Now().Add(time.Second)
	os.Chtimes(path, later, later)
	time.Sleep(100 * time.Millisecond)
	os.WriteFile(path, data, 0o600)
	time.Sleep(100 * time.Millisecond)
	select {
	case c := <-got:
		t.Fatalf("a touch or the same bytes were reported as a change: %+v", c)
	default:
	}
	os.WriteFile(path, []byte(`{"mcpServers": {"b": {"command": "y"}}}`), 0o600)
	select {
	case c := <-got:
		if _, ok := c.Servers["b"]; !ok {
			t.Errorf("reloaded %v, want server b", c.Servers)
		}
	case <-ctx.Done():
		t.Fatal("other bytes were not reported")
	}
}
