package config

// This file decides which servers of a project's own file import may bring
// in. A cloned repository can carry .mcp.json, .vscode/mcp.json or
// .cursor/mcp.json, and importing them as they are would have capbridge run
// commands the user never agreed to. Each client has its own rule, as it
// documents it; capbridge follows it where it can read the user's answer
// and otherwise leaves the server out until the user names it
// (`capbridge import CLIENT --include NAME`).
//
// Claude Code (https://code.claude.com/docs/en/mcp, "Project scope" and
// "Project server approvals and workspace trust"; settings files and their
// precedence: https://code.claude.com/docs/en/settings, "Settings
// precedence": local .claude/settings.local.json over shared
// .claude/settings.json over user ~/.claude/settings.json, array settings
// concatenated across files, a scalar taken from the highest file that
// sets it):
//
//   - Claude Code asks before it runs a server of .mcp.json. A server runs
//     when it is named in enabledMcpjsonServers or enableAllProjectMcpServers
//     is true, and it is not named in disabledMcpjsonServers.
//   - disabledMcpjsonServers rejects a server from any file it is read from:
//     the project's entry in ~/.claude.json, .claude/settings.json,
//     .claude/settings.local.json, ~/.claude/settings.json. A rejection wins
//     over any approval.
//   - Approvals count from the files the repository does not carry: the
//     project's entry in ~/.claude.json and ~/.claude/settings.json. "A
//     cloned repository can't approve its own servers": the approvals in
//     the committed .claude/settings.json are ignored in a folder the user
//     has not trusted (hasTrustDialogAccepted in ~/.claude.json, for the
//     folder or a parent, or the folder is the home directory), and those
//     in .claude/settings.local.json count only in a trusted folder where
//     git says the file is not tracked.
//   - enableAllProjectMcpServers is a scalar: the first of local, shared,
//     the ~/.claude.json entry and user settings that sets it decides (the
//     docs do not place the ~/.claude.json entry in that order; capbridge
//     puts it just above the user settings, as both are the user's own).
//
// Managed settings (managed-settings.json) are not read.
//
// VS Code (https://code.visualstudio.com/docs/editing/workspaces/workspace-trust
// and its MCP server docs): a workspace's .vscode/mcp.json servers start only
// in a trusted workspace, and VS Code asks the user to confirm trust in a
// server before it first starts it, and again when its configuration
// changes ("MCP: Reset Trust" forgets the answers). The answers live in
// VS Code's own state database, which capbridge does not read: a workspace
// server is left out until the user names it.
//
// Cursor (its docs and forum: project .cursor/mcp.json servers wait for the
// user's approval; the agent CLI keeps approvals in
// ~/.cursor/projects/<slug>/mcp-approvals.json keyed by a hash of the
// server's definition, the editor in its own state): a project server is
// left out until the user names it.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Clients whose approval a project's servers need, the values of
// [ClientSource].Approval.
const (
	ApprovalClaudeCode = ClientClaudeCode
	ApprovalCursor     = ClientCursor
	ApprovalVSCode     = ClientVSCode
)

// UnapprovedServer is a server of a project's file that its client would
// not run, and that import left out.
type UnapprovedServer struct {
	Name string
	// Rejected is true when the user turned the server off in the client;
	// otherwise it was never approved.
	Rejected bool
	// Reason says why, for people: where the rejection is, or what the
	// client waits for.
	Reason string
}

