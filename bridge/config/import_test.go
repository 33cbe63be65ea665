package config

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/import")

// TestMerge merges each testdata/import/CASE/client.json into CASE/capbridge.json
// (or an empty config) and compares the report and the file written with
// CASE/want.golden.
func TestMerge(t *testing.T) {
	tests := []struct {
		dir                         string
		added, same, clashed, loops []string
		invalid                     []string
		serversKey                  string
	}{
		{dir: "fresh", added: []string{"everything"}, serversKey: ServersKeyMCP},
		{dir: "merge", added: []string{"github", "remote"}, serversKey: ServersKeyMCP},
		{dir: "clash-and-identical", added: []string{"time"}, same: []string{"memory"}, clashed: []string{"github"}, serversKey: ServersKeyMCP},
		{dir: "defaults-restated", same: []string{"memory", "remote", "plain"}, clashed: []string{"legacy"}, serversKey: ServersKeyVSCode},
		{dir: "unknown-keys", added: []string{"sqlite"}, serversKey: ServersKeyMCP},
		{dir: "vscode", added: []string{"fetch", "api"}, serversKey: ServersKeyVSCode},
		{dir: "vscode-settings", added: []string{"time"}, serversKey: ServersKeyVSCode},
		{dir: "invalid", added: []string{"ok", "off"}, invalid: []string{"both", "neither"}, serversKey: ServersKeyMCP},
		{dir: "loop", added: []string{"capbridge-docs"}, loops: []string{"capbridge", "bridge2"}, serversKey: ServersKeyMCP},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", "import", tt.dir)
			dst := readOrNewConfig(t, filepath.Join(dir, "capbridge.json"))
			src, err := ReadClient(filepath.Join(dir, "client.json"))
			if err != nil {
				t.Fatal(err)
			}
			if src.ServersKey() != tt.serversKey {
				t.Errorf("client servers key = %q, want %q", src.ServersKey(), tt.serversKey)
			}
			report := dst.Merge(src, "")
			checkNames(t, "added", report.Added, tt.added)
			checkNames(t, "same", report.Same, tt.same)
			checkNames(t, "clashed", report.Clashed, tt.clashed)
			checkNames(t, "loops", report.Loops, tt.loops)
			var invalid []string
			for _, inv := range report.Invalid {
				invalid = append(invalid, inv.Name)
				if strings.Contains(inv.Err.Error(), "secret-value") {
					t.Errorf("error for %q shows a value: %v", inv.Name, inv.Err)
				}
			}
			checkNames(t, "invalid", invalid, tt.invalid)

			got, err := dst.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(got) {
				t.Fatalf("merged config is not valid JSON:\n%s", got)
			}
			checkGolden(t, filepath.Join(dir, "want.golden"), fmt.Sprintf("%+v\n%s", report, got))

			again := dst.Merge(src, "")
			if len(again.Added) != 0 || len(again.Clashed) != len(tt.clashed) {
				t.Errorf("merging twice: %+v, want nothing added and the same clashes", again)
			}
		})
	}
}

