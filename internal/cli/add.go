package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/capbridge/capbridge/bridge/config"
)

var addHelp = commandHelp{
	usage: []string{
		"add NAME [--config FILE] [--env K=V]... [--cwd DIR] -- COMMAND [ARG...]",
		"add NAME [--config FILE] --url URL [--header 'K: V']... [--sse]",
	},
	about: `Adds one MCP server to capbridge's config file, creating the file (mode 0600)
and its directory when needed. Everything else in the file is kept as it is.

A local server is a command capbridge starts and speaks to over stdio; put it
after --. A remote server is a URL speaking Streamable HTTP (or, with --sse,
the older HTTP+SSE transport). Values may name environment variables as
${VAR}; they are expanded when the server starts, never written expanded.

Adding a name that is already configured is an error: remove it first.`,
	examples: []string{
		"capbridge add files -- npx -y @modelcontextprotocol/server-filesystem ~/notes",
		"capbridge add github --env 'GITHUB_TOKEN=${GITHUB_TOKEN}' -- github-mcp-server stdio",
		"capbridge add remote --url http://127.0.0.1:8080/mcp --header 'Authorization: Bearer ${TOKEN}'",
	},
	tip: "a server's own flags go after --, as in: capbridge add NAME -- COMMAND --its-flag",
}

// serverNamePattern is what `add` accepts as a name: it appears in
// "server/tool" keys and on cards, so it stays plain.
var serverNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// repeated is a flag that may be given many times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ", ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

func runAdd(ctx context.Context, e env) error {
	flags := newFlagSet("add", e)
	configPath := configFlag(flags)
	var envs, headers repeated
	flags.Var(&envs, "env", "set `K=V` in the server's environment (repeatable; V may be ${VAR})")
	cwd := flags.String("cwd", "", "start the server in `DIR`")
	rawURL := flags.String("url", "", "the server's Streamable HTTP endpoint `URL`, instead of a command")
	flags.Var(&headers, "header", "send the HTTP header `'K: V'` (repeatable; V may be ${VAR})")
	sse := flags.Bool("sse", false, "the URL speaks the old HTTP+SSE transport")
	args, done, err := parseFlags(flags, e, addHelp)
	if done {
		return err
	}
	if len(args) == 0 {
		return &usageError{msg: "add needs a server NAME; run 'capbridge add -h'"}
	}
	name, command := args[0], args[1:]
	if !serverNamePattern.MatchString(name) {
		return &usageError{msg: fmt.Sprintf("add: server name %q: use letters, digits, '_', '.' and '-' (at most 64, starting with a letter or digit)", name)}
	}
	def, err := serverDefinition(command, envs, *cwd, *rawURL, headers, *sse)
	if err != nil {
		return err
	}
	self, _ := os.Executable()
	if config.RunsCapbridge(def, self) {
		return &usageError{msg: "add: that command runs capbridge itself; capbridge cannot bridge to itself"}
	}

	path := config.Path(*configPath)
	unlock, err := config.Lock(path)
	if err != nil {
		return fmt.Errorf("add: %w", err)
	}
	defer unlock()
	doc, err := config.ReadDoc(path)
	if errors.Is(err, os.ErrNotExist) {
		doc, err = config.NewDoc(path), nil
	}
	if err != nil {
		return fmt.Errorf("add: %w; fix the file, or point --config at another one", err)
	}
	if err := doc.AddServer(name, def); errors.Is(err, config.ErrServerExists) {
		return fmt.Errorf("add: server %q is already in %s; to replace it, run 'capbridge remove %s' and add it again", name, path, name)
	} else if err != nil {
		return fmt.Errorf("add: %w", err)
	}
	if err := doc.Save(); err != nil {
		return fmt.Errorf("add: %w", err)
	}
	fmt.Fprintf(e.stdout, "Added server %q to %s.\n", name, path)
	if len(command) > 0 {
		if _, err := exec.LookPath(command[0]); err != nil {
			fmt.Fprintf(e.stderr, "note: %s was not found here (%v); capbridge serve must be able to start it.\n", command[0], err)
		}
	}
	fmt.Fprintf(e.stdout, "Next: 'capbridge index %s' lists and stores its tools now ('capbridge serve' also does it at start).\n", name)
	return nil
}

// serverDefinition builds the config entry for a command or a URL.
func serverDefinition(command, envs []string, cwd, rawURL string, headers []string, sse bool) (json.RawMessage, error) {
	switch {
	case len(command) > 0 && rawURL != "":
		return nil, &usageError{msg: "add: give either a command after -- or --url, not both"}
	case len(command) == 0 && rawURL == "":
		return nil, &usageError{msg: "add: give the server's command after --, or its --url; run 'capbridge add -h'"}
	case rawURL != "" && (len(envs) > 0 || cwd != ""):
		return nil, &usageError{msg: "add: --env and --cwd apply to a command, not to --url"}
	case rawURL == "" && (len(headers) > 0 || sse):
		return nil, &usageError{msg: "add: --header and --sse apply to --url, not to a command"}
	}
	if rawURL != "" {
		return urlDefinition(rawURL, headers, sse)
	}
	entry := struct {
		Command string            `json:"command"`
		Args    []string          `json:"args,omitempty"`
		Env     map[string]string `json:"env,omitempty"`
		Cwd     string            `json:"cwd,omitempty"`
	}{Command: command[0], Args: command[1:]}
	for _, kv := range envs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, &usageError{msg: fmt.Sprintf("add: --env %q: want K=V", kv)}
		}
		if entry.Env == nil {
			entry.Env = make(map[string]string)
		}
		entry.Env[k] = v
	}
	if cwd != "" {
		abs, err := filepath.Abs(cwd)
		if err != nil {
			return nil, fmt.Errorf("add: --cwd %s: %w", cwd, err)
		}
		entry.Cwd = abs
	}
	return marshalEntry(entry)
}

func urlDefinition(rawURL string, headers []string, sse bool) (json.RawMessage, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &usageError{msg: fmt.Sprintf("add: --url %q: want an http:// or https:// URL with a host", rawURL)}
	}
	entry := struct {
		Type    string            `json:"type,omitempty"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers,omitempty"`
	}{URL: rawURL}
	if sse {
		entry.Type = "sse"
	}
	for _, kv := range headers {
		k, v, ok := strings.Cut(kv, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, &usageError{msg: fmt.Sprintf("add: --header %q: want 'Name: value'", kv)}
		}
		if entry.Headers == nil {
			entry.Headers = make(map[string]string)
		}
		entry.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return marshalEntry(entry)
}

// marshalEntry writes a config entry as JSON without escaping <, > and &.
func marshalEntry(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("add: encoding the server entry: %w", err)
	}
	return bytes.TrimSpace(b.Bytes()), nil
}