// ApplyApproval removes from each project file the servers its client
// would not run ([UnapprovedServer]), so that [Doc.Merge] reports them and
// a server of the same name in another scope is imported in their place.
// A server named in include is kept all the same: the user asked for it.
// It returns the names of include that no project file had left out, and
// the errors met reading the client's approvals (every server of a file
// whose approvals could not be read is left out).
func ApplyApproval(ctx context.Context, docs []*Doc, dirs ClientDirs, include []string) (unused []string, errs []error) {
	used := make(map[string]bool)
	for _, d := range docs {
		if d.Approval == "" {
			continue
		}
		var decide func(name string) (UnapprovedServer, bool)
		switch d.Approval {
		case ApprovalClaudeCode:
			a, err := readClaudeApprovals(ctx, dirs.Home, filepath.Dir(d.Path))
			if err != nil {
				errs = append(errs, err)
				decide = func(name string) (UnapprovedServer, bool) {
					return UnapprovedServer{Name: name, Reason: "Claude Code's approvals could not be read (" + err.Error() + ")"}, false
				}
			} else {
				decide = a.decide
			}
		case ApprovalVSCode:
			decide = func(name string) (UnapprovedServer, bool) {
				return UnapprovedServer{Name: name, Reason: "a workspace server: VS Code starts it only in a trusted workspace and after you confirm you trust it, an answer capbridge cannot read"}, false
			}
		default:
			decide = func(name string) (UnapprovedServer, bool) {
				return UnapprovedServer{Name: name, Reason: "a project server: Cursor starts it only once you approve it, an answer capbridge cannot read"}, false
			}
		}
		for _, name := range d.ServerNames() {
			u, ok := decide(name)
			switch {
			case ok:
			case slices.Contains(include, name):
				used[name] = true
				d.included = append(d.included, name)
			default:
				d.servers.remove(name)
				d.unapproved = append(d.unapproved, u)
			}
		}
	}
	for _, name := range include {
		if !used[name] && !slices.Contains(unused, name) {
			unused = append(unused, name)
		}
	}
	return unused, errs
}

// claudeApprovals is what Claude Code's files say of a project's .mcp.json
// servers.
type claudeApprovals struct {
	enabled   map[string]string // name -> the file that approves it (one that counts)
	disabled  map[string]string // name -> the file that rejects it
	ignored   map[string]string // name -> a file whose approval does not count, and why
	enableAll string            // the file whose enableAllProjectMcpServers: true decides, or ""
	allIgnore string            // a file whose enableAllProjectMcpServers: true does not count, and why
}

// claudeSettings are the keys of a Claude Code settings file (or of a
// project's entry in ~/.claude.json) that approve or reject servers.
type claudeSettings struct {
	Enabled   []string `json:"enabledMcpjsonServers"`
	Disabled  []string `json:"disabledMcpjsonServers"`
	EnableAll *bool    `json:"enableAllProjectMcpServers"`
	Trusted   bool     `json:"hasTrustDialogAccepted"` // read from ~/.claude.json's entries only
}

// readClaudeApprovals reads the approvals of the .mcp.json servers of
// project from its files and the user's, in precedence order.
func readClaudeApprovals(ctx context.Context, home, project string) (*claudeApprovals, error) {
	userJSON := filepath.Join(home, ".claude.json")
	entry, trusted, err := readClaudeProjectEntry(userJSON, home, project)
	if err != nil {
		return nil, err
	}
	type source struct {
		label    string
		settings claudeSettings
		ignored  string // why its approvals do not count, or ""
	}
	var sources []source // highest precedence first
	read := func(path, label string, ignored func() string) error {
		s, err := readClaudeSettings(path)
		if err != nil || s == nil {
			return err
		}
		why := ""
		if ignored != nil {
			why = ignored()
		}
		sources = append(sources, source{label: label, settings: *s, ignored: why})
		return nil
	}
	untrusted := "Claude Code ignores it until you trust this folder (run claude here and accept its trust dialog)"
	local := filepath.Join(project, ".claude", "settings.local.json")
	if err := read(local, local, func() string {
		if !trusted {
			return untrusted
		}
		return gitTracked(ctx, project, filepath.Join(".claude", "settings.local.json"))
	}); err != nil {
		return nil, err
	}
	shared := filepath.Join(project, ".claude", "settings.json")
	if err := read(shared, shared, func() string {
		if !trusted {
			return "the repository carries it, and " + untrusted
		}
		return ""
	}); err != nil {
		return nil, err
	}
	if entry != nil {
		sources = append(sources, source{label: fmt.Sprintf("%s (\"projects\" > %q)", userJSON, project), settings: *entry})
	}
	if err := read(filepath.Join(home, ".claude", "settings.json"), filepath.Join(home, ".claude", "settings.json"), nil); err != nil {
		return nil, err
	}

	a := &claudeApprovals{enabled: map[string]string{}, disabled: map[string]string{}, ignored: map[string]string{}}
	allDecided := false
	for _, src := range sources {
		for _, name := range src.settings.Disabled {
			if _, ok := a.disabled[name]; !ok {
				a.disabled[name] = src.label
			}
		}
		for _, name := range src.settings.Enabled {
			_, counted := a.enabled[name]
			_, noted := a.ignored[name]
			switch {
			case src.ignored == "" && !counted:
				a.enabled[name] = src.label
			case src.ignored != "" && !noted:
				a.ignored[name] = src.label + ": " + src.ignored
			}
		}
		if all := src.settings.EnableAll; all != nil && !allDecided {
			switch {
			case src.ignored == "":
				allDecided = true
				if *all {
					a.enableAll = src.label
				}
			case *all && a.allIgnore == "":
				a.allIgnore = src.label + ": " + src.ignored
			}
		}
	}
	return a, nil
}

