package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/capbridge/capbridge/output"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var demoHelp = commandHelp{
	usage: []string{"demo [--intent TEXT] [--keep DIR]"},
	about: `Runs the whole flow on the built-in demo catalog with no setup: starts the
demo MCP servers (helpdesk, calendar, crm, files and one oversized tool, each a
real child process of this binary), indexes them into a temporary database,
discovers for a loose intent, runs the chosen card (first without inputs, to
show needs_input, then with them), and prints what the model read against
what registering every tool directly would have cost.`,
	examples: []string{
		"capbridge demo",
		`capbridge demo --intent "what meetings do I have tomorrow"`,
	},
}

// demoServers are the servers of the built-in demo catalog.
var demoServers = []string{"helpdesk", "calendar", "crm", "files", "stress"}

func runDemo(ctx context.Context, e env) error {
	fs := newFlagSet("demo", e)
	intent := fs.String("intent", "open a case for a customer who can't log in", "discover for `TEXT`")
	keep := fs.String("keep", "", "keep the demo's config and database in `DIR` instead of a temporary folder")
	args, done, err := parseFlags(fs, e, demoHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("demo takes no arguments, got %q; run 'capbridge demo -h'", args)}
	}

	dir := *keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "capbridge-demo-"); err != nil {
			return fmt.Errorf("demo: making a temporary folder: %w", err)
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("demo: making %s: %w", dir, err)
	}
	cfg, err := writeDemoConfig(dir)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, filepath.Join(dir, "catalog.db"), nil)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer st.Close()

	w := e.stdout
	fmt.Fprintf(w, "1. Indexing %d demo MCP servers (real child processes) into %s\n", len(cfg.Servers), filepath.Join(dir, "catalog.db"))
	ups := upstream.NewPool(cfg, nil)
	_, err = bridge.Index(ctx, cfg, st, ups, nil, &bridge.IndexOptions{Progress: indent(w)})
	ups.Close()
	if err != nil {
		return fmt.Errorf("demo: indexing: %w", err)
	}

	b, err := bridge.New(cfg, st, nil)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer b.Close()
	serverT, clientT := mcp.NewInMemoryTransports()
	serveCtx, stopServe := context.WithCancel(ctx)
	defer stopServe()
	go func() { _ = b.Serve(serveCtx, serverT) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "capbridge-demo", Version: "1"}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		return fmt.Errorf("demo: connecting to the bridge: %w", err)
	}
	defer cs.Close()

	return demoFlow(ctx, w, cs, st, *intent)
}