func readOrNewConfig(t *testing.T, path string) *Doc {
	t.Helper()
	d, err := ReadDoc(path)
	if errors.Is(err, fs.ErrNotExist) {
		return NewDoc(path)
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func checkNames(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestMergeKeepsValuesExactly checks that secrets are copied as written, not
// expanded, and that numbers keep their precision.
func TestMergeKeepsValuesExactly(t *testing.T) {
	t.Setenv("TOKEN", "expanded-token-value")
	for _, dir := range []string{"merge", "unknown-keys"} {
		src, err := ReadClient(filepath.Join("testdata", "import", dir, "client.json"))
		if err != nil {
			t.Fatal(err)
		}
		dst := NewDoc("unused")
		dst.Merge(src, "")
		out, err := dst.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range src.ServerNames() {
			def, _ := src.Server(name)
			copied, ok := dst.Server(name)
			if !ok || !sameJSON(def, copied) {
				t.Errorf("%s: server %q = %s, want %s", dir, name, copied, def)
			}
		}
		if strings.Contains(string(out), "expanded-token-value") {
			t.Errorf("%s: ${TOKEN} was expanded into the config:\n%s", dir, out)
		}
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name         string
		content      string // "" means the file does not exist
		client       bool
		line, column int
		notExist     bool
	}{
		{name: "missing file", notExist: true},
		{name: "missing client file", client: true, notExist: true},
		{name: "bad value", content: "{\n  \"mcpServers\": {\n    \"a\": nope\n  }\n}\n", line: 3, column: 11},
		{name: "truncated", content: "{\"mcpServers\": {", line: 1, column: 16},
		{name: "trailing comma in own config", content: "{\"mcpServers\": {},\n}", line: 2, column: 1},
		{name: "not an object", content: "\n  [1, 2]", line: 2, column: 3},
		{name: "comment in client file is fine but bad key", client: true, content: "{\n// ok\n  x: 1}", line: 3, column: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.json")
			if tt.content != "" {
				if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			read := ReadDoc
			if tt.client {
				read = ReadClient
			}
			_, err := read(path)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.notExist {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("error %v does not wrap fs.ErrNotExist", err)
				}
				return
			}
			var fe *JSONFileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *JSONFileError", err, err)
			}
			if fe.Path != path || fe.Line != tt.line || fe.Column != tt.column {
				t.Errorf("error at %s:%d:%d, want %s:%d:%d (%v)", fe.Path, fe.Line, fe.Column, path, tt.line, tt.column, err)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d:%d: ", path, tt.line, tt.column)) {
				t.Errorf("message %q does not start with the position", err)
			}
		})
	}
}

func TestServersNotAnObject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": ["a"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadDoc(path)
	if err == nil || !strings.Contains(err.Error(), `"mcpServers"`) || !strings.Contains(err.Error(), path) {
		t.Errorf("error = %v, want one naming the file and mcpServers", err)
	}
}

func TestAddRemove(t *testing.T) {
	d := NewDoc("unused")
	def := json.RawMessage(`{"command":"npx"}`)
	if err := d.AddServer("a", def); err != nil {
		t.Fatal(err)
	}
	if err := d.AddServer("a", def); !errors.Is(err, ErrServerExists) {
		t.Errorf("adding twice: %v, want ErrServerExists", err)
	}
	if err := d.AddServer("b", json.RawMessage(`{`)); err == nil {
		t.Error("adding invalid JSON: no error")
	}
	if err := d.RemoveServer("nope"); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("removing unknown: %v, want ErrUnknownServer", err)
	}
	if err := d.RemoveServer("a"); err != nil {
		t.Fatal(err)
	}
	if names := d.ServerNames(); len(names) != 0 {
		t.Errorf("after remove: %q", names)
	}
}

func TestSave(t *testing.T) {
	tests := []struct {
		name     string
		existing os.FileMode // 0: no file before
		symlink  bool
		want     os.FileMode
	}{
		{name: "new file in a new directory", want: 0o600},
		{name: "existing file keeps its mode", existing: 0o640, want: 0o640},
		{name: "symlink keeps pointing at its target", existing: 0o600, symlink: true, want: 0o600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "sub", "config.json")
			path := target
			if tt.existing != 0 {
				if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(target, []byte(`{"keep": 1, "mcpServers": {}}`), tt.existing); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(target, tt.existing); err != nil {
					t.Fatal(err)
				}
			}
			if tt.symlink {
				path = filepath.Join(dir, "link.json")
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
			}
			d := readOrNewConfig(t, path)
			if err := d.AddServer("s", json.RawMessage(`{"url":"http://127.0.0.1:1/mcp"}`)); err != nil {
				t.Fatal(err)
			}
			if err := d.Save(); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(target)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tt.want {
				t.Errorf("mode = %v, want %v", fi.Mode().Perm(), tt.want)
			}
			if tt.symlink {
				if li, err := os.Lstat(path); err != nil || li.Mode()&os.ModeSymlink == 0 {
					t.Errorf("%s is no longer a symlink", path)
				}
			}
			back, err := ReadDoc(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := back.Server("s"); !ok {
				t.Error("saved server not read back")
			}
			if tt.existing != 0 && back.root.values["keep"] == nil {
				t.Error(`unknown key "keep" lost`)
			}
			entries, _ := os.ReadDir(filepath.Dir(target))
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp") {
					t.Errorf("temporary file %s left behind", e.Name())
				}
			}
		})
	}
}

