package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/capbridge/capbridge/bridge/config"
)

var importHelp = commandHelp{
	usage: []string{"import claude|claude-code|cursor|vscode|FILE [--config FILE] [--dry-run] [--include NAME]..."},
	about: `Merges the MCP servers another client runs into capbridge's config file,
then prints what to put in that client instead, so that it starts capbridge
alone. It asks nothing and overwrites nothing: a server already configured
under the same name with a different definition is reported and skipped, and
an entry that runs capbridge itself is skipped. The client's own file is only
read, never changed. Env and header values are copied as written (${VAR}
stays ${VAR}) and never printed.

A project's own file (.mcp.json, .vscode/mcp.json, .cursor/mcp.json here)
may come from a cloned repository: its servers are imported only as far as
the client would run them. Claude Code's approvals are followed as it reads
them (enabledMcpjsonServers, enableAllProjectMcpServers, and
disabledMcpjsonServers, which always wins); VS Code and Cursor keep theirs
where capbridge cannot read them, so their project servers wait for
--include. A server left out is named with the reason; --include NAME
imports it on purpose.

Where it looks (Linux; macOS in brackets):
  claude       ~/.config/Claude/claude_desktop_config.json
               [~/Library/Application Support/Claude/claude_desktop_config.json]
  claude-code  ~/.claude.json's entry for this directory (local scope), .mcp.json
               here (project scope), then ~/.claude.json (user scope); a name in
               several scopes is taken from the first, as Claude Code runs it
  cursor       ~/.cursor/mcp.json, then .cursor/mcp.json here
  vscode       ~/.config/Code/User/mcp.json and settings.json ("mcp": {"servers"})
               [~/Library/Application Support/Code/User/...], then .vscode/mcp.json here
  FILE         any file with an "mcpServers" or "servers" map`,
	examples: []string{
		"capbridge import claude",
		"capbridge import --dry-run cursor",
		"capbridge import ~/work/project/.vscode/mcp.json",
		"capbridge import vscode --include fetch",
	},
}

// clientLabel names a client import knows, for people; ok is false for
// any other argument, which is then a file.
func clientLabel(client string) (label string, ok bool) {
	switch client {
	case config.ClientClaude:
		return "Claude Desktop", true
	case config.ClientClaudeCode:
		return "Claude Code", true
	case config.ClientCursor:
		return "Cursor", true
	case config.ClientVSCode:
		return "VS Code", true
	}
	return "", false
}

