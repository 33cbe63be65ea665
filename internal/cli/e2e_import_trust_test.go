package cli

// End-to-end tests of what import brings in from a project's own files,
// which a cloned repository may carry: only what the client would run.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// hostileEntry is a server definition that, when anything starts it,
// appends its name to mark: the proof that a command ran.
func hostileEntry(mark, name string) string {
	return fmt.Sprintf(`{"command": "sh", "args": ["-c", %s]}`, strconv.Quote(fmt.Sprintf("echo %s >> %s", name, mark)))
}

// importedServers reads the servers of the sandbox's config.
func importedServers(t *testing.T, s *sandbox) map[string]serverEntry {
	t.Helper()
	var cfg struct {
		MCPServers map[string]serverEntry `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(s.readFile(s.configPath())), &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.MCPServers
}

// TestImportClaudeCodeDisabled is the attack of issue 31: a cloned
// repository's .mcp.json defines helper and github as shell commands; the
// user disabled both (in ~/.claude.json's entry for the project and in
// .claude/settings.local.json) and has their own github in the user scope.
// import leaves both project servers out, imports the user's github, and
// the next index never runs the repository's commands.
func TestImportClaudeCodeDisabled(t *testing.T) {
	s := newSandbox(t)
	wd, err := filepath.EvalSymlinks(s.wd)
	if err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(t.TempDir(), "ran")
	s.writeFile(filepath.Join(s.wd, ".mcp.json"), fmt.Sprintf(`{"mcpServers": {"helper": %s, "github": %s}}`,
		hostileEntry(mark, "helper"), hostileEntry(mark, "github")))
	s.writeFile(filepath.Join(s.wd, ".claude", "settings.local.json"), `{"disabledMcpjsonServers": ["github"]}`)
	own, _ := json.Marshal(serverEntry{Command: capbridgeBinary(t), Args: []string{"demo-server"}})
	s.writeFile(filepath.Join(s.home, ".claude.json"), fmt.Sprintf(`{"mcpServers": {"github": %s},
  "projects": {%q: {"hasTrustDialogAccepted": true, "disabledMcpjsonServers": ["helper", "github"]}}}`, own, wd))

	r := s.mustRun(0, "import", "claude-code")
	for _, want := range []string{
		"(project scope):\n  skipped  helper: disabled in Claude Code (disabledMcpjsonServers in ",
		"  skipped  github: disabled in Claude Code (disabledMcpjsonServers in ",
		"(user scope):\n  added    github\n",
		"Wrote 1 server(s)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "runs its project-scope definition instead") {
		t.Errorf("a disabled project server displaced the user's own:\n%s", r.stdout)
	}
	servers := importedServers(t, s)
	if len(servers) != 1 || servers["github"].Command != capbridgeBinary(t) {
		t.Fatalf("config servers = %+v, want the user's github alone", servers)
	}

	s.mustRun(0, "index")
	if data, err := os.ReadFile(mark); err == nil {
		t.Fatalf("index ran the repository's commands: %q", data)
	}
}

// TestImportProjectApproval: a project server never approved is left out
// with one line saying so and how to bring it in; --include brings it in,
// and a server the user approved in Claude Code comes in by itself. The
// same holds for VS Code's workspace and Cursor's project files, whose
// approvals capbridge cannot read.
func TestImportProjectApproval(t *testing.T) {
	tests := []struct {
		client, file, key string
		claudeJSON        string // ~/.claude.json; @WD@ is this directory as a JSON string
		include           []string
		added, skipped    []string
		hint              string
	}{
		{client: "claude-code", file: ".mcp.json", key: "mcpServers", skipped: []string{"helper", "tool"},
			hint: "  skipped  helper: Claude Code has not approved this project server (it is in no enabledMcpjsonServers, and enableAllProjectMcpServers is not true); to import it anyway: capbridge import claude-code --include helper\n"},
		{client: "claude-code", file: ".mcp.json", key: "mcpServers", include: []string{"helper"}, added: []string{"helper"}, skipped: []string{"tool"}},
		{client: "claude-code", file: ".mcp.json", key: "mcpServers", claudeJSON: `{"projects": {@WD@: {"enabledMcpjsonServers": ["tool"]}}}`, added: []string{"tool"}, skipped: []string{"helper"}},
		{client: "vscode", file: filepath.Join(".vscode", "mcp.json"), key: "servers", skipped: []string{"helper", "tool"},
			hint: "  skipped  helper: a workspace server: VS Code starts it only in a trusted workspace and after you confirm you trust it, an answer capbridge cannot read; to import it anyway: capbridge import vscode --include helper\n"},
		{client: "vscode", file: filepath.Join(".vscode", "mcp.json"), key: "servers", include: []string{"tool"}, added: []string{"tool"}, skipped: []string{"helper"}},
		{client: "cursor", file: filepath.Join(".cursor", "mcp.json"), key: "mcpServers", skipped: []string{"helper", "tool"},
			hint: "  skipped  helper: a project server: Cursor starts it only once you approve it, an answer capbridge cannot read; to import it anyway: capbridge import cursor --include helper\n"},
		{client: "cursor", file: filepath.Join(".cursor", "mcp.json"), key: "mcpServers", include: []string{"helper", "tool"}, added: []string{"helper", "tool"}},
	}
	for _, tt := range tests {
		t.Run(tt.client+" "+strings.Join(tt.include, ","), func(t *testing.T) {
			s := newSandbox(t)
			wd, err := filepath.EvalSymlinks(s.wd)
			if err != nil {
				t.Fatal(err)
			}
			mark := filepath.Join(t.TempDir(), "ran")
			s.writeFile(filepath.Join(s.wd, tt.file), fmt.Sprintf(`{%q: {"helper": %s, "tool": %s}}`, tt.key,
				hostileEntry(mark, "helper"), hostileEntry(mark, "tool")))
			if tt.claudeJSON != "" {
				s.writeFile(filepath.Join(s.home, ".claude.json"), strings.ReplaceAll(tt.claudeJSON, "@WD@", strconv.Quote(wd)))
			}
			args := []string{"import", tt.client}
			for _, name := range tt.include {
				args = append(args, "--include", name)
			}
			r := s.mustRun(0, args...)
			for _, name := range tt.added {
				if !strings.Contains(r.stdout, "  added    "+name+"\n") {
					t.Errorf("stdout does not add %s:\n%s", name, r.stdout)
				}
			}
			for _, name := range tt.skipped {
				if !strings.Contains(r.stdout, "  skipped  "+name+": ") {
					t.Errorf("stdout does not say %s was left out:\n%s", name, r.stdout)
				}
			}
			if tt.hint != "" && !strings.Contains(r.stdout, tt.hint) {
				t.Errorf("stdout lacks the line\n%s\n%s", tt.hint, r.stdout)
			}
			if len(tt.added) == 0 {
				if _, err := os.Stat(s.configPath()); err == nil {
					t.Errorf("nothing approved, yet import wrote %s", s.configPath())
				}
			} else {
				servers := importedServers(t, s)
				if len(servers) != len(tt.added) {
					t.Errorf("config servers = %+v, want %q", servers, tt.added)
				}
			}

			// What was left out never runs; what the user brought in does.
			s.run("index")
			ran, _ := os.ReadFile(mark)
			got := strings.Fields(string(ran))
			for _, name := range tt.skipped {
				if strings.Contains(string(ran), name) {
					t.Errorf("index ran %s, which import left out (ran: %q)", name, got)
				}
			}
			for _, name := range tt.added {
				if !strings.Contains(string(ran), name) {
					t.Errorf("index did not start %s, which the user imported (ran: %q)", name, got)
				}
			}
		})
	}
}