// decide says whether Claude Code runs the .mcp.json server name, and if
// not, why.
func (a *claudeApprovals) decide(name string) (UnapprovedServer, bool) {
	if file, ok := a.disabled[name]; ok {
		return UnapprovedServer{Name: name, Rejected: true, Reason: "disabled in Claude Code (disabledMcpjsonServers in " + file + ")"}, false
	}
	if _, ok := a.enabled[name]; ok || a.enableAll != "" {
		return UnapprovedServer{}, true
	}
	reason := "Claude Code has not approved this project server (it is in no enabledMcpjsonServers, and enableAllProjectMcpServers is not true)"
	switch {
	case a.ignored[name] != "":
		reason = "approved only in " + a.ignored[name]
	case a.allIgnore != "":
		reason = "enableAllProjectMcpServers is true only in " + a.allIgnore
	}
	return UnapprovedServer{Name: name, Reason: reason}, false
}

// readClaudeSettings reads the approval keys of one settings file; a
// missing file is nil.
func readClaudeSettings(path string) (*claudeSettings, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading Claude Code settings: %w", err)
	}
	if _, err := parseOrderedObject(path, data); err != nil {
		return nil, err
	}
	var s claudeSettings
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("reading Claude Code settings %s: %w", path, err)
	}
	return &s, nil
}

// readClaudeProjectEntry reads the approval keys of project's entry in
// ~/.claude.json (nil when it has none), and whether the user trusted
// project or a folder above it there. The home directory is trusted.
func readClaudeProjectEntry(path, home, project string) (entry *claudeSettings, trusted bool, err error) {
	trusted = sameDir(project, home)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, trusted, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading Claude Code's approvals: %w", err)
	}
	root, err := parseOrderedObject(path, data)
	if err != nil {
		return nil, false, err
	}
	projects, ok, err := objectAt(root.values["projects"])
	if err != nil || !ok {
		return nil, trusted, nil // no project entries: nothing approved there
	}
	settingsAt := func(dir string) *claudeSettings {
		for _, key := range projectKeys(dir) {
			if raw, ok := projects.values[key]; ok {
				var s claudeSettings
				if json.Unmarshal(raw, &s) == nil {
					return &s
				}
				return nil
			}
		}
		return nil
	}
	entry = settingsAt(project)
	for dir := project; ; dir = filepath.Dir(dir) {
		if s := settingsAt(dir); s != nil && s.Trusted {
			trusted = true
		}
		if parent := filepath.Dir(dir); parent == dir {
			break
		}
	}
	return entry, trusted, nil
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// gitTracked says why file (relative to dir) cannot approve servers when
// git tracks it or cannot tell, as Claude Code checks it; "" when it is
// untracked or dir is not in a git work tree. The repository's own hooks
// stay off (core.fsmonitor would run a program it names).
func gitTracked(ctx context.Context, dir, file string) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-c", "core.fsmonitor=false", "-C", dir, "ls-files", "--error-unmatch", "--", file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return "git tracks it, and a repository cannot approve its own servers"
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return "" // not tracked
	case errors.As(err, &exit) && strings.Contains(stderr.String(), "not a git repository"):
		return ""
	}
	return "git could not say whether the repository carries it (" + strings.TrimSpace(firstLine(stderr.String(), err)) + ")"
}

func firstLine(s string, err error) string {
	if line, _, _ := strings.Cut(strings.TrimSpace(s), "\n"); line != "" {
		return line
	}
	return err.Error()
}
