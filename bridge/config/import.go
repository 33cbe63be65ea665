package config

// This file edits config files at the JSON level: `capbridge import`, `add`
// and `remove` change the server map and keep every other key, known or not,
// in its place. It reads a server definition only to avoid loops, and leaves
// checking one to [Parse], as serve would load it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// Errors callers branch on when editing a config.
var (
	ErrServerExists  = errors.New("a server with this name is already configured")
	ErrUnknownServer = errors.New("no server with this name is configured")
)

// Keys under which a config file keeps its server map.
const (
	ServersKeyMCP    = "mcpServers" // Claude Desktop, Cursor, capbridge
	ServersKeyVSCode = "servers"    // VS Code's mcp.json
)

// JSONFileError is a malformed JSON file, located to a line and column.
type JSONFileError struct {
	Path   string
	Line   int // 1-based
	Column int // 1-based, in bytes
	Err    error
}

func (e *JSONFileError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Line, e.Column, e.Err)
}

func (e *JSONFileError) Unwrap() error { return e.Err }

// Doc is a config file held as ordered JSON: its server map can be
// edited and the file written back without losing or reordering the rest.
type Doc struct {
	Path       string
	Scope      string // a client's file: the scope it was read for, as in [ClientSource]
	Project    string // ScopeLocal: the key under "projects" the servers were read from
	Approval   string // a project's file: whose approval its servers need, as in [ClientSource]
	root       orderedObject
	serversKey string
	servers    orderedObject
	shadowed   []ShadowedServer   // removed by [ApplyPrecedence]
	unapproved []UnapprovedServer // removed by [ApplyApproval]
	included   []string           // kept by [ApplyApproval] because the user named them
}

// NewDoc returns an empty capbridge config that will be written to path.
func NewDoc(path string) *Doc {
	return &Doc{Path: path, serversKey: ServersKeyMCP, root: newOrderedObject(), servers: newOrderedObject()}
}

// ReadDoc reads capbridge's own config file, strict JSON. A missing
// file gives an error wrapping [fs.ErrNotExist].
func ReadDoc(path string) (*Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return parseConfigDoc(path, data, false)
}

// ReadClient reads another MCP client's config file: Claude Desktop and
// Cursor keep servers under "mcpServers", VS Code's mcp.json under "servers"
// and its settings.json under "mcp": {"servers"}. Comments and trailing
// commas, which VS Code allows, are accepted.
func ReadClient(path string) (*Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading client config: %w", err)
	}
	return parseConfigDoc(path, stripJSONComments(data), true)
}

// parseConfigDoc finds the server map; only a client's file may be VS Code
// settings, which keep it under "mcp": {"servers"}.
func parseConfigDoc(path string, data []byte, client bool) (*Doc, error) {
	root, err := parseOrderedObject(path, data)
	if err != nil {
		return nil, err
	}
	d := &Doc{Path: path, root: root, serversKey: ServersKeyMCP}
	raw, key := root.values[ServersKeyMCP], ServersKeyMCP
	if raw == nil && root.values[ServersKeyVSCode] != nil {
		raw, key = root.values[ServersKeyVSCode], ServersKeyVSCode
	}
	if raw == nil && client {
		if settings, ok := root.values["mcp"]; ok {
			var mcp struct {
				Servers json.RawMessage `json:"servers"`
			}
			if json.Unmarshal(settings, &mcp) == nil && mcp.Servers != nil {
				raw, key = mcp.Servers, ServersKeyVSCode
			}
		}
	}
	d.serversKey = key
	d.servers = newOrderedObject()
	if raw == nil || string(raw) == "null" {
		return d, nil
	}
	servers, err := decodeOrderedObject(raw)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %q: %w", path, key, err)
	}
	d.servers = servers
	return d, nil
}

// ServersKey returns the key the file keeps its servers under:
// [ServersKeyMCP] or [ServersKeyVSCode].
func (d *Doc) ServersKey() string { return d.serversKey }

// ServerNames returns the configured server names in file order.
func (d *Doc) ServerNames() []string { return append([]string(nil), d.servers.keys...) }

// Server returns one server's definition as it is written in the file.
func (d *Doc) Server(name string) (json.RawMessage, bool) {
	def, ok := d.servers.values[name]
	return def, ok
}

