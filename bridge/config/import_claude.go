package config

// This file reads Claude Code's MCP servers, which it keeps in three scopes
// (https://code.claude.com/docs/en/mcp, "MCP installation scopes"):
//
//	local    ~/.claude.json: "projects" > "<absolute path of the directory claude runs in>" > "mcpServers"
//	project  .mcp.json in that directory: "mcpServers"
//	user     ~/.claude.json: "mcpServers"
//
// A name defined in several scopes runs from the first of them in that
// order, as a whole entry: fields are never merged across scopes. The local
// scope is keyed by the literal directory; Claude Code does not look at
// parent directories' entries, so neither does import.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Claude Code's scopes, in order of precedence.
const (
	ScopeLocal   = "local"
	ScopeProject = "project"
	ScopeUser    = "user"
)

// ErrNotServerMap is a part of a client's file that should hold servers
// and is not a JSON object. For the local scope it spoils only that scope:
// the file's user-scope servers can still be read.
var ErrNotServerMap = errors.New("not a JSON object")

// ClientSource is one place a client keeps MCP servers.
type ClientSource struct {
	Path    string
	Scope   string // Claude Code's scope: ScopeLocal, ScopeProject or ScopeUser; "" for other clients and files
	Project string // ScopeLocal: the directory whose entry under "projects" holds the servers
	// Approval is set on a file in the project directory, which a cloned
	// repository may carry: its servers are imported only as far as its
	// client approves them ([ApplyApproval]). "" for the user's own files.
	Approval string
}

// ReadClientSource reads the servers of one source: a whole client config
// file, as [ReadClient] does, or one Claude Code project's entry in
// ~/.claude.json. A malformed file is a [*JSONFileError]; a local scope
// whose entry is not an object wraps [ErrNotServerMap]. A project with no
// entry has no local-scope servers.
func ReadClientSource(src ClientSource) (*Doc, error) {
	if src.Scope != ScopeLocal {
		d, err := ReadClient(src.Path)
		if err != nil {
			return nil, err
		}
		d.Scope, d.Approval = src.Scope, src.Approval
		return d, nil
	}
	data, err := os.ReadFile(src.Path)
	if err != nil {
		return nil, fmt.Errorf("reading client config: %w", err)
	}
	root, err := parseOrderedObject(src.Path, data)
	if err != nil {
		return nil, err
	}
	d := &Doc{Path: src.Path, Scope: ScopeLocal, Project: src.Project, serversKey: ServersKeyMCP,
		root: newOrderedObject(), servers: newOrderedObject()}
	shapeErr := func(keys []string, raw []byte) error {
		return fmt.Errorf("%s: local-scope servers of %s: %s is %s, %w",
			src.Path, src.Project, keyPath(keys), valueKind(raw), ErrNotServerMap)
	}

	keys := []string{"projects"}
	projects, ok, err := objectAt(root.values["projects"])
	if err != nil {
		return nil, shapeErr(keys, root.values["projects"])
	}
	if !ok {
		return d, nil
	}
	var raw []byte
	found := false
	for _, key := range projectKeys(src.Project) {
		if raw, found = projects.values[key]; found {
			d.Project = key
			keys = append(keys, key)
			break
		}
	}
	if !found {
		return d, nil
	}
	entry, ok, err := objectAt(raw)
	if err != nil {
		return nil, shapeErr(keys, raw)
	}
	if !ok {
		return d, nil
	}
	keys = append(keys, ServersKeyMCP)
	servers, ok, err := objectAt(entry.values[ServersKeyMCP])
	if err != nil {
		return nil, shapeErr(keys, entry.values[ServersKeyMCP])
	}
	if ok {
		d.servers = servers
	}
	return d, nil
}

// objectAt decodes raw as an object; ok is false when raw is absent or null.
func objectAt(raw []byte) (o orderedObject, ok bool, err error) {
	if raw == nil || string(bytes.TrimSpace(raw)) == "null" {
		return orderedObject{}, false, nil
	}
	o, err = decodeOrderedObject(raw)
	if err != nil {
		return orderedObject{}, false, err
	}
	return o, true, nil
}

// projectKeys returns the keys Claude Code may have filed dir under: the
// directory as given, and as the operating system resolves it (Claude Code
// runs on Node, whose cwd is the resolved path, while a shell's $PWD, which
// os.Getwd prefers, may go through a symlink: /var and /private/var on macOS).
func projectKeys(dir string) []string {
	keys := []string{dir}
	if resolved, err := filepath.EvalSymlinks(dir); err == nil && resolved != dir {
		keys = append(keys, resolved)
	}
	for _, k := range keys {
		if slash := filepath.ToSlash(k); slash != k { // Windows: C:/Users/...
			keys = append(keys, slash)
		}
	}
	return keys
}

// keyPath writes a path of keys into a JSON file for people: "a" > "b".
func keyPath(keys []string) string {
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(quoted, " > ")
}

// valueKind names the type of a valid JSON value, with its article.
func valueKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case '{':
		return "an object"
	}
	return "a number"
}

// ShadowedServer is a server a source defines that the client would not
// run, because a source of higher precedence defines the same name.
type ShadowedServer struct {
	Name  string
	Scope string // the scope whose definition the client runs
}

// ApplyPrecedence takes sources in order of precedence (as [ClientSources]
// returns them) and removes from each the servers an earlier one defines
// too, so that only the definition the client runs is imported;
// [Doc.Merge] reports the others as shadowed. Only sources with a
// scope (Claude Code's) take part: other clients' files are left as they are.
func ApplyPrecedence(docs []*Doc) {
	winner := make(map[string]string) // server name -> scope it runs from
	for _, d := range docs {
		if d.Scope == "" {
			continue
		}
		for _, name := range d.ServerNames() {
			if scope, ok := winner[name]; ok {
				d.servers.remove(name)
				d.shadowed = append(d.shadowed, ShadowedServer{Name: name, Scope: scope})
				continue
			}
			winner[name] = d.Scope
		}
	}
}
