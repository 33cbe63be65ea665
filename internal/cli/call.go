package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var callHelp = commandHelp{
	usage: []string{"call [--config FILE] [--db FILE] [--fields F,...] [--json] [-v] SERVER/TOOL ['PARAMS' | -]"},
	about: `Runs one stored tool the way the bridge runs it for a model, and prints
the answer as the model reads it: run_capability's path in this process,
with the tool's stored schema, validation (needs_input, invalid_params),
aliases, the upstream call (the server is started, then stopped when the
command ends), output shaping and call telemetry (capbridge stats counts
it). PARAMS is one JSON object of the tool's inputs, named as its card
names them ('capbridge search' shows the cards); '-' reads it from stdin;
none runs the tool with no inputs. The exit status is 0 for an answer the
model would read as success and 1 for one with isError (a bridge failure
such as needs_input, or the tool's own error). A result past the token
ceiling ends with a cursor line: cursors belong to the session, which ends
with the command, so narrow a long result with --fields instead.
A tool no discovery would offer (held for review, left out by
tools.allow/deny, of a disabled server) is refused with why. The examples
run on the demo's servers: 'capbridge demo --keep DIR' leaves its config
and catalog in DIR (then set CAPBRIDGE_CONFIG and CAPBRIDGE_DB, or pass
--config and --db).`,
	examples: []string{
		`capbridge call helpdesk/list_tickets`,
		`capbridge call helpdesk/create_ticket '{"subject": "Cannot log in", "description": "The reset link has expired.", "requester": {"name": "Ana Souza", "email": "ana.souza@example.com"}}'`,
		`capbridge call --fields name,type files/list_directory '{"path": "/tmp"}'`,
		`echo '{"path": "/tmp"}' | capbridge call files/list_directory -`,
	},
}

func runCall(ctx context.Context, e env) error {
	fs := newFlagSet("call", e)
	configPath, dbPath := configFlag(fs), dbFlag(fs)
	fields := fs.String("fields", "", "keep only these `F,...` of the result (dot paths), as run_capability's fields")
	asJSON := fs.Bool("json", false, "print the whole tool result (content and isError) as JSON")
	verbose := fs.Bool("verbose", false, "log what the bridge and the server do on stderr")
	alias(fs, "v", "verbose")
	args, done, err := parseFlags(fs, e, callHelp)
	if done {
		return err
	}
	if len(args) == 0 || len(args) > 2 {
		return &usageError{msg: "call needs SERVER/TOOL and at most one PARAMS object, e.g. capbridge call helpdesk/list_tickets '{\"status\": \"open\"}'"}
	}
	server, tool, ok := strings.Cut(args[0], "/")
	if !ok || server == "" || tool == "" {
		return &usageError{msg: fmt.Sprintf("call: %q is not SERVER/TOOL; 'capbridge search INTENT' shows the tools", args[0])}
	}
	var params json.RawMessage
	if len(args) == 2 {
		if params, err = readParams(args[1], e.stdin); err != nil {
			return err
		}
	}

	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	path := config.Path(*configPath)
	cfg, err := config.Load(path)
	if errors.Is(err, config.ErrNotFound) {
		return fmt.Errorf("call: no config at %s; the tool's server must be configured ('capbridge add' or 'capbridge import')", path)
	}
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	dbFile := config.DBPath(*dbPath)
	st, err := openExistingCatalog(ctx, dbFile)
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	if st == nil {
		return fmt.Errorf("call: no catalog at %s; run 'capbridge index' first", dbFile)
	}
	defer st.Close()

	b, err := bridge.New(cfg, st, &bridge.Options{Logger: logger, Version: readBuildVersion().Version})
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	defer b.Close() // stops the server, and writes the call's telemetry
	res, err := callTool(ctx, b, server, tool, params, *fields)
	if err != nil {
		return callRefused(ctx, cfg, st, server, tool, err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else {
		printResult(e.stdout, res)
	}
	if res.IsError {
		return fmt.Errorf("call: %s/%s answered with isError%s", server, tool, statusOf(res))
	}
	return nil
}

// statusOf returns " (STATUS)" for an answer the bridge wrote itself
// (needs_input, invalid_params, upstream_error...), or "" for the tool's
// own error.
func statusOf(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return ""
	}
	var ans struct {
		Status string `json:"status"`
	}
	if json.Unmarshal([]byte(tc.Text), &ans) != nil || ans.Status == "" {
		return ""
	}
	return " (" + ans.Status + ")"
}

// readParams reads PARAMS, or stdin for "-", and checks it is JSON.
func readParams(arg string, stdin io.Reader) (json.RawMessage, error) {
	data := []byte(arg)
	if arg == "-" {
		var err error
		if data, err = io.ReadAll(stdin); err != nil {
			return nil, fmt.Errorf("call: reading PARAMS from stdin: %w", err)
		}
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, &usageError{msg: fmt.Sprintf("call: PARAMS is not JSON (%v); give one object, e.g. '{\"path\": \"/tmp\"}'", err)}
	}
	return json.RawMessage(data), nil
}

// callTool runs server/tool through b as a model's client would: it
// connects a client session in memory, has b issue an action id for the
// tool to that session, and calls run_capability with it.
func callTool(ctx context.Context, b *bridge.Server, server, tool string, params json.RawMessage, fields string) (*mcp.CallToolResult, error) {
	clientT, serverT := mcp.NewInMemoryTransports()
	ss, err := b.MCP().Connect(ctx, serverT, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to the bridge: %w", err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "capbridge-call", Version: readBuildVersion().Version}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to the bridge: %w", err)
	}
	defer cs.Close()
	id, err := b.Action(ctx, ss, server, tool)
	if err != nil {
		return nil, err
	}
	args := map[string]any{"actionId": id}
	if params != nil {
		args["params"] = params
	}
	if fields != "" {
		args["fields"] = strings.Split(fields, ",")
	}
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: bridge.RunTool, Arguments: args})
}

