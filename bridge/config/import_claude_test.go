package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReadLocalScope reads one project's servers out of a real
// ~/.claude.json, keyed by the project's absolute path.
func TestReadLocalScope(t *testing.T) {
	servers := `{"git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"], "env": {}},
		"web": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"events": {"type": "sse", "url": "https://mcp.example.com/sse"},
		"bad": 42}`
	tests := []struct {
		name string
		// file is ~/.claude.json; @PROJECT@ is the project's path as a JSON
		// string, @PARENT@ its parent's.
		file  string
		names []string
		// errHas, when set, must be in the error, which wraps ErrNotServerMap
		// unless it is a syntax error (line > 0).
		errHas string
		line   int
	}{
		{name: "entry with servers", file: `{"mcpServers": {"user": {"command": "u"}}, "projects": {"/elsewhere": {"mcpServers": {"x": {"command": "x"}}}, @PROJECT@: {"allowedTools": [], "mcpServers": ` + servers + `}}}`,
			names: []string{"git", "web", "events", "bad"}},
		{name: "no projects", file: `{"mcpServers": {"user": {"command": "u"}}}`},
		{name: "projects null", file: `{"projects": null}`},
		{name: "no entry for this directory", file: `{"projects": {"/elsewhere": {"mcpServers": {"x": {"command": "x"}}}}}`},
		{name: "a parent's entry is not this directory's", file: `{"projects": {@PARENT@: {"mcpServers": {"x": {"command": "x"}}}}}`},
		{name: "entry without servers", file: `{"projects": {@PROJECT@: {"allowedTools": [], "hasTrustDialogAccepted": true}}}`},
		{name: "servers null", file: `{"projects": {@PROJECT@: {"mcpServers": null}}}`},
		{name: "another project's entry is broken", file: `{"projects": {"/elsewhere": 5, @PROJECT@: {"mcpServers": {"git": {"command": "uvx"}}}}}`, names: []string{"git"}},
		{name: "projects is an array", file: `{"projects": [1]}`, errHas: `"projects" is an array, not a JSON object`},
		{name: "entry is a string", file: `{"projects": {@PROJECT@: "x"}}`, errHas: `"projects" > @PROJECT@ is a string, not a JSON object`},
		{name: "servers is a number", file: `{"projects": {@PROJECT@: {"mcpServers": 3}}}`, errHas: `"projects" > @PROJECT@ > "mcpServers" is a number, not a JSON object`},
		{name: "malformed JSON", file: "{\n  \"projects\": {,\n}", line: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			project := filepath.Join(dir, "work", "project")
			path := filepath.Join(dir, ".claude.json")
			quote := strings.NewReplacer("@PROJECT@", strconv.Quote(project), "@PARENT@", strconv.Quote(filepath.Dir(project)))
			content := quote.Replace(tt.file)
			writeTestFile(t, path, content)

			d, err := ReadClientSource(ClientSource{Path: path, Scope: ScopeLocal, Project: project})
			switch {
			case tt.line > 0:
				var fe *JSONFileError
				if !errors.As(err, &fe) || fe.Line != tt.line {
					t.Fatalf("error = %v, want a *JSONFileError at line %d", err, tt.line)
				}
				return
			case tt.errHas != "":
				want := quote.Replace(tt.errHas)
				if !errors.Is(err, ErrNotServerMap) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
					t.Fatalf("error = %v, want one wrapping ErrNotServerMap, naming %s and saying %s", err, path, want)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			checkNames(t, "servers", d.ServerNames(), tt.names)
			if d.Scope != ScopeLocal {
				t.Errorf("scope = %q, want %q", d.Scope, ScopeLocal)
			}
			if got := readTestFile(t, path); got != content {
				t.Errorf("reading changed the file:\n%s", got)
			}
		})
	}
}

// TestReadLocalScopeThroughSymlink finds the entry Claude Code filed under
// the resolved path when the directory is reached through a symlink, as a
// shell's $PWD (and so os.Getwd) may be.
func TestReadLocalScopeThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	resolved, err := filepath.EvalSymlinks(link)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".claude.json")
	writeTestFile(t, path, fmt.Sprintf(`{"projects": {%q: {"mcpServers": {"git": {"command": "uvx"}}}}}`, resolved))
	d, err := ReadClientSource(ClientSource{Path: path, Scope: ScopeLocal, Project: link})
	if err != nil {
		t.Fatal(err)
	}
	checkNames(t, "servers", d.ServerNames(), []string{"git"})
	if d.Project != resolved {
		t.Errorf("project = %q, want the key it was found under, %q", d.Project, resolved)
	}
}

