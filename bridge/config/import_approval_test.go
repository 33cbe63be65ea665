package config

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeCodeApproval follows Claude Code's approval of .mcp.json
// servers through each file it reads them from. A server is imported only
// when Claude Code would run it.
func TestClaudeCodeApproval(t *testing.T) {
	type files struct {
		entry  string // the project's entry in ~/.claude.json (inside its braces)
		parent string // the parent directory's entry
		user   string // ~/.claude/settings.json
		shared string // .claude/settings.json
		local  string // .claude/settings.local.json
		git    string // "tracked" or "untracked": the project is a git work tree holding settings.local.json so
	}
	tests := []struct {
		name     string
		files    files
		approved bool
		reason   string // in the reason of a server left out
		rejected bool
	}{
		{name: "never approved", reason: "has not approved"},
		{name: "enabled in the ~/.claude.json entry", files: files{entry: `"enabledMcpjsonServers": ["helper"]`}, approved: true},
		{name: "enable all in user settings", files: files{user: `{"enableAllProjectMcpServers": true}`}, approved: true},
		{name: "enable all in the entry", files: files{entry: `"enableAllProjectMcpServers": true`}, approved: true},
		{name: "another name enabled", files: files{entry: `"enabledMcpjsonServers": ["other"]`}, reason: "has not approved"},
		{name: "disabled in the entry", files: files{entry: `"enabledMcpjsonServers": ["helper"], "disabledMcpjsonServers": ["helper"]`}, rejected: true, reason: ".claude.json"},
		{name: "disabled in settings.local.json", files: files{user: `{"enableAllProjectMcpServers": true}`, local: `{"disabledMcpjsonServers": ["helper"]}`}, rejected: true, reason: "settings.local.json"},
		{name: "disabled by the repository's own settings", files: files{user: `{"enabledMcpjsonServers": ["helper"]}`, shared: `{"disabledMcpjsonServers": ["helper"]}`}, rejected: true, reason: filepath.Join(".claude", "settings.json")},
		{name: "repository approves itself, untrusted", files: files{shared: `{"enabledMcpjsonServers": ["helper"]}`}, reason: "the repository carries it"},
		{name: "repository enables all, untrusted", files: files{shared: `{"enableAllProjectMcpServers": true}`}, reason: "enableAllProjectMcpServers is true only in"},
		{name: "repository approves, trusted", files: files{entry: `"hasTrustDialogAccepted": true`, shared: `{"enabledMcpjsonServers": ["helper"]}`}, approved: true},
		{name: "trusted through a parent folder", files: files{parent: `"hasTrustDialogAccepted": true`, shared: `{"enabledMcpjsonServers": ["helper"]}`}, approved: true},
		{name: "settings.local.json approves, untrusted", files: files{local: `{"enabledMcpjsonServers": ["helper"]}`}, reason: "until you trust this folder"},
		{name: "settings.local.json approves, trusted, no git", files: files{entry: `"hasTrustDialogAccepted": true`, local: `{"enabledMcpjsonServers": ["helper"]}`}, approved: true},
		{name: "settings.local.json approves, trusted, untracked", files: files{entry: `"hasTrustDialogAccepted": true`, local: `{"enabledMcpjsonServers": ["helper"]}`, git: "untracked"}, approved: true},
		{name: "settings.local.json approves, trusted, tracked", files: files{entry: `"hasTrustDialogAccepted": true`, local: `{"enabledMcpjsonServers": ["helper"]}`, git: "tracked"}, reason: "git tracks it"},
		{name: "local false over user true", files: files{entry: `"hasTrustDialogAccepted": true`, user: `{"enableAllProjectMcpServers": true}`, local: `{"enableAllProjectMcpServers": false}`}, reason: "has not approved"},
		{name: "untrusted local false does not count", files: files{user: `{"enableAllProjectMcpServers": true}`, local: `{"enableAllProjectMcpServers": false}`}, approved: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			dirs := ClientDirs{Home: filepath.Join(root, "home"), WorkDir: filepath.Join(root, "src", "work")}
			f := tt.files
			writeTestFile(t, filepath.Join(dirs.Home, ".claude.json"), fmt.Sprintf(`{"mcpServers": {"helper": {"command": "user-helper"}}, "projects": {%q: {%s}, %q: {%s}}}`,
				dirs.WorkDir, f.entry, filepath.Dir(dirs.WorkDir), f.parent))
			writeTestFile(t, filepath.Join(dirs.WorkDir, ".mcp.json"), `{"mcpServers": {"helper": {"command": "sh", "args": ["-c", "echo pwned"]}}}`)
			for path, content := range map[string]string{
				filepath.Join(dirs.Home, ".claude", "settings.json"):          f.user,
				filepath.Join(dirs.WorkDir, ".claude", "settings.json"):       f.shared,
				filepath.Join(dirs.WorkDir, ".claude", "settings.local.json"): f.local,
			} {
				if content != "" {
					writeTestFile(t, path, content)
				}
			}
			if f.git != "" {
				gitRepo(t, dirs.WorkDir, f.git == "tracked", filepath.Join(".claude", "settings.local.json"))
			}

			var docs []*Doc
			for _, src := range ClientSources(ClientClaudeCode, dirs) {
				d, err := ReadClientSource(src)
				if err != nil {
					t.Fatal(err)
				}
				docs = append(docs, d)
			}
			unused, errs := ApplyApproval(context.Background(), docs, dirs, nil)
			if len(unused) != 0 || len(errs) != 0 {
				t.Fatalf("unused %q, errs %v", unused, errs)
			}
			ApplyPrecedence(docs)
			dst := NewDoc(filepath.Join(root, "capbridge.json"))
			var project ImportReport
			for _, d := range docs {
				r := dst.Merge(d, "")
				if d.Scope == ScopeProject {
					project = r
				}
			}
			def, _ := dst.Server("helper")
			var s struct{ Command string }
			json.Unmarshal(def, &s)
			if tt.approved {
				if s.Command != "sh" || len(project.Unapproved) != 0 {
					t.Errorf("helper = %s, unapproved %+v; want the project's server imported", def, project.Unapproved)
				}
				return
			}
			// Left out, the project server never displaces the user's own.
			if s.Command != "user-helper" {
				t.Errorf("helper = %s, want the user-scope definition", def)
			}
			if len(project.Unapproved) != 1 {
				t.Fatalf("unapproved = %+v, want helper", project.Unapproved)
			}
			u := project.Unapproved[0]
			if u.Name != "helper" || u.Rejected != tt.rejected || !strings.Contains(u.Reason, tt.reason) {
				t.Errorf("unapproved = %+v, want rejected %v and a reason naming %q", u, tt.rejected, tt.reason)
			}
		})
	}
}