// demoFlow plays the model's part against a connected bridge and prints
// every answer it reads, then the context arithmetic.
func demoFlow(ctx context.Context, w io.Writer, cs *mcp.ClientSession, st *store.Store, intent string) error {
	var seen demoSeen
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return fmt.Errorf("demo: tools/list: %w", err)
	}
	defs, _ := json.Marshal(tools.Tools)
	seen.definitions = string(defs)
	fmt.Fprintf(w, "\n2. The model sees %d tools from the bridge: %s (%d bytes of definitions)\n", len(tools.Tools), toolNames(tools.Tools), len(defs))

	fmt.Fprintf(w, "\n3. discover_capability {\"intent\": %q}\n", intent)
	text, _, err := callText(ctx, cs, "discover_capability", map[string]any{"intent": intent})
	if err != nil {
		return err
	}
	seen.discovery = text
	fmt.Fprintf(w, "%s\n", indentJSON(text))
	var found struct {
		Matches []struct {
			ActionID string `json:"actionId"`
			Name     string `json:"name"`
			Provider string `json:"provider"`
			Inputs   []struct {
				Name     string   `json:"name"`
				Type     string   `json:"type"`
				Required bool     `json:"required"`
				Enum     []string `json:"enum"`
			} `json:"inputs"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(text), &found); err != nil || len(found.Matches) == 0 {
		return fmt.Errorf("demo: discovery found nothing for %q", intent)
	}
	top := found.Matches[0]

	fmt.Fprintf(w, "\n4. run_capability {\"actionId\": %q} with no params: the bridge asks instead of guessing\n", top.ActionID)
	text, isErr, err := callText(ctx, cs, "run_capability", map[string]any{"actionId": top.ActionID})
	if err != nil {
		return err
	}
	seen.runs += text
	fmt.Fprintf(w, "%s\n(isError: %v)\n", indentJSON(text), isErr)
	// Play the model: supply what the bridge asked for, and again for any
	// nested input it asks for next (an object it now sees), at most thrice.
	params := map[string]any{}
	step := 4
	for round := 0; isErr && round < 3; round++ {
		missing := missingInputs(text)
		if len(missing) == 0 {
			break
		}
		for _, m := range missing {
			var enum []string
			for _, in := range top.Inputs {
				if in.Name == m.Name {
					enum = in.Enum
				}
			}
			setInput(params, m.Name, demoValue(m.Name, m.Type, enum))
		}
		pj, _ := json.Marshal(params)
		step++
		fmt.Fprintf(w, "\n%d. run_capability {\"actionId\": %q, \"params\": %s}\n", step, top.ActionID, pj)
		if text, isErr, err = callText(ctx, cs, "run_capability", map[string]any{"actionId": top.ActionID, "params": params}); err != nil {
			return err
		}
		seen.runs += text
		fmt.Fprintf(w, "%s\n(isError: %v)\n", indentJSON(text), isErr)
	}

	direct, err := directCost(ctx, st)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d. Context cost (tokens are estimates: characters / 4)\n", step+1)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "what the model reads\tbytes\test. tokens\t\n")
	row := func(label, text string) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", label, len(text), output.EstimateTokens(text))
	}
	row(fmt.Sprintf("every tool registered directly (%d tools), each turn", direct.tools), direct.text)
	row("bridge: the two definitions, each turn", seen.definitions)
	row("bridge: + this discovery", seen.definitions+seen.discovery)
	row("bridge: + both runs", seen.all())
	tw.Flush()
	fmt.Fprintf(w, "\nThe whole exchange through the bridge took %.1f%% of the bytes that direct registration puts in the context on every turn.\n",
		100*float64(len(seen.all()))/float64(max(len(direct.text), 1)))
	fmt.Fprint(w, `
Next, with your own servers:
  capbridge import claude     # or claude-code, cursor, vscode, or a file with an mcpServers map
  capbridge index             # list and store their tools
  capbridge stats             # what the bridge saves you
then point your client at 'capbridge serve' alone (capbridge import prints the snippet).
`)
	return nil
}

// demoSeen is what the model read through the bridge.
type demoSeen struct{ definitions, discovery, runs string }

func (d demoSeen) all() string { return d.definitions + d.discovery + d.runs }

// catalogCost is the tools array a direct tools/list would send.
type catalogCost struct {
	tools int
	text  string
}

// directCost is what tools/list would send for every stored tool: each
// tool object as its server sent it, as compact JSON.
func directCost(ctx context.Context, st *store.Store) (catalogCost, error) {
	rows, err := st.Tools(ctx, "")
	if err != nil {
		return catalogCost{}, fmt.Errorf("demo: reading the catalog: %w", err)
	}
	var (
		c   catalogCost
		all []string
	)
	for _, t := range rows {
		if t.Refusal != "" {
			continue
		}
		rec, err := schema.DecodeRecord(t.Record)
		if err != nil {
			return catalogCost{}, fmt.Errorf("demo: reading %s/%s: %w", t.Server, t.Name, err)
		}
		c.tools++
		all = append(all, string(rec.Raw))
	}
	c.text = "[" + strings.Join(all, ",") + "]"
	return c, nil
}

// missing is one input a needs_input answer asks for: a top-level alias,
// or a JSON Pointer for a nested one.
type missing struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

func missingInputs(answer string) []missing {
	var need struct {
		Status  string    `json:"status"`
		Missing []missing `json:"missing"`
	}
	if json.Unmarshal([]byte(answer), &need) != nil || need.Status != "needs_input" {
		return nil
	}
	return need.Missing
}

// setInput sets params[name], or the nested value a JSON Pointer names,
// making the objects on the way.
func setInput(params map[string]any, name string, v any) {
	if !strings.HasPrefix(name, "/") {
		params[name] = v
		return
	}
	parts := strings.Split(name[1:], "/")
	obj := params
	for _, p := range parts[:len(parts)-1] {
		p = strings.NewReplacer("~1", "/", "~0", "~").Replace(p)
		next, ok := obj[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			obj[p] = next
		}
		obj = next
	}
	obj[strings.NewReplacer("~1", "/", "~0", "~").Replace(parts[len(parts)-1])] = v
}

// demoValue is the value the demo, playing the model, supplies for a
// missing input: an enum's first value, or a plausible value of its type.
func demoValue(name, typ string, enum []string) any {
	if len(enum) > 0 {
		return enum[0]
	}
	switch typ {
	case "integer", "number":
		return 1
	case "boolean":
		return false
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	switch n := strings.ToLower(name); {
	case strings.Contains(n, "email"):
		return "dana.lee@example.com"
	case strings.Contains(n, "subject"), strings.Contains(n, "title"):
		return "Customer cannot log in"
	case strings.Contains(n, "description"), strings.Contains(n, "body"):
		return "Dana Lee reports that password reset emails never arrive and she is locked out."
	}
	return "demo"
}

func callText(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", false, fmt.Errorf("demo: calling %s: %w", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String(), res.IsError, nil
}

func writeDemoConfig(dir string) (*config.File, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("demo: finding this binary: %w", err)
	}
	servers := map[string]any{}
	for _, s := range demoServers {
		servers[s] = map[string]any{"command": exe, "args": []string{"demo-server", "--server", s}}
	}
	data, _ := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return nil, fmt.Errorf("demo: writing %s: %w", path, err)
	}
	return config.Load(path)
}

func toolNames(tools []*mcp.Tool) string {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}

func indentJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return s
	}
	return string(out)
}

// indent returns a writer that prefixes every line written to w.
func indent(w io.Writer) io.Writer { return &prefixWriter{w: w, prefix: "   "} }

type prefixWriter struct {
	w      io.Writer
	prefix string
	mid    bool // inside a line
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		if !p.mid {
			if _, err := io.WriteString(p.w, p.prefix); err != nil {
				return 0, err
			}
		}
		if _, err := io.WriteString(p.w, line); err != nil {
			return 0, err
		}
		p.mid = !strings.HasSuffix(line, "\n")
	}
	return len(b), nil
}