// TestClaudeCodePrecedence imports Claude Code's three scopes from real
// files: a name defined in several is taken whole from the local scope,
// then the project's, then the user's, and the others are reported.
func TestClaudeCodePrecedence(t *testing.T) {
	root := t.TempDir()
	dirs := ClientDirs{Home: filepath.Join(root, "home"), WorkDir: filepath.Join(root, "work")}
	writeTestFile(t, filepath.Join(dirs.Home, ".claude.json"), fmt.Sprintf(`{
  "numStartups": 3,
  "mcpServers": {
    "db":     {"command": "user-db"},
    "files":  {"command": "user-files"},
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    "bad":    {"command": "user-bad"}
  },
  "projects": {
    %q: {"mcpServers": {
      "db":  {"command": "local-db", "env": {"DB_PASSWORD": "secret-value"}},
      "bad": 42,
      "web": {"type": "http", "url": "https://mcp.example.com/mcp"}
    }}
  }
}`, dirs.WorkDir))
	writeTestFile(t, filepath.Join(dirs.WorkDir, ".mcp.json"), `{"mcpServers": {
  "db":    {"command": "project-db", "args": ["--shared"]},
  "files": {"command": "project-files"}
}}`)

	var docs []*Doc
	for _, src := range ClientSources(ClientClaudeCode, dirs) {
		d, err := ReadClientSource(src)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	ApplyPrecedence(docs)
	dst := NewDoc(filepath.Join(root, "capbridge.json"))
	type want struct {
		scope          string
		added, invalid []string
		shadowed       []ShadowedServer
	}
	wants := []want{
		{scope: ScopeLocal, added: []string{"db", "web"}, invalid: []string{"bad"}},
		{scope: ScopeProject, added: []string{"files"}, shadowed: []ShadowedServer{{"db", ScopeLocal}}},
		{scope: ScopeUser, added: []string{"memory"}, shadowed: []ShadowedServer{{"db", ScopeLocal}, {"files", ScopeProject}, {"bad", ScopeLocal}}},
	}
	if len(docs) != len(wants) {
		t.Fatalf("%d sources, want %d", len(docs), len(wants))
	}
	for i, d := range docs {
		r := dst.Merge(d, "")
		w := wants[i]
		if d.Scope != w.scope {
			t.Errorf("source %d: scope %q, want %q", i, d.Scope, w.scope)
		}
		checkNames(t, w.scope+" added", r.Added, w.added)
		var invalid []string
		for _, inv := range r.Invalid {
			invalid = append(invalid, inv.Name)
		}
		checkNames(t, w.scope+" invalid", invalid, w.invalid)
		if fmt.Sprint(r.Shadowed) != fmt.Sprint(w.shadowed) {
			t.Errorf("%s shadowed = %v, want %v", w.scope, r.Shadowed, w.shadowed)
		}
		if len(r.Clashed) != 0 || len(r.Same) != 0 {
			t.Errorf("%s: clashed %q, same %q: a shadowed name must not count as a clash", w.scope, r.Clashed, r.Same)
		}
	}
	for name, cmd := range map[string]string{"db": "local-db", "files": "project-files", "memory": "npx"} {
		def, ok := dst.Server(name)
		var s struct{ Command string }
		if !ok || json.Unmarshal(def, &s) != nil || s.Command != cmd {
			t.Errorf("server %q = %s, want the definition with command %q", name, def, cmd)
		}
	}
	if def, _ := dst.Server("db"); !strings.Contains(string(def), "secret-value") || strings.Contains(string(def), "--shared") {
		t.Errorf("db = %s, want the local entry whole, env as written, no field from the project's", def)
	}
	if _, ok := dst.Server("bad"); ok {
		t.Error(`"bad" was imported from the user scope, but Claude Code uses the local entry`)
	}

	// Importing again finds every server the same, and still reports shadows.
	for i, d := range docs {
		r := dst.Merge(d, "")
		if len(r.Added) != 0 || len(r.Clashed) != 0 || len(r.Shadowed) != len(wants[i].shadowed) {
			t.Errorf("second merge of %s: %+v", d.Scope, r)
		}
	}
}

// TestApplyPrecedenceLeavesOtherClients checks that files without a scope
// (Cursor, VS Code, a named file) keep their servers: their clients' rules
// are not Claude Code's.
func TestApplyPrecedenceLeavesOtherClients(t *testing.T) {
	a, b := NewDoc("a"), NewDoc("b")
	for _, d := range []*Doc{a, b} {
		if err := d.AddServer("same", json.RawMessage(`{"command":"`+d.Path+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	ApplyPrecedence([]*Doc{a, b})
	checkNames(t, "b", b.ServerNames(), []string{"same"})
	if len(b.shadowed) != 0 {
		t.Errorf("shadowed = %v", b.shadowed)
	}
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