func runImport(ctx context.Context, e env) error {
	flags := newFlagSet("import", e)
	configPath := configFlag(flags)
	dryRun := flags.Bool("dry-run", false, "show what would be imported; write nothing")
	moveSecrets := flags.Bool("move-secrets", false, "keep API keys written in the servers' env and headers in the keychain, with ${secret:NAME} in the config")
	var include repeated
	flags.Var(&include, "include", "import the project server `NAME` although its client has not approved it (repeatable)")
	args, done, err := parseFlags(flags, e, importHelp)
	if done {
		return err
	}
	if len(args) != 1 {
		return &usageError{msg: "import needs one source: claude, claude-code, cursor, vscode or a FILE; run 'capbridge import -h'"}
	}
	sources, err := importSources(args[0])
	if err != nil {
		return err
	}

	path := config.Path(*configPath)
	unlock, err := config.Lock(path)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer unlock()
	dst, err := config.ReadDoc(path)
	if errors.Is(err, fs.ErrNotExist) {
		dst, err = config.NewDoc(path), nil
	}
	if err != nil {
		return fmt.Errorf("import: %w; fix the file, or import into another one with --config", err)
	}
	var docs []*config.Doc
	for _, src := range sources {
		doc, err := config.ReadClientSource(src)
		if errors.Is(err, config.ErrNotServerMap) && src.Scope == config.ScopeLocal {
			// Claude Code finds no local-scope servers there either; the
			// file's user scope is read on its own.
			fmt.Fprintf(e.stderr, "capbridge: warning: %v; importing the other scopes\n", err)
			continue
		}
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		docs = append(docs, doc)
	}
	unused, errs := config.ApplyApproval(ctx, docs, clientDirs(), include)
	for _, err := range errs {
		fmt.Fprintf(e.stderr, "capbridge: warning: %v; the project's servers are left out\n", err)
	}
	for _, name := range unused {
		fmt.Fprintf(e.stderr, "capbridge: warning: --include %s: no project server of that name was left out\n", name)
	}
	// After approval: a server left out never displaces another scope's.
	config.ApplyPrecedence(docs)

	self, _ := os.Executable()
	added := 0
	serversKey := config.ServersKeyMCP
	var read []*config.Doc
	var addedNames []string
	for _, doc := range docs {
		report := dst.Merge(doc, self)
		added += len(report.Added)
		addedNames = append(addedNames, report.Added...)
		if doc.Scope == config.ScopeLocal && len(doc.ServerNames()) == 0 && len(report.Shadowed) == 0 {
			continue // no local-scope servers for this directory: nothing to say
		}
		serversKey = doc.ServersKey()
		read = append(read, doc)
		printImportReport(e.stdout, args[0], doc, report, *dryRun)
	}
	if _, err := offerSecretMove(e, dst, addedNames, *moveSecrets, *dryRun); err != nil {
		return fmt.Errorf("import: %w", err)
	}

	switch {
	case added == 0:
		fmt.Fprintf(e.stdout, "\nNothing new to write to %s.\n", path)
	case *dryRun:
		fmt.Fprintf(e.stdout, "\nDry run: %d server(s) would be added to %s; nothing was written.\n", added, path)
	default:
		if err := dst.Save(); err != nil {
			return fmt.Errorf("import: %w", err)
		}
		fmt.Fprintf(e.stdout, "\nWrote %d server(s) to %s.\n", added, path)
		fmt.Fprintln(e.stdout, "Run 'capbridge index' to list and store their tools now ('capbridge serve' also does it at start).")
	}
	return printClientSnippet(e.stdout, serversKey, read, *configPath != "" || os.Getenv(config.EnvFile) != "", path)
}

