package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/capbridge/capbridge/schema"
)

// ErrNotFound means the config file does not exist. Load wraps it with
// the path it looked at.
var ErrNotFound = errors.New("no config file")

// Transport types a [Server] may have once loaded.
const (
	TypeStdio = "stdio" // a child process speaking newline-delimited JSON-RPC
	TypeHTTP  = "http"  // Streamable HTTP, falling back to SSE for old servers
	TypeSSE   = "sse"   // the 2024-11-05 HTTP+SSE transport only
)

// Defaults for the bridge section.
const (
	DefaultCallTimeout       = 60 * time.Second
	DefaultIdleShutdown      = 10 * time.Minute
	DefaultDiscoveryWait     = 10 * time.Second
	DefaultStartTimeout      = 60 * time.Second
	DefaultEmbeddingsTimeout = 2 * time.Second
)

// File is capbridge's config file: the upstream servers (the mcpServers map
// Claude Desktop and Cursor use, or VS Code's servers map), the bridge's own
// settings and per-tool output shaping.
type File struct {
	Servers map[string]Server
	Bridge  Bridge
	Output  map[string]Output // keyed "server/tool"
	Path    string            // the file it was read from

	// Invalid are the server entries that cannot be used as written, by
	// name; they are not in Servers, and each is also among the Warnings.
	Invalid map[string]*EntryError

	// Warnings are problems that did not stop loading, such as a ${VAR}
	// that is not set or a server entry left out. They name variables,
	// never values.
	Warnings []string

	stamp fileStamp // the file as it was when read, for Changed
	sum   [32]byte  // the SHA-256 of the file's bytes, for Watch
}

// Bridge holds the bridge's own settings, defaults filled in.
type Bridge struct {
	CallTimeout   time.Duration // bounds each upstream tools/call
	IdleShutdown  time.Duration // an upstream unused this long is stopped
	DiscoveryWait time.Duration // how long a discovery waits for a first index
	StartTimeout  time.Duration // bounds starting a server and its initialize handshake
	LogFile       string        // "" logs to stderr
	Embeddings    *Embeddings
	HTTP          HTTP   // serve --http
	Pinning       string // PinningRisk (default), PinningStrict or PinningOff
	Suspicious    string // SuspiciousHold (default) or SuspiciousStrip
	Results       string // ResultsWarn (default), ResultsStrip or ResultsOff
	// NoLearning turns off learning from use ("learning": false): the
	// tools the model ran for similar requests before are then not lifted,
	// and runs are not learned from (see package bridge's learn.go).
	NoLearning bool
}

// Embeddings names an OpenAI-compatible /v1/embeddings endpoint. Nil
// in [Bridge] means no embeddings.
type Embeddings struct {
	URL       string
	Model     string
	APIKeyEnv string // the environment variable holding the key, never the key
	Timeout   time.Duration
}

// Output shapes one tool's results.
type Output struct {
	Fields    []string
	Strip     *bool // nil: the output stage's default
	MaxTokens int
}

// Server is one upstream server, ${VAR}s expanded.
type Server struct {
	Name     string
	Type     string // TypeStdio, TypeHTTP or TypeSSE
	Command  string
	Args     []string
	Env      map[string]string
	Cwd      string
	URL      string
	Headers  map[string]string
	Disabled bool
	Tools    ToolFilter
	// InheritEnv names variables of capbridge's environment a stdio server
	// gets beside the default set that package upstream gives every one.
	InheritEnv []string
	// OAuth configures signing in to a remote server; nil: the defaults.
	OAuth *OAuth

	// template is the entry as written, before ${VAR} expansion: the
	// fingerprint hashes it so that secrets never feed anything stored.
	template serverFile
	// secrets are the header values and every ${VAR} value expanded into
	// this entry: what the model reads and the logs are scrubbed of them.
	secrets []string
}

// ToolFilter limits which of a server's tools the bridge shows and calls.
// Patterns are path.Match globs; Deny wins over Allow; an empty Allow allows
// all.
type ToolFilter struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// Allows reports whether the server's tool filter lets tool through. The
// globs and the name are compared as [schema.FoldName] folds them (NFKC,
// invisible characters removed, look-alike letters mapped to Latin ones,
// lower case), so a name dressed up as another cannot slip past a deny.
func (s Server) Allows(tool string) bool {
	if len(s.Tools.Deny) == 0 && len(s.Tools.Allow) == 0 {
		return true
	}
	tool = schema.FoldName(tool)
	for _, p := range s.Tools.Deny {
		if ok, _ := path.Match(schema.FoldName(p), tool); ok {
			return false
		}
	}
	if len(s.Tools.Allow) == 0 {
		return true
	}
	for _, p := range s.Tools.Allow {
		if ok, _ := path.Match(schema.FoldName(p), tool); ok {
			return true
		}
	}
	return false
}