// AddServer adds a server definition; an existing name is [ErrServerExists].
func (d *Doc) AddServer(name string, def json.RawMessage) error {
	if _, ok := d.servers.values[name]; ok {
		return fmt.Errorf("adding server %q: %w", name, ErrServerExists)
	}
	if !json.Valid(def) {
		return fmt.Errorf("adding server %q: definition is not valid JSON", name)
	}
	d.servers.set(name, def)
	return nil
}

// RemoveServer removes a server; an unknown name is [ErrUnknownServer].
func (d *Doc) RemoveServer(name string) error {
	if _, ok := d.servers.values[name]; !ok {
		return fmt.Errorf("removing server %q: %w", name, ErrUnknownServer)
	}
	d.servers.remove(name)
	return nil
}

// ImportReport says what [Doc.Merge] did with each server of the source.
type ImportReport struct {
	Added   []string // new here, copied
	Same    []string // already configured with the same definition
	Clashed []string // already configured with a different definition: skipped
	Loops   []string // would run capbridge itself: skipped
	Invalid []InvalidServer
	// Shadowed are defined in a scope of higher precedence too, whose
	// definition the client runs: skipped (see [ApplyPrecedence]).
	Shadowed []ShadowedServer
	// Unapproved are servers of a project's file that its client would
	// not run: never approved, or turned off (see [ApplyApproval]): skipped.
	Unapproved []UnapprovedServer
	// Included are servers of a project's file that were not approved but
	// that the user named to import all the same.
	Included []string
}

// InvalidServer is a server [Doc.Merge] skipped because capbridge
// could not run it as written.
type InvalidServer struct {
	Name string
	Err  error
}

// Merge copies src's servers that are not configured here, as they are
// written (env and header values included, unexpanded). It overwrites
// nothing, and skips servers that run capbridge itself (self is the path of
// the running binary, or "") and servers [Parse] would refuse.
func (d *Doc) Merge(src *Doc, self string) ImportReport {
	r := ImportReport{Shadowed: src.shadowed, Unapproved: src.unapproved, Included: src.included}
	for _, name := range src.servers.keys {
		def := src.servers.values[name]
		existing, ok := d.servers.values[name]
		switch {
		case RunsCapbridge(def, self):
			r.Loops = append(r.Loops, name)
		case ok && sameServer(existing, def):
			r.Same = append(r.Same, name)
		case ok:
			r.Clashed = append(r.Clashed, name)
		default:
			if err := checkServer(src.Path, name, def); err != nil {
				r.Invalid = append(r.Invalid, InvalidServer{Name: name, Err: err})
				continue
			}
			d.servers.set(name, def)
			r.Added = append(r.Added, name)
		}
	}
	return r
}

// checkServer loads a config holding only this server, as serve would.
func checkServer(path, name string, def json.RawMessage) error {
	if kind := valueKind(def); kind != "an object" {
		return fmt.Errorf("%s: server %q: is %s, not a server definition (an object)", path, name, kind)
	}
	one := newOrderedObject()
	one.set(name, def)
	servers, err := one.marshal()
	if err != nil {
		return err
	}
	cfg, err := Parse(append(append([]byte(`{"mcpServers":`), servers...), '}'), path)
	if err != nil {
		return err
	}
	if e := cfg.Invalid[name]; e != nil {
		return fmt.Errorf("config %s: %w", path, e)
	}
	return nil
}

