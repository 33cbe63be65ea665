package cli

// Tests of version, help and the answers to command-line mistakes.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	s := newSandbox(t)
	required := goModRequires(t, filepath.Join("..", "..", "go.mod"))
	text := s.mustRun(0, "version").stdout
	if !strings.HasPrefix(text, "capbridge (devel)\n") {
		t.Errorf("version from a checkout should say (devel):\n%s", text)
	}
	if !strings.Contains(text, runtime.Version()) {
		t.Errorf("version does not name the Go version %s:\n%s", runtime.Version(), text)
	}

	// The sandbox's binary is built with CGO_ENABLED=0, as the README
	// installs it.
	if !strings.Contains(text, "static     yes") {
		t.Errorf("version of a CGO_ENABLED=0 build does not say it is static:\n%s", text)
	}
	if again := s.mustRun(0, "--version").stdout; again != text {
		t.Errorf("capbridge --version differs from capbridge version:\n%s", again)
	}
	var v struct {
		Version  string
		Go       string
		Static   bool
		Revision string
		Modules  map[string]string
	}
	if err := json.Unmarshal([]byte(s.mustRun(0, "version", "--json").stdout), &v); err != nil {
		t.Fatal(err)
	}
	// The binary is built from the repository's go.mod: every module it
	// lists must carry the version go.mod requires, and the SDK and SQLite
	// must be among them.
	if !v.Static {
		t.Error("version --json: static is false for a CGO_ENABLED=0 build")
	}
	shared := 0
	for path, want := range required {
		got, ok := v.Modules[path]
		if !ok {
			continue
		}
		shared++
		if got != want {
			t.Errorf("module %s: version says %s, go.mod has %s", path, got, want)
		}
		if !strings.Contains(text, path) {
			t.Errorf("text output lacks module %s", path)
		}
	}
	for _, path := range []string{"github.com/modelcontextprotocol/go-sdk", "modernc.org/sqlite"} {
		if _, ok := v.Modules[path]; !ok {
			t.Errorf("version --json lacks module %s: %v", path, v.Modules)
		}
	}
	if shared == 0 {
		t.Error("no module in common with go.mod")
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
		{[]string{"import"}, 2, "claude, claude-code, cursor, vscode or a FILE"},
		{[]string{"import", "no-such-file.json"}, 1, "no-such-file.json"},
		{[]string{"remove"}, 2, "exactly one server NAME"},
		{[]string{"remove", "nothing"}, 1, "capbridge servers"},
		{[]string{"search", "--limt", "2", "x"}, 2, `did you mean "--limit"?`},
		{[]string{"eval", "--catalgo", "c.jsonl"}, 2, `did you mean "--catalog"?`},
		{[]string{"demo-server", "--fualt", "hang"}, 2, `did you mean "--fault"?`},
		{[]string{"index", "--bogus"}, 2, "unknown flag --bogus"},
		{[]string{"import", "clade"}, 2, `did you mean "claude"?`},
	}
	for _, tt := range tests {
		r := s.mustRun(tt.code, tt.args...)
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("capbridge %q: stderr lacks %q:\n%s", tt.args, tt.want, r.stderr)
		}
		// One clear line for a mistake in the command line: never Go's own
		// "flag provided but not defined" report or a usage dump before it.
		if tt.code == 2 {
			if lines := strings.Count(strings.TrimSpace(r.stderr), "\n") + 1; lines != 1 {
				t.Errorf("capbridge %q: %d lines on stderr, want one:\n%s", tt.args, lines, r.stderr)
			}
			if strings.Contains(r.stderr, "flag provided but not defined") || strings.Contains(r.stderr, "Usage") {
				t.Errorf("capbridge %q: stderr repeats Go's flag report or usage:\n%s", tt.args, r.stderr)
			}
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
		{"call", []string{"config", "db", "fields", "json"}},
		{"approve", []string{"config", "db"}},
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

// goModRequires returns the module versions a go.mod file requires.
func goModRequires(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	inBlock := false
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "require" && f[1] == "(":
			inBlock = true
		case inBlock && len(f) > 0 && f[0] == ")":
			inBlock = false
		case inBlock && len(f) >= 2:
			out[f[0]] = f[1]
		case len(f) >= 3 && f[0] == "require":
			out[f[1]] = f[2]
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s requires no module", path)
	}
	return out
}
