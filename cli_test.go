package main

// Tests that drive the built capbridge binary as a user would: a temporary
// HOME and XDG directories, real config files and a real catalog database.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/demo"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
)

var built struct {
	once sync.Once
	path string
	err  error
}

// capbridgeBinary builds the binary once per test run. It lives at one path
// per checkout under the temp directory, replaced atomically by each run, so
// runs neither pile up binaries nor race each other.
func capbridgeBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			built.err = err
			return
		}
		sum := sha256.Sum256([]byte(wd))
		dir := filepath.Join(os.TempDir(), "capbridge-cli-test-"+hex.EncodeToString(sum[:6]))
		if built.err = os.MkdirAll(dir, 0o755); built.err != nil {
			return
		}
		tmp, err := os.MkdirTemp(dir, "build")
		if err != nil {
			built.err = err
			return
		}
		defer os.RemoveAll(tmp)
		cmd := exec.Command("go", "build", "-o", filepath.Join(tmp, "capbridge"), ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = errors.New("go build: " + err.Error() + "\n" + string(out))
			return
		}
		built.path = filepath.Join(dir, "capbridge")
		built.err = os.Rename(filepath.Join(tmp, "capbridge"), built.path)
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// sandbox is a user's machine in miniature: HOME, XDG dirs and a work dir.
type sandbox struct {
	t                      *testing.T
	home, config, data, wd string
}