// Fingerprint identifies what the server is and which of its tools are
// shown: transport type, command, args, cwd, url and tool filter, as written
// in the file (before ${VAR} expansion). Env and header values are left out,
// so a rotated token does not look like a new server and no secret feeds a
// stored value.
func (s Server) Fingerprint() string {
	t := s.template
	b, _ := json.Marshal(struct {
		Type    string     `json:"type"`
		Command string     `json:"command"`
		Args    []string   `json:"args"`
		Cwd     string     `json:"cwd"`
		URL     string     `json:"url"`
		Tools   ToolFilter `json:"tools"`
	}{s.Type, t.Command, t.Args, t.Cwd, t.URL, s.Tools})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// Enabled returns the names of the servers that are not disabled, sorted.
func (c *File) Enabled() []string {
	var names []string
	for name, s := range c.Servers {
		if !s.Disabled {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// The file as written. Unknown keys are ignored with a warning (keys.go).
type configFile struct {
	// Each server entry is decoded on its own (entry.go), so that a
	// mistake in one leaves the others served.
	MCPServers map[string]json.RawMessage `json:"mcpServers"`
	Servers    map[string]json.RawMessage `json:"servers"` // VS Code's .vscode/mcp.json
	Bridge     bridgeFile                 `json:"bridge"`
	Output     map[string]outputFile      `json:"output"`
}

type serverFile struct {
	Type     string            `json:"type"`
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Disabled bool              `json:"disabled"`
	Tools    ToolFilter        `json:"tools"`

	InheritEnv []string   `json:"inheritEnv"`
	OAuth      *oauthFile `json:"oauth"`
}

type bridgeFile struct {
	CallTimeout   string          `json:"callTimeout"`
	IdleShutdown  string          `json:"idleShutdown"`
	DiscoveryWait string          `json:"discoveryWait"`
	StartTimeout  string          `json:"startTimeout"`
	LogFile       string          `json:"logFile"`
	Embeddings    *embeddingsFile `json:"embeddings"`
	HTTP          *httpFile       `json:"http"`
	Pinning       string          `json:"pinning"`
	Suspicious    string          `json:"suspicious"`
	Results       string          `json:"results"`
	Learning      *bool           `json:"learning"`
}

type embeddingsFile struct {
	URL       string `json:"url"`
	Model     string `json:"model"`
	APIKeyEnv string `json:"apiKeyEnv"`
	Timeout   string `json:"timeout"`
}

type outputFile struct {
	Fields    []string `json:"fields"`
	Strip     *bool    `json:"strip"`
	MaxTokens int      `json:"maxTokens"`
}

// Load reads and checks the config file at path. A missing file is an
// error wrapping [ErrNotFound]; a syntax or type error names the file, line
// and column; a server entry that cannot work names the server.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading config %s: %w", path, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	stamp, err := stampOf(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	cfg, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	cfg.stamp, cfg.sum = stamp, sha256.Sum256(data)
	return cfg, nil
}

// Parse checks config data as Load does; name is used in
// messages and as [File.Path].
func Parse(data []byte, name string) (*File, error) {
	var f configFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("config %s: %w", name, positioned(data, err))
	}
	cfg := &File{
		Path:    name,
		Servers: make(map[string]Server),
		Invalid: make(map[string]*EntryError),
		Output:  make(map[string]Output),
	}
	x := expander{}
	section, entries := "mcpServers", f.MCPServers
	if entries == nil {
		section, entries = "servers", f.Servers
	} else if f.Servers != nil {
		return nil, fmt.Errorf("config %s: both \"mcpServers\" and \"servers\" are set; keep one", name)
	}
	keys := parseServers(cfg, data, section, entries, unknownKeys(data), &x)
	b, err := bridgeConfig(f.Bridge)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", name, err)
	}
	cfg.Bridge = b
	for key, o := range f.Output {
		if o.MaxTokens < 0 {
			return nil, fmt.Errorf("config %s: output %q: maxTokens must not be negative", name, key)
		}
		cfg.Output[key] = Output(o)
	}
	for _, k := range keys {
		cfg.Warnings = append(cfg.Warnings, k.warning())
	}
	for _, srv := range sortedKeys(cfg.Invalid) {
		cfg.Warnings = append(cfg.Warnings, cfg.Invalid[srv].Warning())
	}
	cfg.Warnings = append(cfg.Warnings, x.warnings...)
	cfg.Warnings = append(cfg.Warnings, lookAlikeWarnings(sortedKeys(cfg.Servers))...)
	return cfg, nil
}

func serverConfig(name string, f serverFile, x *expander) (Server, error) {
	if strings.TrimSpace(name) == "" {
		return Server{}, errors.New("the name is empty")
	}
	s := Server{
		Name:     name,
		Command:  x.expand(name, "command", f.Command),
		Cwd:      x.expand(name, "cwd", f.Cwd),
		URL:      x.expand(name, "url", f.URL),
		Disabled: f.Disabled,
		Tools:    f.Tools,
		template: f,
	}
	for _, a := range f.Args {
		s.Args = append(s.Args, x.expand(name, "args", a))
	}
	s.Env = x.expandMap(name, "env", f.Env)
	if err := checkEnvNames(f.InheritEnv); err != nil {
		return s, fmt.Errorf("inheritEnv: %w", err)
	}
	s.InheritEnv = f.InheritEnv
	s.Headers = x.expandMap(name, "headers", f.Headers)
	oauth, err := oauthConfig(name, f.OAuth, x)
	if err != nil {
		return s, err
	}
	s.OAuth = oauth
	s.secrets = append(x.takeExpanded(), mapValues(s.Headers)...)
	if oauth != nil && oauth.ClientSecret != "" {
		s.secrets = append(s.secrets, oauth.ClientSecret)
	}
	for _, p := range append(append([]string(nil), f.Tools.Allow...), f.Tools.Deny...) {
		if _, err := path.Match(p, ""); err != nil {
			return s, fmt.Errorf("tool pattern %q: %w", p, err)
		}
	}
	typ, err := transportType(f)
	if err != nil && !f.Disabled {
		return s, err
	}
	s.Type = typ
	return s, nil
}

// transportType checks that the entry names one way to reach the server and
// returns its type.
func transportType(f serverFile) (string, error) {
	hasCmd, hasURL := f.Command != "", f.URL != ""
	switch {
	case hasCmd && hasURL:
		return "", errors.New(`has both "command" and "url"; keep one`)
	case !hasCmd && !hasURL:
		return "", errors.New(`needs "command" (a local server) or "url" (a remote one)`)
	}
	switch strings.ToLower(f.Type) {
	case "":
		if hasCmd {
			return TypeStdio, nil
		}
		return TypeHTTP, nil
	case "stdio":
		if !hasCmd {
			return "", errors.New(`type "stdio" needs "command"`)
		}
		return TypeStdio, nil
	case "http", "streamable-http", "streamablehttp":
		if !hasURL {
			return "", fmt.Errorf(`type %q needs "url"`, f.Type)
		}
		return TypeHTTP, nil
	case "sse":
		if !hasURL {
			return "", errors.New(`type "sse" needs "url"`)
		}
		return TypeSSE, nil
	}
	return "", fmt.Errorf(`unknown type %q (want "stdio", "http" or "sse")`, f.Type)
}

func bridgeConfig(f bridgeFile) (Bridge, error) {
	b := Bridge{LogFile: f.LogFile, NoLearning: f.Learning != nil && !*f.Learning}
	var err error
	if b.CallTimeout, err = duration("bridge.callTimeout", f.CallTimeout, DefaultCallTimeout); err != nil {
		return b, err
	}
	if b.IdleShutdown, err = duration("bridge.idleShutdown", f.IdleShutdown, DefaultIdleShutdown); err != nil {
		return b, err
	}
	if b.DiscoveryWait, err = duration("bridge.discoveryWait", f.DiscoveryWait, DefaultDiscoveryWait); err != nil {
		return b, err
	}
	if b.StartTimeout, err = duration("bridge.startTimeout", f.StartTimeout, DefaultStartTimeout); err != nil {
		return b, err
	}
	if b.HTTP, err = httpConfig(f.HTTP); err != nil {
		return b, err
	}
	if b.Pinning, err = pinningMode(f.Pinning); err != nil {
		return b, err
	}
	if b.Suspicious, err = suspiciousMode(f.Suspicious); err != nil {
		return b, err
	}
	if b.Results, err = resultsMode(f.Results); err != nil {
		return b, err
	}
	if e := f.Embeddings; e != nil {
		if e.URL == "" {
			return b, errors.New(`bridge.embeddings: "url" is required`)
		}
		timeout, err := duration("bridge.embeddings.timeout", e.Timeout, DefaultEmbeddingsTimeout)
		if err != nil {
			return b, err
		}
		b.Embeddings = &Embeddings{URL: e.URL, Model: e.Model, APIKeyEnv: e.APIKeyEnv, Timeout: timeout}
	}
	return b, nil
}

// duration parses a Go duration ("60s", "10m"); empty means def.
func duration(field, s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a duration (e.g. \"60s\", \"10m\")", field, s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%s: %q must be positive", field, s)
	}
	return d, nil
}

// positioned rewrites a JSON decoding error to say where in data it is.
func positioned(data []byte, err error) error {
	var offset int64
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	case errors.Is(err, io.ErrUnexpectedEOF):
		offset = int64(len(data))
	default:
		return err
	}
	line, col := lineCol(data, offset)
	if typ != nil {
		return fmt.Errorf("line %d, column %d: %q must be %s, not %s", line, col, entryField(data, typ), jsonKind(typ.Type.String()), typ.Value)
	}
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// jsonKind names a Go type of the file structs the way the file spells it,
// keeping encoding/json's Go type names out of config messages.
func jsonKind(goType string) string {
	switch goType {
	case "string":
		return "a string"
	case "[]string":
		return "a list of strings"
	case "map[string]string":
		return "an object of strings"
	case "bool":
		return "true or false"
	case "int":
		return "a whole number"
	}
	return "an object"
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
