package cli

// Tests of the commands that edit the config: import, add and remove.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const claudeConfig = `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    "github": {"command": "github-mcp-server", "args": ["stdio"], "env": {"GITHUB_TOKEN": "ghp_plantedSecret123"}},
    "capbridge": {"command": "/usr/local/bin/capbridge", "args": ["serve"]}
  }
}
`

func TestImportClaude(t *testing.T) {
	s := newSandbox(t)
	claudePath := filepath.Join(s.config, "Claude", "claude_desktop_config.json")

	r := s.mustRun(1, "import", "claude")
	for _, want := range []string{claudePath, "capbridge import FILE"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("import without a Claude config: stderr lacks %q:\n%s", want, r.stderr)
		}
	}

	s.writeFile(claudePath, claudeConfig)
	r = s.mustRun(0, "import", "--dry-run", "claude")
	if _, err := os.Stat(s.configPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--dry-run wrote %s (%v)", s.configPath(), err)
	}

	r = s.mustRun(0, "import", "claude")
	for _, want := range []string{"added    memory", "added    github", "skipped  capbridge: it runs capbridge itself", "Wrote 2 server(s)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "ghp_plantedSecret123") {
		t.Error("import printed a secret env value")
	}
	if got := s.readFile(claudePath); got != claudeConfig {
		t.Errorf("import changed the client's file:\n%s", got)
	}
	fi, err := os.Stat(s.configPath())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("new config has mode %v, want 0600", fi.Mode().Perm())
	}
	var cfg struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(s.readFile(s.configPath())), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.MCPServers) != 2 || !strings.Contains(string(cfg.MCPServers["github"]), "ghp_plantedSecret123") {
		t.Errorf("config servers = %s, want memory and github with its env copied as written", cfg.MCPServers)
	}
	checkSnippet(t, r.stdout, "mcpServers", capbridgeBinary(t))

	r = s.mustRun(0, "import", "claude")
	if !strings.Contains(r.stdout, "same     memory") || !strings.Contains(r.stdout, "Nothing new") {
		t.Errorf("second import should find everything the same:\n%s", r.stdout)
	}

	s.writeFile(claudePath, strings.Replace(claudeConfig, `"stdio"`, `"stdio", "--read-only"`, 1))
	before := s.readFile(s.configPath())
	r = s.mustRun(0, "import", "claude")
	if !strings.Contains(r.stdout, "skipped  github: already configured with a different definition") {
		t.Errorf("a clash is not reported:\n%s", r.stdout)
	}
	if s.readFile(s.configPath()) != before {
		t.Error("a clash changed the config")
	}
}

// TestImportSameServerOtherClient imports the same server from Claude
// Desktop and then from VS Code, which restates the defaults ("type":
// "stdio", empty env): the second import finds it already configured, not
// a clash.
func TestImportSameServerOtherClient(t *testing.T) {
	s := newSandbox(t)
	s.writeFile(filepath.Join(s.wd, "claude.json"), `{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}`)
	s.writeFile(filepath.Join(s.wd, ".vscode", "mcp.json"), `{"servers": {"memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {}}}}`)
	s.mustRun(0, "import", "claude.json")
	r := s.mustRun(0, "import", "vscode")
	if strings.Contains(r.stdout+r.stderr, "different") || !strings.Contains(r.stdout, "memory") {
		t.Errorf("importing the same server from VS Code:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

// TestConfigTypoWarned runs index over a config whose servers key is
// misspelled: it says so, with the key it meant, instead of only finding no
// servers.
func TestConfigTypoWarned(t *testing.T) {
	s := newSandbox(t)
	s.writeFile(s.configPath(), `{"mcpServer": {"files": {"command": "x"}}}`)
	r := s.run("index")
	if !strings.Contains(r.stderr, `unknown key "mcpServer" ignored (did you mean "mcpServers"?)`) {
		t.Errorf("index over a misspelled mcpServers key (exit %d):\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

func TestImportVSCodeAndFile(t *testing.T) {
	s := newSandbox(t)
	s.writeFile(filepath.Join(s.wd, ".vscode", "mcp.json"), `{
  // project servers
  "inputs": [{"type": "promptString", "id": "key", "password": true}],
  "servers": {
    "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"]},
  }
}`)
	// A workspace server waits for the user's say (see e2e_import_trust_test.go).
	r := s.mustRun(0, "import", "vscode", "--include", "fetch")
	if !strings.Contains(r.stdout, "added    fetch") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	checkSnippet(t, r.stdout, "servers", capbridgeBinary(t))

	own := filepath.Join(s.wd, "own.json")
	s.writeFile(filepath.Join(s.wd, "other.json"), `{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}`)
	r = s.mustRun(0, "import", "--config", own, "other.json")
	if !strings.Contains(s.readFile(own), "mcp-server-time") {
		t.Errorf("import --config did not write %s", own)
	}
	snippet := checkSnippet(t, r.stdout, "mcpServers", capbridgeBinary(t))
	if want := []string{"serve", "--config", own}; !slices.Equal(snippet.Args, want) {
		t.Errorf("snippet args = %q, want %q: a client must start capbridge with the config it imported into", snippet.Args, want)
	}

	s.writeFile(filepath.Join(s.wd, "broken.json"), "{\n  \"mcpServers\": {\"memory\": nope}\n}")
	r = s.mustRun(1, "import", "broken.json")
	if !strings.Contains(r.stderr, "broken.json:2:") {
		t.Errorf("a malformed file should be named with its line: %s", r.stderr)
	}
}

// clientEntry is the server entry a client snippet holds.
type clientEntry struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// checkSnippet finds the client snippet at the end of import's output and
// checks that it starts this binary's serve, alone.
func checkSnippet(t *testing.T, stdout, key, binary string) clientEntry {
	t.Helper()
	i := strings.LastIndex(stdout, "\n{\n")
	if i < 0 {
		t.Fatalf("no snippet in:\n%s", stdout)
	}
	var snippet map[string]map[string]clientEntry
	if err := json.Unmarshal([]byte(stdout[i:]), &snippet); err != nil {
		t.Fatalf("snippet is not JSON: %v\n%s", err, stdout[i:])
	}
	servers, ok := snippet[key]
	if !ok || len(servers) != 1 {
		t.Fatalf("snippet = %v, want one server under %q", snippet, key)
	}
	entry := servers["capbridge"]
	want, _ := filepath.EvalSymlinks(binary)
	if entry.Command != want || len(entry.Args) == 0 || entry.Args[0] != "serve" {
		t.Errorf("snippet entry = %+v, want %s serve", entry, want)
	}
	if (key == "servers") != (entry.Type == "stdio") {
		t.Errorf("snippet type = %q under %q; VS Code needs \"stdio\", the others nothing", entry.Type, key)
	}
	return entry
}

func TestAddRemoveRoundTrip(t *testing.T) {
	s := newSandbox(t)
	original := `{
  "bridge": {"callTimeout": "30s", "somethingNew": [1, 2.50]},
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "futureKey": true}
  }
}
`
	s.writeFile(s.configPath(), original)
	if err := os.Chmod(s.configPath(), 0o600); err != nil {
		t.Fatal(err)
	}

	s.mustRun(0, "add", "files", "--env", "ROOT=${HOME}/notes", "--cwd", s.wd, "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "--flag-of-the-server")
	s.mustRun(0, "add", "--url", "http://127.0.0.1:8080/mcp", "--header", "Authorization: Bearer ${TOKEN}", "remote")
	s.mustRun(0, "add", "old", "--url", "http://127.0.0.1:9000/sse", "--sse")

	var cfg struct {
		Bridge     map[string]any            `json:"bridge"`
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(s.readFile(s.configPath())), &cfg); err != nil {
		t.Fatal(err)
	}
	files := cfg.MCPServers["files"]
	if files["command"] != "npx" || len(files["args"].([]any)) != 3 || files["cwd"] != s.wd ||
		files["env"].(map[string]any)["ROOT"] != "${HOME}/notes" {
		t.Errorf("files = %v", files)
	}
	if remote := cfg.MCPServers["remote"]; remote["url"] != "http://127.0.0.1:8080/mcp" ||
		remote["headers"].(map[string]any)["Authorization"] != "Bearer ${TOKEN}" {
		t.Errorf("remote = %v", remote)
	}
	if cfg.MCPServers["old"]["type"] != "sse" {
		t.Errorf("old = %v", cfg.MCPServers["old"])
	}
	if cfg.MCPServers["memory"]["futureKey"] != true || cfg.Bridge["somethingNew"] == nil {
		t.Errorf("unknown keys were lost: %+v", cfg)
	}

	r := s.mustRun(1, "add", "files", "--", "other")
	if !strings.Contains(r.stderr, "capbridge remove files") {
		t.Errorf("adding an existing name should suggest remove: %s", r.stderr)
	}
	r = s.mustRun(1, "remove", "flies")
	if !strings.Contains(r.stderr, `did you mean "files"?`) {
		t.Errorf("removing a misspelt name should suggest the nearest: %s", r.stderr)
	}

	for _, name := range []string{"files", "remote", "old"} {
		s.mustRun(0, "remove", name)
	}
	got := s.readFile(s.configPath())
	var a, b any
	if err := json.Unmarshal([]byte(got), &a); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(original), &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("add then remove did not give back the original config:\n%s\nwant:\n%s", got, original)
	}
	if fi, err := os.Stat(s.configPath()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("config mode after edits: %v (%v), want 0600", fi.Mode().Perm(), err)
	}
}

func TestAddMistakes(t *testing.T) {
	s := newSandbox(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"add"}, "needs a server NAME"},
		{[]string{"add", "x"}, "command after --"},
		{[]string{"add", "x", "--url", "ftp://host/x"}, "http:// or https://"},
		{[]string{"add", "x", "--url", "http://h/mcp", "--", "cmd"}, "not both"},
		{[]string{"add", "x", "--env", "NOEQUALS", "--", "cmd"}, "want K=V"},
		{[]string{"add", "x", "--header", "NoColon", "--url", "http://h/mcp"}, "'Name: value'"},
		{[]string{"add", "x", "--cwd", "/tmp", "--url", "http://h/mcp"}, "apply to a command"},
		{[]string{"add", "x/y", "--", "cmd"}, "server name"},
		{[]string{"add", "x", "npx", "-y", "pkg"}, "after --"},
		{[]string{"add", "loop", "--", "capbridge", "serve"}, "capbridge itself"},
	}
	for _, tt := range tests {
		r := s.mustRun(2, tt.args...)
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("capbridge %q: stderr lacks %q:\n%s", tt.args, tt.want, r.stderr)
		}
	}
	if _, err := os.Stat(s.configPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused add wrote the config (%v)", err)
	}
}

// TestConcurrentAddsAndRemovesKeepEveryEdit runs capbridge add and remove
// as many processes at once on one config file: each edit is kept (the
// config's directory lock serializes them), and the file stays valid.
func TestConcurrentAddsAndRemovesKeepEveryEdit(t *testing.T) {
	s := newSandbox(t)
	s.writeFile(s.configPath(), `{"mcpServers": {"gone-0": {"command": "x"}, "gone-1": {"command": "x"}, "gone-2": {"command": "x"}}}`)
	const adds = 8
	var runs [][]string
	for i := range adds {
		runs = append(runs, []string{"add", fmt.Sprintf("s%d", i), "--", "true"})
	}
	for i := range 3 {
		runs = append(runs, []string{"remove", fmt.Sprintf("gone-%d", i)})
	}
	codes := make([]int, len(runs))
	outs := make([]string, len(runs))
	var wg sync.WaitGroup
	for i, args := range runs {
		wg.Go(func() {
			cmd := exec.Command(capbridgeBinary(t), args...)
			cmd.Dir = s.wd
			cmd.Env = []string{"HOME=" + s.home, "XDG_CONFIG_HOME=" + s.config, "XDG_DATA_HOME=" + s.data, "PATH=" + os.Getenv("PATH")}
			out, err := cmd.CombinedOutput()
			outs[i] = string(out)
			if ee, ok := err.(*exec.ExitError); ok {
				codes[i] = ee.ExitCode()
			} else if err != nil {
				codes[i] = -1
				outs[i] += err.Error()
			}
		})
	}
	wg.Wait()
	for i := range runs {
		if codes[i] != 0 {
			t.Errorf("capbridge %q exited %d:\n%s", runs[i], codes[i], outs[i])
		}
	}
	var cfg struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(s.readFile(s.configPath())), &cfg); err != nil {
		t.Fatalf("config after concurrent edits: %v", err)
	}
	var names []string
	for name := range cfg.MCPServers {
		names = append(names, name)
	}
	slices.Sort(names)
	want := []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"}
	if !slices.Equal(names, want) {
		t.Errorf("servers after %d adds and 3 removes at once: %v, want %v", adds, names, want)
	}
}

// TestImportClaudeCode reads Claude Code's user-scope servers from
// ~/.claude.json (beside its other settings) and the project's .mcp.json;
// another project's local-scope servers stay out.
func TestImportClaudeCode(t *testing.T) {
	s := newSandbox(t)
	user := `{
  "numStartups": 12,
  "projects": {"/somewhere": {"allowedTools": [], "mcpServers": {}}},
  "mcpServers": {"memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {}}}
}
`
	project := `{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}
`
	userPath := filepath.Join(s.home, ".claude.json")
	projectPath := filepath.Join(s.wd, ".mcp.json")
	s.writeFile(userPath, user)
	s.writeFile(projectPath, project)
	// The user approved the project's servers in Claude Code.
	s.writeFile(filepath.Join(s.home, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`)

	r := s.mustRun(0, "import", "claude-code")
	for _, want := range []string{userPath, projectPath, "added    memory", "added    files", "Wrote 2 server(s)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if s.readFile(userPath) != user || s.readFile(projectPath) != project {
		t.Error("import changed a Claude Code file")
	}
	var cfg struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(s.readFile(s.configPath())), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.MCPServers) != 2 || cfg.MCPServers["memory"] == nil || cfg.MCPServers["files"] == nil {
		t.Errorf("config servers = %s, want memory and files", cfg.MCPServers)
	}
}

// TestImportClaudeCodeScopes imports Claude Code's local scope (this
// directory's entry under "projects" in ~/.claude.json) with its project and
// user scopes, taking a name defined in several from the first of local,
// project, user, and saying which scope each server came from.
func TestImportClaudeCodeScopes(t *testing.T) {
	const project = `{"mcpServers": {"db": {"command": "project-db"}, "files": {"command": "project-files"}}}`
	const userServers = `"mcpServers": {"db": {"command": "user-db"}, "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}`
	const local = `{"db": {"command": "local-db", "env": {"DB_PASSWORD": "ghp_plantedSecret123"}}, "bad": 42, "web": {"type": "http", "url": "https://mcp.example.com/mcp"}}`
	tests := []struct {
		name string
		// user is ~/.claude.json; @WD@ is this directory as a JSON string.
		user       string
		code       int
		stdout     []string
		stderr     []string
		commands   map[string]string // server -> command (or url) in the config written
		notWritten bool
	}{
		{
			name: "precedence local > project > user",
			user: `{"numStartups": 2, ` + userServers + `, "projects": {"/elsewhere": {"mcpServers": {"other": {"command": "x"}}}, @WD@: {"allowedTools": [], "mcpServers": ` + local + `}}}`,
			stdout: []string{
				"(local scope: \"projects\" > @WD@):\n  added    db\n  added    web\n  skipped  bad: ",
				"is a number, not a server definition",
				"(project scope):\n  added    files\n  skipped  db: Claude Code runs its local-scope definition instead\n",
				"(user scope):\n  added    memory\n  skipped  db: Claude Code runs its local-scope definition instead\n",
				"Wrote 4 server(s)",
			},
			commands: map[string]string{"db": "local-db", "web": "https://mcp.example.com/mcp", "files": "project-files", "memory": "npx"},
		},
		{
			name:     "no entry for this directory",
			user:     `{` + userServers + `, "projects": {"/elsewhere": {"mcpServers": {"other": {"command": "x"}}}}}`,
			stdout:   []string{"(project scope):\n  added    db\n  added    files\n", "(user scope):\n  added    memory\n  skipped  db: Claude Code runs its project-scope definition instead\n"},
			commands: map[string]string{"db": "project-db", "files": "project-files", "memory": "npx"},
		},
		{
			name:     "projects is not an object",
			user:     `{` + userServers + `, "projects": [@WD@]}`,
			stderr:   []string{"warning: ", `"projects" is an array, not a JSON object; importing the other scopes`},
			stdout:   []string{"(project scope):\n  added    db\n", "(user scope):\n  added    memory\n"},
			commands: map[string]string{"db": "project-db", "files": "project-files", "memory": "npx"},
		},
		{
			name:     "this directory's entry is not an object",
			user:     `{` + userServers + `, "projects": {@WD@: true}}`,
			stderr:   []string{`"projects" > @WD@ is a boolean, not a JSON object`},
			commands: map[string]string{"db": "project-db", "files": "project-files", "memory": "npx"},
		},
		{
			name:       "malformed file",
			user:       "{\n  \"projects\": {@WD@: {\"mcpServers\": {\"db\": nope}}}\n}",
			code:       1,
			stderr:     []string{".claude.json:2:"},
			notWritten: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t)
			// Claude Code files a project under the directory's real path,
			// which is what the binary's os.Getwd sees with no $PWD.
			wd, err := filepath.EvalSymlinks(s.wd)
			if err != nil {
				t.Fatal(err)
			}
			quote := strings.NewReplacer("@WD@", strconv.Quote(wd))
			userPath := filepath.Join(s.home, ".claude.json")
			user := quote.Replace(tt.user)
			s.writeFile(userPath, user)
			s.writeFile(filepath.Join(s.wd, ".mcp.json"), project)
			// The user approved the project's servers in Claude Code.
			s.writeFile(filepath.Join(s.home, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`)

			r := s.mustRun(tt.code, "import", "claude-code")
			for _, want := range tt.stdout {
				if want = quote.Replace(want); !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
				}
			}
			for _, want := range tt.stderr {
				if want = quote.Replace(want); !strings.Contains(r.stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
				}
			}
			if strings.Contains(r.stdout+r.stderr, "ghp_plantedSecret123") {
				t.Error("import printed a secret env value")
			}
			if strings.Contains(r.stdout, "other") {
				t.Errorf("another project's server was read:\n%s", r.stdout)
			}
			if s.readFile(userPath) != user {
				t.Error("import changed ~/.claude.json")
			}
			if tt.notWritten {
				if _, err := os.Stat(s.configPath()); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a failed import wrote %s (%v)", s.configPath(), err)
				}
				return
			}
			var cfg struct {
				MCPServers map[string]struct{ Command, URL string } `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(s.readFile(s.configPath())), &cfg); err != nil {
				t.Fatal(err)
			}
			got := make(map[string]string)
			for name, srv := range cfg.MCPServers {
				got[name] = srv.Command + srv.URL
			}
			if !reflect.DeepEqual(got, tt.commands) {
				t.Errorf("config servers = %v, want %v", got, tt.commands)
			}
		})
	}
}