// RunsCapbridge reports whether a server definition starts the bridge
// itself: its command is named capbridge, or is the file self, and runs
// serve (named, or as the default command). Importing such an entry would
// make the bridge start itself; `capbridge demo-server` is an ordinary server.
func RunsCapbridge(def json.RawMessage, self string) bool {
	var s struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	if json.Unmarshal(def, &s) != nil || s.Command == "" {
		return false
	}
	if len(s.Args) > 0 && s.Args[0] != "serve" && !strings.HasPrefix(s.Args[0], "-") {
		return false
	}
	base := s.Command[strings.LastIndexAny(s.Command, `/\`)+1:] // a Windows path too
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	if base == "capbridge" {
		return true
	}
	if self == "" || !filepath.IsAbs(s.Command) {
		return false
	}
	a, errA := os.Stat(s.Command)
	b, errB := os.Stat(self)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// Marshal returns the file's new contents: indented JSON, keys in their order.
func (d *Doc) Marshal() ([]byte, error) {
	servers, err := d.servers.marshal()
	if err != nil {
		return nil, err
	}
	root := d.root.clone()
	if _, ok := root.values[d.serversKey]; !ok {
		root.keys = append([]string{d.serversKey}, root.keys...)
	}
	root.values[d.serversKey] = servers
	compact, err := root.marshal()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, fmt.Errorf("formatting config: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// Save writes the file atomically (a temporary file renamed over it),
// creating its directory. A new file gets mode 0600, as it may hold secrets;
// an existing one keeps its mode, and a symlink keeps pointing at it.
func (d *Doc) Save() error {
	data, err := d.Marshal()
	if err != nil {
		return fmt.Errorf("writing config %s: %w", d.Path, err)
	}
	path := d.Path
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := writeFileAtomic(path, data, mode); err != nil {
		return fmt.Errorf("writing config %s: %w", d.Path, err)
	}
	return nil
}

func writeFileAtomic(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Client names understood by [ClientSources].
const (
	ClientClaude     = "claude"
	ClientClaudeCode = "claude-code"
	ClientCursor     = "cursor"
	ClientVSCode     = "vscode"
)

// ClientDirs are the directories client config files are found from.
type ClientDirs struct {
	GOOS      string // runtime.GOOS
	Home      string // os.UserHomeDir
	ConfigDir string // os.UserConfigDir: $XDG_CONFIG_HOME, ~/Library/Application Support, %AppData%
	WorkDir   string // the current directory, absolute, for project configs
}

// ClientSources returns where client keeps its MCP servers, existing or
// not, in the order they should be imported: for Claude Code, its scopes
// in order of precedence (local, project, user; see [ApplyPrecedence]). It
// returns nil for an unknown client.
func ClientSources(client string, dirs ClientDirs) []ClientSource {
	var srcs []ClientSource
	file := func(path ...string) { srcs = append(srcs, ClientSource{Path: filepath.Join(path...)}) }
	switch client {
	case ClientClaude:
		file(dirs.ConfigDir, "Claude", "claude_desktop_config.json")
		if dirs.GOOS == "linux" {
			file(dirs.Home, ".config", "Claude", "claude_desktop_config.json")
		}
	case ClientClaudeCode:
		user := filepath.Join(dirs.Home, ".claude.json")
		srcs = append(srcs,
			ClientSource{Path: user, Scope: ScopeLocal, Project: dirs.WorkDir},
			ClientSource{Path: filepath.Join(dirs.WorkDir, ".mcp.json"), Scope: ScopeProject, Approval: ApprovalClaudeCode},
			ClientSource{Path: user, Scope: ScopeUser})
	case ClientCursor:
		file(dirs.Home, ".cursor", "mcp.json")
		srcs = append(srcs, ClientSource{Path: filepath.Join(dirs.WorkDir, ".cursor", "mcp.json"), Approval: ApprovalCursor})
	case ClientVSCode:
		file(dirs.ConfigDir, "Code", "User", "mcp.json")
		file(dirs.ConfigDir, "Code", "User", "settings.json")
		srcs = append(srcs, ClientSource{Path: filepath.Join(dirs.WorkDir, ".vscode", "mcp.json"), Approval: ApprovalVSCode})
	}
	return dedupe(srcs)
}

// dedupe keeps the first of sources that read the same servers: a
// project's file that is the user's own (run in the home directory) is
// read once, as the user's.
func dedupe(srcs []ClientSource) []ClientSource {
	type key struct{ path, scope, project string }
	seen := make(map[key]bool)
	var out []ClientSource
	for _, s := range srcs {
		s.Path = filepath.Clean(s.Path)
		k := key{s.Path, s.Scope, s.Project}
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// sameServer reports whether two mcpServers entries run the same server:
// equal as JSON once the keys that only restate a default are dropped
// (VS Code writes "type": "stdio" beside a command, other clients leave it
// out; an empty args, env or headers, a false disabled say nothing).
func sameServer(a, b json.RawMessage) bool {
	na, oka := withoutDefaults(a)
	nb, okb := withoutDefaults(b)
	if !oka || !okb {
		return sameJSON(a, b)
	}
	return reflect.DeepEqual(na, nb)
}

// withoutDefaults decodes an entry and drops the keys that restate what
// capbridge assumes when they are absent.
func withoutDefaults(raw json.RawMessage) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil || m == nil {
		return nil, false
	}
	empty := func(v any) bool {
		switch v := v.(type) {
		case nil:
			return true
		case []any:
			return len(v) == 0
		case map[string]any:
			return len(v) == 0
		case string:
			return v == ""
		case bool:
			return !v
		}
		return false
	}
	for _, k := range []string{"args", "env", "headers", "cwd", "disabled"} {
		if v, ok := m[k]; ok && empty(v) {
			delete(m, k)
		}
	}
	// The transport a type restates: stdio beside a command, Streamable
	// HTTP beside a url (VS Code spells it "http").
	if t, ok := m["type"].(string); ok {
		_, hasCommand := m["command"]
		_, hasURL := m["url"]
		if (t == TypeStdio && hasCommand) || ((t == TypeHTTP || t == "streamable-http" || t == "streamableHttp") && hasURL && !hasCommand) {
			delete(m, "type")
		}
	}
	return m, true
}

// sameJSON reports whether two JSON values are equal, ignoring key order
// and spacing.
func sameJSON(a, b json.RawMessage) bool {
	var va, vb any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&va) != nil || db.Decode(&vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// orderedObject is a JSON object whose keys keep the order they were read in.
type orderedObject struct {
	keys   []string
	values map[string]json.RawMessage
}

var errNotObject = errors.New("expected a JSON object")

func newOrderedObject() orderedObject {
	return orderedObject{values: make(map[string]json.RawMessage)}
}

// parseOrderedObject reads a whole file that must hold one JSON object,
// locating any mistake to a line and column.
func parseOrderedObject(path string, data []byte) (orderedObject, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset)
			return orderedObject{}, &JSONFileError{Path: path, Line: line, Column: col, Err: err}
		}
		return orderedObject{}, fmt.Errorf("reading %s: %w", path, err)
	}
	if _, ok := v.(map[string]any); !ok {
		start := int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n")))
		line, col := lineCol(data, start+1)
		return orderedObject{}, &JSONFileError{Path: path, Line: line, Column: col, Err: errNotObject}
	}
	return decodeOrderedObject(data)
}

// decodeOrderedObject reads one valid JSON value that should be an object.
func decodeOrderedObject(data []byte) (orderedObject, error) {
	o := newOrderedObject()
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return o, errNotObject
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return o, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return o, err
		}
		o.set(key, raw)
	}
	return o, nil
}

func (o *orderedObject) set(key string, value json.RawMessage) {
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = value
}

func (o *orderedObject) remove(key string) {
	delete(o.values, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o orderedObject) clone() orderedObject {
	c := orderedObject{keys: append([]string(nil), o.keys...), values: make(map[string]json.RawMessage, len(o.values))}
	for k, v := range o.values {
		c.values[k] = v
	}
	return c
}

// marshal writes the object as compact JSON, keys in order, values as they are.
func (o orderedObject) marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(k); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		if err := json.Compact(&b, o.values[k]); err != nil {
			return nil, fmt.Errorf("value of %q: %w", k, err)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// stripJSONComments blanks out // and /* */ comments and trailing commas,
// which VS Code's JSON files allow, keeping every other byte in its place so
// that error positions still point into the original file.
func stripJSONComments(data []byte) []byte {
	out := bytes.Clone(data)
	eachOutsideStrings(out, func(i int) int {
		switch {
		case bytes.HasPrefix(out[i:], []byte("//")):
			end := bytes.IndexByte(out[i:], '\n')
			if end < 0 {
				end = len(out) - i
			}
			blank(out[i : i+end])
			return i + end
		case bytes.HasPrefix(out[i:], []byte("/*")):
			end := bytes.Index(out[i+2:], []byte("*/"))
			stop := len(out)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			blank(out[i:stop])
			return stop
		}
		return i + 1
	})
	eachOutsideStrings(out, func(i int) int {
		rest := bytes.TrimLeft(out[i+1:], " \t\r\n")
		if out[i] == ',' && len(rest) > 0 && (rest[0] == '}' || rest[0] == ']') {
			out[i] = ' '
		}
		return i + 1
	})
	return out
}

// eachOutsideStrings calls visit with the index of every byte outside JSON
// strings; visit returns the index to go on from.
func eachOutsideStrings(data []byte, visit func(i int) int) {
	for i := 0; i < len(data); {
		if data[i] != '"' {
			i = visit(i)
			continue
		}
		for i++; i < len(data) && data[i] != '"'; i++ {
			if data[i] == '\\' {
				i++
			}
		}
		i++
	}
}

// blank replaces every byte but newlines with a space.
func blank(b []byte) {
	for i := range b {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}