// TestApplyApprovalInclude keeps a server the user names, and reports a
// name that matched nothing.
func TestApplyApprovalInclude(t *testing.T) {
	root := t.TempDir()
	dirs := ClientDirs{Home: filepath.Join(root, "home"), ConfigDir: filepath.Join(root, "config"), WorkDir: filepath.Join(root, "work")}
	writeTestFile(t, filepath.Join(dirs.WorkDir, ".vscode", "mcp.json"), `{"servers": {"a": {"command": "a"}, "b": {"command": "b"}}}`)
	var docs []*Doc
	for _, src := range ClientSources(ClientVSCode, dirs) {
		if d, err := ReadClientSource(src); err == nil {
			docs = append(docs, d)
		}
	}
	unused, errs := ApplyApproval(context.Background(), docs, dirs, []string{"b", "nope"})
	if len(docs) != 1 || len(errs) != 0 {
		t.Fatalf("docs %d, errs %v", len(docs), errs)
	}
	checkNames(t, "servers", docs[0].ServerNames(), []string{"b"})
	checkNames(t, "unused", unused, []string{"nope"})
	r := NewDoc(filepath.Join(root, "capbridge.json")).Merge(docs[0], "")
	checkNames(t, "included", r.Included, []string{"b"})
	if len(r.Unapproved) != 1 || r.Unapproved[0].Name != "a" || !strings.Contains(r.Unapproved[0].Reason, "VS Code") {
		t.Errorf("unapproved = %+v", r.Unapproved)
	}
}

// TestClientSourcesHomeProject: run in the home directory, Cursor's
// project file is the user's own, read once and needing no approval.
func TestClientSourcesHomeProject(t *testing.T) {
	home := t.TempDir()
	srcs := ClientSources(ClientCursor, ClientDirs{Home: home, WorkDir: home})
	if len(srcs) != 1 || srcs[0].Approval != "" {
		t.Errorf("sources = %+v, want ~/.cursor/mcp.json once, as the user's", srcs)
	}
}

// gitRepo makes dir a git work tree, and adds file to it when tracked.
func gitRepo(t *testing.T, dir string, tracked bool, file string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	if tracked {
		run("add", "--", file)
	}
}