// importSources resolves import's argument to the sources to read: a
// client's config files that exist, or the one file named.
func importSources(arg string) ([]config.ClientSource, error) {
	label, isClient := clientLabel(arg)
	if !isClient {
		if _, err := os.Stat(arg); err != nil {
			clients := []string{config.ClientClaude, config.ClientClaudeCode, config.ClientCursor, config.ClientVSCode}
			if hint := suggest(arg, clients); hint != "" && !strings.ContainsAny(arg, `/\.`) {
				return nil, &usageError{msg: fmt.Sprintf("import: %q is no client and no file%s; give claude, claude-code, cursor, vscode or the path of a config file", arg, hint)}
			}
			return nil, fmt.Errorf("import: %w; give claude, claude-code, cursor, vscode or the path of a config file", err)
		}
		return []config.ClientSource{{Path: arg}}, nil
	}
	candidates := config.ClientSources(arg, clientDirs())
	var found []config.ClientSource
	var paths []string
	for _, src := range candidates {
		if !slices.Contains(paths, src.Path) {
			paths = append(paths, src.Path)
		}
		if _, err := os.Stat(src.Path); err == nil {
			found = append(found, src)
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("import: no %s config found (looked for %s); give its path: capbridge import FILE", label, strings.Join(paths, ", "))
	}
	return found, nil
}

// clientDirs are the directories of this machine and process that client
// config files are found from.
func clientDirs() config.ClientDirs {
	home, _ := os.UserHomeDir()
	configDir, _ := os.UserConfigDir()
	wd, _ := os.Getwd()
	return config.ClientDirs{GOOS: runtime.GOOS, Home: home, ConfigDir: configDir, WorkDir: wd}
}

// sourceLabel names where a source's servers were read, with Claude Code's
// scope: ~/.claude.json holds two of them.
func sourceLabel(doc *config.Doc) string {
	switch doc.Scope {
	case "":
		return doc.Path
	case config.ScopeLocal:
		return fmt.Sprintf("%s (local scope: \"projects\" > %q)", doc.Path, doc.Project)
	}
	return fmt.Sprintf("%s (%s scope)", doc.Path, doc.Scope)
}

// printImportReport says what happened to each server of one source, by
// name only: definitions may hold secrets.
func printImportReport(w io.Writer, client string, doc *config.Doc, r config.ImportReport, dryRun bool) {
	added := "added   "
	if dryRun {
		added = "would add"
	}
	fmt.Fprintf(w, "From %s:\n", sourceLabel(doc))
	if len(doc.ServerNames()) == 0 && len(r.Shadowed) == 0 && len(r.Unapproved) == 0 {
		fmt.Fprintf(w, "  no servers (no %q or %q map)\n", config.ServersKeyMCP, config.ServersKeyVSCode)
	}
	for _, name := range r.Added {
		fmt.Fprintf(w, "  %s %s\n", added, name)
		if slices.Contains(r.Included, name) {
			fmt.Fprintf(w, "           note: not approved in %s; imported because --include names it\n", doc.Path)
		}
		def, _ := doc.Server(name)
		if bytes.Contains(def, []byte("${input:")) || bytes.Contains(def, []byte("${workspaceFolder")) {
			fmt.Fprintf(w, "           note: uses VS Code ${input:...} or ${workspaceFolder} variables, which only VS Code fills in; write ${ENV_VAR} or a path instead\n")
		}
	}
	for _, name := range r.Same {
		fmt.Fprintf(w, "  same     %s (already configured with the same definition)\n", name)
	}
	for _, name := range r.Clashed {
		fmt.Fprintf(w, "  skipped  %s: already configured with a different definition; compare them, or 'capbridge remove %s' and import again\n", name, name)
	}
	for _, name := range r.Loops {
		fmt.Fprintf(w, "  skipped  %s: it runs capbridge itself\n", name)
	}
	for _, inv := range r.Invalid {
		fmt.Fprintf(w, "  skipped  %s: %v\n", inv.Name, inv.Err)
	}
	for _, u := range r.Unapproved {
		if u.Rejected {
			fmt.Fprintf(w, "  skipped  %s: %s\n", u.Name, u.Reason)
			continue
		}
		fmt.Fprintf(w, "  skipped  %s: %s; to import it anyway: capbridge import %s --include %s\n", u.Name, u.Reason, client, u.Name)
	}
	for _, sh := range r.Shadowed {
		fmt.Fprintf(w, "  skipped  %s: Claude Code runs its %s-scope definition instead\n", sh.Name, sh.Scope)
	}
}

// printClientSnippet prints the server map that makes the client start
// capbridge alone, and where it goes.
func printClientSnippet(w io.Writer, serversKey string, sources []*config.Doc, explicitConfig bool, configPath string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("import: finding this binary's path for the client snippet: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	args := []string{"serve"}
	if explicitConfig {
		abs, err := filepath.Abs(configPath)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		args = append(args, "--config", abs)
	}
	snippet, err := clientSnippet(serversKey, exe, args)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	fmt.Fprintf(w, "\nSo that the client starts capbridge alone, replace its %q map in\n", serversKey)
	for _, src := range sources {
		fmt.Fprintf(w, "  %s\n", sourceLabel(src))
	}
	fmt.Fprintf(w, "with the one below (capbridge never edits that file; the servers live on in its config):\n\n%s", snippet)
	return nil
}

// clientSnippet returns the server map a client needs so that it starts
// capbridge alone, in the client's own format: under serversKey, with
// "type": "stdio" for VS Code.
func clientSnippet(serversKey, exe string, args []string) ([]byte, error) {
	type entry struct {
		Type    string   `json:"type,omitempty"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	e := entry{Command: exe, Args: args}
	if serversKey == config.ServersKeyVSCode {
		e.Type = "stdio"
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]map[string]entry{serversKey: {"capbridge": e}}); err != nil {
		return nil, fmt.Errorf("writing client snippet: %w", err)
	}
	return out.Bytes(), nil
}