func newSandbox(t *testing.T) *sandbox {
	root := t.TempDir()
	s := &sandbox{t: t, home: filepath.Join(root, "home"), config: filepath.Join(root, "xdg-config"),
		data: filepath.Join(root, "xdg-data"), wd: filepath.Join(root, "work")}
	for _, d := range []string{s.home, s.config, s.data, s.wd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func (s *sandbox) configPath() string { return filepath.Join(s.config, "capbridge", "config.json") }
func (s *sandbox) dbPath() string     { return filepath.Join(s.data, "capbridge", "catalog.db") }

// result is one finished run of the binary.
type result struct {
	stdout, stderr string
	code           int
}

// run runs capbridge with args in the sandbox and returns what it printed
// and its exit code.
func (s *sandbox) run(args ...string) result {
	s.t.Helper()
	cmd := exec.Command(capbridgeBinary(s.t), args...)
	cmd.Dir = s.wd
	cmd.Env = []string{"HOME=" + s.home, "XDG_CONFIG_HOME=" + s.config, "XDG_DATA_HOME=" + s.data, "PATH=" + os.Getenv("PATH")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		s.t.Fatalf("running capbridge %q: %v", args, err)
	}
	return r
}

// mustRun runs capbridge and fails the test unless it exits with want.
func (s *sandbox) mustRun(want int, args ...string) result {
	s.t.Helper()
	r := s.run(args...)
	if r.code != want {
		s.t.Fatalf("capbridge %q exited %d, want %d\nstdout:\n%s\nstderr:\n%s", args, r.code, want, r.stdout, r.stderr)
	}
	return r
}

func (s *sandbox) writeFile(path, content string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *sandbox) readFile(path string) string {
	s.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// storedCatalog is what storeDemoCatalog put into a database, as the test
// computed it independently of the command under test.
type storedCatalog struct {
	tools   map[string]int      // server -> stored tools
	refused map[string][]string // server -> refused tool names
	raws    map[string][][]byte // server -> compact raw tools, in order
}

// storeDemoCatalog normalizes the built-in demo catalog server by server and
// stores it at dbPath, as `capbridge index` would.
func storeDemoCatalog(t *testing.T, dbPath string) storedCatalog {
	t.Helper()
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("testdata", "demo", "tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	all, err := demo.ReadCatalog(bytes.NewReader(data), "")
	if err != nil {
		t.Fatal(err)
	}
	var servers []string
	seen := map[string]bool{}
	for line := range bytes.SplitSeq(bytes.TrimSpace(data), []byte("\n")) {
		var tool struct{ Server string }
		if err := json.Unmarshal(line, &tool); err != nil {
			t.Fatal(err)
		}
		if !seen[tool.Server] {
			seen[tool.Server] = true
			servers = append(servers, tool.Server)
		}
	}
	if len(all) == 0 || len(servers) < 2 {
		t.Fatalf("demo catalog holds %d tools of %d servers; want several", len(all), len(servers))
	}
	st, err := store.Open(ctx, dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got := storedCatalog{tools: map[string]int{}, refused: map[string][]string{}, raws: map[string][][]byte{}}
	for _, server := range servers {
		raws, err := demo.ReadCatalog(bytes.NewReader(data), server)
		if err != nil {
			t.Fatal(err)
		}
		tools, refusals := schema.NormalizeCatalog(server, raws)
		var rows []store.Tool
		for _, tool := range tools {
			record, _ := json.Marshal(tool.Record)
			card, _ := json.Marshal(tool.Card)
			rows = append(rows, store.Tool{Name: tool.Record.Name, Hash: tool.Record.Hash, Record: record, Card: card,
				Doc: store.Doc{Name: tool.Record.Name, Desc: tool.Card.Summary}})
			var compact bytes.Buffer
			if err := json.Compact(&compact, tool.Record.Raw); err != nil {
				t.Fatal(err)
			}
			got.raws[server] = append(got.raws[server], compact.Bytes())
		}
		for _, r := range refusals {
			rows = append(rows, store.Tool{Name: r.Tool, Refusal: r.Reason})
			got.refused[server] = append(got.refused[server], r.Tool)
		}
		var size int64
		for _, raw := range raws {
			size += int64(len(raw))
		}
		if err := st.ReplaceCatalog(ctx, store.Server{Name: server, Bytes: size}, rows); err != nil {
			t.Fatal(err)
		}
		got.tools[server] = len(tools)
	}
	return got
}

func TestVersion(t *testing.T) {
	s := newSandbox(t)
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("the test binary has no build info")
	}
	text := s.mustRun(0, "version").stdout
	if !strings.HasPrefix(text, "capbridge (devel)\n") {
		t.Errorf("version from a checkout should say (devel):\n%s", text)
	}
	if !strings.Contains(text, runtime.Version()) {
		t.Errorf("version does not name the Go version %s:\n%s", runtime.Version(), text)
	}

	var v struct {
		Version  string
		Go       string
		Revision string
		Modules  map[string]string
	}
	if err := json.Unmarshal([]byte(s.mustRun(0, "version", "--json").stdout), &v); err != nil {
		t.Fatal(err)
	}
	// The test binary is built from the same go.mod: every module it shares
	// with capbridge must carry the same version, and the SDK and SQLite must
	// be among them.
	shared := 0
	for _, d := range info.Deps {
		want := d.Version
		got, ok := v.Modules[d.Path]
		if !ok {
			continue
		}
		shared++
		if got != want {
			t.Errorf("module %s: version says %s, go.mod has %s", d.Path, got, want)
		}
		if !strings.Contains(text, d.Path) {
			t.Errorf("text output lacks module %s", d.Path)
		}
	}
	for _, path := range []string{"github.com/modelcontextprotocol/go-sdk", "modernc.org/sqlite"} {
		if _, ok := v.Modules[path]; !ok {
			t.Errorf("version --json lacks module %s: %v", path, v.Modules)
		}
	}
	if shared == 0 {
		t.Error("no module in common with the test binary")
	}
	if v.Go != runtime.Version() {
		t.Errorf("go = %q, want %q", v.Go, runtime.Version())
	}
	// GOFLAGS=-buildvcs=false leaves the revision out; when it is there,
	// people must see it too.
	if v.Revision != "" && !strings.Contains(text, v.Revision) {
		t.Errorf("text output lacks revision %s:\n%s", v.Revision, text)
	}
}

// claudeConfig is a Claude Desktop config as users have them: a secret in
// env, a key capbridge does not know, and capbridge itself already added.
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

func TestImportVSCodeAndFile(t *testing.T) {
	s := newSandbox(t)
	s.writeFile(filepath.Join(s.wd, ".vscode", "mcp.json"), `{
  // project servers
  "inputs": [{"type": "promptString", "id": "key", "password": true}],
  "servers": {
    "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"]},
  }
}`)
	r := s.mustRun(0, "import", "vscode")
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

func TestServersAndStatsWithoutAnything(t *testing.T) {
	s := newSandbox(t)
	for _, cmd := range []string{"servers", "stats"} {
		r := s.mustRun(1, cmd)
		for _, want := range []string{"capbridge import", "capbridge add", s.configPath()} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s with no config and no catalog: stderr lacks %q:\n%s", cmd, want, r.stderr)
			}
		}
		if _, err := os.Stat(s.dbPath()); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s created the catalog %s", cmd, s.dbPath())
		}
	}
}

func TestServersAndStatsOnAnEmptyCatalog(t *testing.T) {
	s := newSandbox(t)
	st, err := store.Open(context.Background(), s.dbPath(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	s.mustRun(0, "add", "files", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp")

	r := s.mustRun(0, "servers")
	if !regexp.MustCompile(`(?m)^files\s+configured\s+stdio\s+0\s+0\s`).MatchString(r.stdout) {
		t.Errorf("servers should list files as configured:\n%s", r.stdout)
	}
	r = s.mustRun(0, "stats")
	if !strings.Contains(r.stdout, "capbridge index") {
		t.Errorf("stats on an empty catalog should point at index:\n%s", r.stdout)
	}
	var report statsReport
	if err := json.Unmarshal([]byte(s.mustRun(0, "stats", "--json").stdout), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Servers) != 0 || report.Direct.Bytes != 0 || report.Calls.Calls != 0 {
		t.Errorf("stats --json on an empty catalog = %+v", report)
	}
}

func TestServersOnAPopulatedCatalog(t *testing.T) {
	s := newSandbox(t)
	catalog := storeDemoCatalog(t, s.dbPath())
	var servers []string
	for name := range catalog.tools {
		servers = append(servers, name)
	}
	slices.Sort(servers)
	configured, orphan := servers[0], servers[1]
	s.mustRun(0, "add", configured, "--", "capbridge-demo-never-started")
	s.mustRun(0, "add", "later", "--url", "http://127.0.0.1:1/mcp")
	// A refused tool, with its reason, as index stores one.
	st, err := store.Open(context.Background(), s.dbPath(), nil)
	if err != nil {
		t.Fatal(err)
	}
	const reason = "input schema is 300 KiB, over the 256 KiB limit"
	err = st.ReplaceCatalog(context.Background(), store.Server{Name: "huge"}, []store.Tool{{Name: "bulk_import", Refusal: reason}})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	var got struct {
		Config, DB string
		Servers    []serverStatus
	}
	if err := json.Unmarshal([]byte(s.mustRun(0, "servers", "--json").stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Config != s.configPath() || got.DB != s.dbPath() {
		t.Errorf("paths = %s, %s", got.Config, got.DB)
	}
	byName := map[string]serverStatus{}
	for _, srv := range got.Servers {
		byName[srv.Name] = srv
	}
	for _, name := range servers {
		srv := byName[name]
		if srv.Tools != catalog.tools[name] || srv.Refused != len(catalog.refused[name]) || srv.Bytes == 0 || srv.LastListed == nil {
			t.Errorf("%s = %+v, want %d tools, %d refused, bytes and a listing time", name, srv, catalog.tools[name], len(catalog.refused[name]))
		}
	}
	wantStates := map[string]string{configured: "stored", orphan: stateNotInConfig, "later": stateConfigured, "huge": stateNotInConfig}
	for name, want := range wantStates {
		if byName[name].State != want {
			t.Errorf("state of %s = %q, want %q", name, byName[name].State, want)
		}
	}
	if rt := byName["huge"].RefusedTools; len(rt) != 1 || rt[0].Name != "bulk_import" || rt[0].Reason != reason {
		t.Errorf("refused tools of huge = %+v", rt)
	}

	text := s.mustRun(0, "servers").stdout
	for _, want := range []string{"bulk_import: " + reason, "SERVER", "LAST ERROR"} {
		if !strings.Contains(text, want) {
			t.Errorf("servers lacks %q:\n%s", want, text)
		}
	}

	s.mustRun(0, "remove", configured)
	if err := json.Unmarshal([]byte(s.mustRun(0, "servers", "--json").stdout), &got); err != nil {
		t.Fatal(err)
	}
	for _, srv := range got.Servers {
		if srv.Name == configured {
			t.Errorf("after remove, %s is still listed: %+v", configured, srv)
		}
	}
	r := s.mustRun(0, "remove", orphan)
	if !strings.Contains(r.stdout, "dropped its tools") {
		t.Errorf("removing a stored-only server: %s", r.stdout)
	}
}

func TestStatsOnAPopulatedCatalog(t *testing.T) {
	s := newSandbox(t)
	catalog := storeDemoCatalog(t, s.dbPath())
	st, err := store.Open(context.Background(), s.dbPath(), nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := []store.Call{
		{Server: "crm", Tool: "search_contacts", BytesIn: 48_000, BytesOut: 5_200, TokensIn: 12_000, TokensOut: 1_300, Outcome: store.OutcomeOK},
		{Server: "crm", Tool: "get_contact", BytesIn: 4_000, BytesOut: 900, TokensIn: 1_000, TokensOut: 225, Outcome: "upstream_error"},
		{Server: "helpdesk", Tool: "list_tickets", BytesIn: 30_000, BytesOut: 6_000, TokensIn: 7_500, TokensOut: 1_500, Outcome: store.OutcomeOK},
	}
	for _, c := range calls {
		if err := st.RecordCall(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	htmlPath := filepath.Join(s.wd, "stats.html")
	var report statsReport
	if err := json.Unmarshal([]byte(s.mustRun(0, "stats", "--json", "--html", htmlPath).stdout), &report); err != nil {
		t.Fatal(err)
	}
	// What registering every tool directly costs, computed here from the
	// raw tools: one JSON array per server, and one for all of them.
	var allTools [][]byte
	for _, srv := range report.Servers {
		raws := catalog.raws[srv.Name]
		allTools = append(allTools, raws...)
		want := costOfArray(raws)
		if srv.Direct != want || srv.Tools != len(raws) {
			t.Errorf("%s: direct = %+v over %d tools, want %+v over %d", srv.Name, srv.Direct, srv.Tools, want, len(raws))
		}
	}
	if len(report.Servers) != len(catalog.raws) {
		t.Errorf("stats lists %d servers, the catalog has %d", len(report.Servers), len(catalog.raws))
	}
	if want := costOfArray(allTools); report.Direct != want {
		t.Errorf("direct total = %+v, want %+v", report.Direct, want)
	}
	b := report.Bridge
	defs, err := json.Marshal(bridge.Definitions())
	if err != nil {
		t.Fatal(err)
	}
	if b.Definitions.Bytes != int64(len(defs)) || b.Definitions.Bytes >= 4000 {
		t.Errorf("bridge definitions = %+v, want the %d bytes of tools/list's tools array, under 4,000", b.Definitions, len(defs))
	}
	if b.Cards != cardsPerDiscovery || b.MedianCardBytes <= 0 || b.Discovery.Bytes < 3*b.MedianCardBytes || b.Discovery.Bytes > 6000 {
		t.Errorf("typical discovery = %+v: want %d median cards, within the 6,000-byte result budget", b, cardsPerDiscovery)
	}
	if b.Total.Bytes != b.Definitions.Bytes+b.Discovery.Bytes || report.Saved.Bytes != report.Direct.Bytes-b.Total.Bytes {
		t.Errorf("sums do not add up: %+v", report)
	}

	c := report.Calls
	if c.Calls != len(calls) || c.Failures != 1 {
		t.Errorf("calls = %d (%d failed), want %d (1 failed)", c.Calls, c.Failures, len(calls))
	}
	var before, after contextCost
	for _, call := range calls {
		before.Bytes += call.BytesIn
		before.EstTokens += call.TokensIn
		after.Bytes += call.BytesOut
		after.EstTokens += call.TokensOut
	}
	if c.Before != before || c.After != after || len(c.Servers) != 2 {
		t.Errorf("call totals = %+v, want before %+v after %+v over 2 servers", c, before, after)
	}

	text := s.mustRun(0, "stats").stdout
	for _, want := range []string{"est. tokens", "all servers", thousands(report.Direct.Bytes), thousands(c.Before.Bytes)} {
		if !strings.Contains(text, want) {
			t.Errorf("stats lacks %q:\n%s", want, text)
		}
	}

	page := s.readFile(htmlPath)
	for _, want := range append([]string{"<svg", "</html>", thousands(report.Direct.EstTokens)}, slices.Collect(maps.Keys(catalog.raws))...) {
		if !strings.Contains(page, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
	for _, banned := range []string{"<script", "http://", "https://"} {
		if strings.Contains(page, banned) {
			t.Errorf("HTML report is not self-contained: it holds %q", banned)
		}
	}
}

// costOfArray is what a JSON array of these compact values costs.
func costOfArray(values [][]byte) contextCost {
	joined := append(append([]byte("["), bytes.Join(values, []byte(","))...), ']')
	return contextCost{Bytes: int64(len(joined)), EstTokens: int64((utf8.RuneCount(joined) + 3) / 4)}
}

func TestHelpAndUsageErrors(t *testing.T) {
	s := newSandbox(t)
	help := s.mustRun(0, "help").stdout
	for _, c := range commands() {
		if !c.hidden && !strings.Contains(help, c.name+" ") {
			t.Errorf("help does not list %s", c.name)
		}
	}
	for _, want := range []string{"Exit codes", "0  success", "1  failure", "2  usage error", "CAPBRIDGE_CONFIG", "CAPBRIDGE_DB"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q", want)
		}
	}

	tests := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"servres"}, 2, `did you mean "servers"?`},
		{[]string{"help", "statz"}, 2, `did you mean "stats"?`},
		{[]string{"servers", "--jsno"}, 2, `did you mean "--json"?`},
		{[]string{"stats", "--hmtl", "x.html"}, 2, `did you mean "--html"?`},
		{[]string{"import", "--dryrun", "claude"}, 2, `did you mean "--dry-run"?`},
		{[]string{"add", "x", "--ulr", "http://h/mcp"}, 2, `did you mean "--url"?`},
		{[]string{"remove", "--confg", "c.json", "x"}, 2, `did you mean "--config"?`},
		{[]string{"version", "extra"}, 2, "no arguments"},
		{[]string{"import"}, 2, "claude, cursor, vscode or a FILE"},
		{[]string{"import", "no-such-file.json"}, 1, "no-such-file.json"},
		{[]string{"remove"}, 2, "exactly one server NAME"},
		{[]string{"remove", "nothing"}, 1, "capbridge servers"},
	}
	for _, tt := range tests {
		r := s.mustRun(tt.code, tt.args...)
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("capbridge %q: stderr lacks %q:\n%s", tt.args, tt.want, r.stderr)
		}
	}
}

// TestCommandHelp checks that -h, --help and `help CMD` explain each
// everyday command's flags (the ones its documentation promises), with an
// example, on stdout, and exit 0.
func TestCommandHelp(t *testing.T) {
	s := newSandbox(t)
	tests := []struct {
		name  string
		flags []string
	}{
		{"version", []string{"json"}},
		{"import", []string{"config", "dry-run"}},
		{"add", []string{"config", "env", "cwd", "url", "header", "sse"}},
		{"remove", []string{"config", "db"}},
		{"servers", []string{"config", "db", "json"}},
		{"stats", []string{"config", "db", "json", "html"}},
	}
	described := regexp.MustCompile(`^  --[a-z-]+.*? {2,}\w`)
	for _, tt := range tests {
		for _, args := range [][]string{{tt.name, "-h"}, {tt.name, "--help"}, {"help", tt.name}} {
			r := s.mustRun(0, args...)
			for _, want := range []string{"Usage:\n  capbridge " + tt.name, "Flags:", "Examples:\n  capbridge " + tt.name} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("capbridge %q lacks %q:\n%s", args, want, r.stdout)
				}
			}
			if r.stderr != "" {
				t.Errorf("capbridge %q wrote to stderr: %s", args, r.stderr)
			}
		}
		help := s.mustRun(0, tt.name, "-h").stdout
		for _, flag := range tt.flags {
			line := regexp.MustCompile(`(?m)^  --` + flag + `\b.*$`).FindString(help)
			if line == "" || !described.MatchString(line) {
				t.Errorf("%s -h does not explain --%s:\n%s", tt.name, flag, help)
			}
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"serve", "servers", "stats", "search", "--config", "--db"}
	tests := []struct{ in, want string }{
		{"servres", ` (did you mean "servers"?)`},
		{"serv", ` (did you mean "serve"?)`},
		{"stast", ` (did you mean "stats"?)`},
		{"--confgi", ` (did you mean "--config"?)`},
		{"--d", ` (did you mean "--db"?)`},
		{"frobnicate", ""},
	}
	for _, tt := range tests {
		if got := suggest(tt.in, names); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestIndexedDemoServers goes the way a user does: add servers, index them
// (the demo server, run by this binary, is a real MCP server over stdio),
// then look at them with servers and stats, and remove one.
func TestIndexedDemoServers(t *testing.T) {
	s := newSandbox(t)
	bin := capbridgeBinary(t)
	s.mustRun(0, "add", "helpdesk", "--", bin, "demo-server", "--server", "helpdesk")
	s.mustRun(0, "add", "crm", "--", bin, "demo-server", "--server", "crm")
	const secret = "planted-secret-4f9a"
	s.mustRun(0, "add", "broken", "--env", "TOKEN="+secret, "--", filepath.Join(s.wd, "no-such-server"))
	s.mustRun(0, "add", "remote", "--url", "http://127.0.0.1:1/mcp", "--header", "Authorization: Bearer "+secret)
	s.writeFile(filepath.Join(s.wd, "off.json"), `{"mcpServers": {"off": {"command": "x", "disabled": true}}}`)
	s.mustRun(0, "import", "off.json")
	r := s.mustRun(1, "index") // broken and remote fail; the others are indexed
	outputs := []result{r, s.mustRun(0, "servers"), s.mustRun(0, "servers", "--json"), s.mustRun(0, "stats"), s.mustRun(0, "stats", "--json")}
	for _, out := range outputs {
		if strings.Contains(out.stdout+out.stderr, secret) {
			t.Errorf("a secret from env or headers was printed:\n%s%s", out.stdout, out.stderr)
		}
	}

	servers := func() map[string]serverStatus {
		var got struct{ Servers []serverStatus }
		if err := json.Unmarshal([]byte(s.mustRun(0, "servers", "--json").stdout), &got); err != nil {
			t.Fatal(err)
		}
		m := map[string]serverStatus{}
		for _, srv := range got.Servers {
			m[srv.Name] = srv
		}
		return m
	}
	byName := servers()
	for _, name := range []string{"helpdesk", "crm"} {
		if srv := byName[name]; srv.State != "stored" || srv.Tools == 0 || srv.Bytes == 0 || srv.Transport != "stdio" {
			t.Errorf("%s = %+v, want stored stdio with tools", name, srv)
		}
	}
	if srv := byName["broken"]; srv.State != "failing" || !strings.Contains(srv.LastError, "no-such-server") {
		t.Errorf("broken = %+v, want failing with its error", srv)
	}
	if srv := byName["off"]; srv.State != stateDisabled {
		t.Errorf("off = %+v, want disabled", srv)
	}

	var report statsReport
	if err := json.Unmarshal([]byte(s.mustRun(0, "stats", "--json").stdout), &report); err != nil {
		t.Fatal(err)
	}
	for _, srv := range report.Servers {
		if srv.Tools != byName[srv.Name].Tools || srv.Direct.Bytes == 0 {
			t.Errorf("stats for %s = %+v, servers says %d tools", srv.Name, srv, byName[srv.Name].Tools)
		}
	}
	if len(report.Servers) != 2 || report.Saved.Bytes <= 0 {
		t.Errorf("stats = %+v, want two servers and a saving", report)
	}

	s.mustRun(0, "remove", "helpdesk")
	if _, ok := servers()["helpdesk"]; ok {
		t.Error("helpdesk still listed after remove")
	}
	if err := json.Unmarshal([]byte(s.mustRun(0, "stats", "--json").stdout), &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Servers) != 1 || report.Servers[0].Name != "crm" {
		t.Errorf("stats after removing helpdesk still counts it: %+v", report.Servers)
	}
}