func TestClientSources(t *testing.T) {
	dirs := ClientDirs{Home: "/h", ConfigDir: "/h/.config", WorkDir: "/w"}
	mac := ClientDirs{GOOS: "darwin", Home: "/Users/u", ConfigDir: "/Users/u/Library/Application Support", WorkDir: "/w"}
	linux := dirs
	linux.GOOS = "linux"
	xdg := linux
	xdg.ConfigDir = "/x"
	homeIsWork := linux
	homeIsWork.WorkDir = "/h"
	tests := []struct {
		client string
		dirs   ClientDirs
		want   []string // path, then [scope project] for Claude Code
	}{
		{ClientClaude, linux, []string{"/h/.config/Claude/claude_desktop_config.json"}},
		{ClientClaude, xdg, []string{"/x/Claude/claude_desktop_config.json", "/h/.config/Claude/claude_desktop_config.json"}},
		{ClientClaude, mac, []string{"/Users/u/Library/Application Support/Claude/claude_desktop_config.json"}},
		{ClientClaudeCode, linux, []string{"/h/.claude.json [local /w]", "/w/.mcp.json [project]", "/h/.claude.json [user]"}},
		{ClientClaudeCode, homeIsWork, []string{"/h/.claude.json [local /h]", "/h/.mcp.json [project]", "/h/.claude.json [user]"}},
		{ClientCursor, linux, []string{"/h/.cursor/mcp.json", "/w/.cursor/mcp.json"}},
		{ClientVSCode, linux, []string{"/h/.config/Code/User/mcp.json", "/h/.config/Code/User/settings.json", "/w/.vscode/mcp.json"}},
		{"emacs", linux, nil},
	}
	for _, tt := range tests {
		t.Run(tt.client+"/"+tt.dirs.ConfigDir+"/"+tt.dirs.WorkDir, func(t *testing.T) {
			var got []string
			for _, src := range ClientSources(tt.client, tt.dirs) {
				s := filepath.ToSlash(src.Path)
				if src.Scope != "" {
					s += " [" + strings.TrimSpace(src.Scope+" "+filepath.ToSlash(src.Project)) + "]"
				}
				got = append(got, s)
			}
			checkNames(t, "sources", got, tt.want)
		})
	}
}

func TestRunsCapbridge(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		def  string
		want bool
	}{
		{`{"command": "capbridge", "args": ["serve"]}`, true},
		{`{"command": "/usr/local/bin/capbridge"}`, true},
		{`{"command": "C:\\bin\\capbridge.exe"}`, true},
		{fmt.Sprintf(`{"command": %q}`, self), true},
		{`{"command": "capbridge", "args": ["--config", "/x.json"]}`, true},
		{`{"command": "capbridge", "args": ["demo-server"]}`, false},
		{`{"command": "capbridge-docs"}`, false},
		{`{"command": "npx", "args": ["capbridge"]}`, false},
		{`{"url": "http://127.0.0.1/capbridge"}`, false},
		{`not json`, false},
	}
	for _, tt := range tests {
		if got := RunsCapbridge(json.RawMessage(tt.def), self); got != tt.want {
			t.Errorf("RunsCapbridge(%s) = %v, want %v", tt.def, got, tt.want)
		}
	}
}

func TestStripJSONComments(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": 1} // c`, `{"a": 1}     `},
		{`{"a": "x // y"}`, `{"a": "x // y"}`},
		{`{"a": "q\"/*"} /* c */`, `{"a": "q\"/*"}        `},
		{"{\"a\": [1, 2,\n]}", "{\"a\": [1, 2 \n]}"},
		{"{\"a\": 1, // c\n}", "{\"a\": 1      \n}"},
		{`{"a": "x,}"}`, `{"a": "x,}"}`},
		{"/* a\nb */{}", "    \n    {}"},
	}
	for _, tt := range tests {
		if got := string(stripJSONComments([]byte(tt.in))); got != tt.want {
			t.Errorf("stripJSONComments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMergeEntryNotAnObject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "client.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {"n": 42, "s": "uvx", "ok": {"command": "uvx"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := ReadClient(path)
	if err != nil {
		t.Fatal(err)
	}
	r := NewDoc("unused").Merge(src, "")
	checkNames(t, "added", r.Added, []string{"ok"})
	want := map[string]string{"n": `server "n": is a number, not a server definition`, "s": `server "s": is a string, not a server definition`}
	if len(r.Invalid) != len(want) {
		t.Fatalf("invalid = %v, want %d", r.Invalid, len(want))
	}
	for _, inv := range r.Invalid {
		if !strings.Contains(inv.Err.Error(), want[inv.Name]) || !strings.Contains(inv.Err.Error(), path) {
			t.Errorf("%s: %v, want it to name %s and say %s", inv.Name, inv.Err, path, want[inv.Name])
		}
	}
}