// callRefused explains why server/tool cannot be run, and what to do: the
// nearest configured server or stored tool to a misspelt one, or where to
// look.
func callRefused(ctx context.Context, cfg *config.File, st *store.Store, server, tool string, err error) error {
	name := server + "/" + tool
	switch {
	case errors.Is(err, bridge.ErrHeld):
		return fmt.Errorf("call: %s is held for review: 'capbridge servers' says why, and 'capbridge approve %s' releases it", name, name)
	case cfg.Invalid[server] != nil:
		return fmt.Errorf("call: the config entry of %s is left out: %s", server, cfg.Invalid[server].Reason())
	case errors.Is(err, bridge.ErrOutOfScope):
		s, ok := cfg.Servers[server]
		switch {
		case !ok:
			return fmt.Errorf("call: %s is not a configured server%s", server, suggest(server, configuredNames(cfg)))
		case s.Disabled:
			return fmt.Errorf("call: %s is disabled in %s", server, cfg.Path)
		}
		return fmt.Errorf("call: %s is left out by the tools.allow/deny of %s in %s", name, server, cfg.Path)
	case errors.Is(err, store.ErrNotFound):
		tools, err := st.Tools(ctx, server)
		if err != nil || len(tools) == 0 {
			return fmt.Errorf("call: %s has no stored tools: run 'capbridge index %s'", server, server)
		}
		var names []string
		for _, t := range tools {
			if t.Name == tool && t.Refusal != "" {
				return fmt.Errorf("call: %s was refused at indexing: %s", name, t.Refusal)
			}
			names = append(names, t.Name)
		}
		return fmt.Errorf("call: %s has no stored tool %q%s", server, tool, suggest(tool, names))
	}
	return fmt.Errorf("call: %w", err)
}

// printResult writes a tool result as the model reads it: each text as it
// is, and a line for each other content.
func printResult(w io.Writer, res *mcp.CallToolResult) {
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			fmt.Fprintln(w, c.Text)
		case *mcp.ImageContent:
			fmt.Fprintf(w, "[image %s, %d bytes]\n", c.MIMEType, len(c.Data))
		case *mcp.AudioContent:
			fmt.Fprintf(w, "[audio %s, %d bytes]\n", c.MIMEType, len(c.Data))
		case *mcp.ResourceLink:
			fmt.Fprintf(w, "[resource link %s]\n", c.URI)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				fmt.Fprintf(w, "[resource %s]\n", c.Resource.URI)
			}
		}
	}
}
