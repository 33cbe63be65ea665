package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/capbridge/capbridge/search"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchProcs starts capbridge itself as child processes (serve, index,
// demo-server): the figures of these rows are the real binary's, measured
// from outside.
type benchProcs struct {
	exe string // this binary
	dir string // temporary files
}

// benchServer is one mcpServers entry of a bench config.
type benchServer struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// demoServer is `capbridge demo-server args...` as an upstream.
func (p benchProcs) demoServer(args ...string) benchServer {
	return benchServer{Command: p.exe, Args: append([]string{"demo-server"}, args...)}
}

// writeConfig writes a config with servers as name.json in the temporary
// directory and returns its path.
func (p benchProcs) writeConfig(name string, servers map[string]benchServer) (string, error) {
	data, err := json.Marshal(map[string]any{"mcpServers": servers, "bridge": map[string]any{"discoveryWait": "60s"}})
	if err != nil {
		return "", fmt.Errorf("writing bench config: %w", err)
	}
	path := filepath.Join(p.dir, name+".json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return "", fmt.Errorf("writing bench config: %w", err)
	}
	return path, nil
}

// writeFeatures writes a demo-server features file (demo.Features) of
// prompts, resources and resource templates, each described in about a
// hundred characters as real servers describe theirs, and returns its path.
func (p benchProcs) writeFeatures(name string, prompts, resources, templates int) (string, error) {
	var f struct {
		Prompts   []map[string]any `json:"prompts"`
		Resources []map[string]any `json:"resources"`
		Templates []map[string]any `json:"templates"`
	}
	for i := range prompts {
		f.Prompts = append(f.Prompts, map[string]any{"name": fmt.Sprintf("%s-prompt-%04d", name, i),
			"description": fmt.Sprintf("Drafts a status summary for project %d from its open tickets and recent commits.", i),
			"arguments":   []map[string]any{{"name": "project", "description": "Project key, e.g. OPS", "required": true}, {"name": "since", "description": "Start date (YYYY-MM-DD)"}}})
	}
	for i := range resources {
		f.Resources = append(f.Resources, map[string]any{"uri": fmt.Sprintf("docs://%s/handbook/%04d.md", name, i), "name": fmt.Sprintf("handbook-%04d.md", i),
			"mimeType": "text/markdown", "description": fmt.Sprintf("Chapter %d of the team handbook: on-call rotation, escalation paths and runbooks.", i)})
	}
	for i := range templates {
		f.Templates = append(f.Templates, map[string]any{"uriTemplate": fmt.Sprintf("tickets://%s/%d/{id}", name, i), "name": fmt.Sprintf("ticket-%d", i),
			"description": "One helpdesk ticket by its id, with its comments."})
	}
	data, err := json.Marshal(f)
	if err != nil {
		return "", fmt.Errorf("writing bench features: %w", err)
	}
	path := filepath.Join(p.dir, name+"-features.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return "", fmt.Errorf("writing bench features: %w", err)
	}
	return path, nil
}

// indexFigures are one finished `capbridge index`.
type indexFigures struct {
	wall    time.Duration
	maxRSS  int64
	stored  int
	refused int
}

var indexedLine = regexp.MustCompile(`indexed (\d+) of (\d+) servers: (\d+) tools stored, (\d+) refused`)

// index runs `capbridge index` on cfg and db and measures it.
func (p benchProcs) index(ctx context.Context, cfg, db string) (indexFigures, error) {
	cmd := exec.CommandContext(ctx, p.exe, "index", "--config", cfg, "--db", db)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	wall, peak, err := RunWatched(cmd)
	f := indexFigures{wall: wall, maxRSS: peak}
	if err != nil {
		return f, fmt.Errorf("capbridge index: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	m := indexedLine.FindStringSubmatch(stderr.String())
	if m == nil || m[1] != m[2] {
		return f, fmt.Errorf("capbridge index did not index every server: %s", strings.TrimSpace(stderr.String()))
	}
	f.stored, _ = strconv.Atoi(m[3])
	f.refused, _ = strconv.Atoi(m[4])
	return f, nil
}

// serve starts `capbridge serve` on cfg and db and connects a client over
// stdio; the caller closes the session, which ends the process.
func (p benchProcs) serve(ctx context.Context, cfg, db string) (*mcp.ClientSession, *exec.Cmd, error) {
	cmd := exec.Command(p.exe, "serve", "--config", cfg, "--db", db, "--log-level", "error")
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "capbridge-bench", Version: "1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("starting capbridge serve: %w", err)
	}
	return cs, cmd, nil
}

// overheadFigures compare a call through the bridge with the same call
// made directly to the upstream.
type overheadFigures struct {
	bridge, direct time.Duration // p50 of each
	calls          int
}

// runOverhead calls helpdesk's get_ticket through `capbridge serve` (client
// -stdio-> bridge -stdio-> demo server) and directly (client -stdio-> demo
// server), interleaved so machine noise falls on both alike.
func (p benchProcs) runOverhead(ctx context.Context, calls int) (overheadFigures, error) {
	f := overheadFigures{calls: calls}
	cfg, err := p.writeConfig("helpdesk", map[string]benchServer{"helpdesk": p.demoServer("--server", "helpdesk")})
	if err != nil {
		return f, err
	}
	db := filepath.Join(p.dir, "helpdesk.db")
	if _, err := p.index(ctx, cfg, db); err != nil {
		return f, err
	}
	bridged, _, err := p.serve(ctx, cfg, db)
	if err != nil {
		return f, err
	}
	defer bridged.Close()
	id, err := discoverID(ctx, bridged, "helpdesk/get_ticket", "helpdesk", "get_ticket")
	if err != nil {
		return f, err
	}
	direct, err := mcp.NewClient(&mcp.Implementation{Name: "capbridge-bench", Version: "1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: exec.Command(p.exe, "demo-server", "--server", "helpdesk")}, nil)
	if err != nil {
		return f, fmt.Errorf("starting the direct demo server: %w", err)
	}
	defer direct.Close()

	args := map[string]any{"ticket_id": "TCK-001042"}
	viaBridge := func() error {
		return toolOK(bridged.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"actionId": id, "params": args}}))
	}
	viaDirect := func() error {
		return toolOK(direct.CallTool(ctx, &mcp.CallToolParams{Name: "get_ticket", Arguments: args}))
	}
	for range 10 { // start the upstream, warm both paths
		if err := viaBridge(); err != nil {
			return f, fmt.Errorf("run through the bridge: %w", err)
		}
		if err := viaDirect(); err != nil {
			return f, fmt.Errorf("direct call: %w", err)
		}
	}
	var viaB, viaD []time.Duration
	for range calls {
		start := time.Now()
		if err := viaBridge(); err != nil {
			return f, fmt.Errorf("run through the bridge: %w", err)
		}
		viaB = append(viaB, time.Since(start))
		start = time.Now()
		if err := viaDirect(); err != nil {
			return f, fmt.Errorf("direct call: %w", err)
		}
		viaD = append(viaD, time.Since(start))
	}
	f.bridge, f.direct = search.Percentile(viaB, 50), search.Percentile(viaD, 50)
	return f, nil
}

// bigFigures are the 5,000-tool catalog's rows.
type bigFigures struct {
	tools            int
	index, refresh   indexFigures
	servePeak        int64 // serve's VmHWM after the discoveries
	runPeak          int64 // serve's VmHWM after a first run on the server
	discoveries      int
	discP50, discP95 time.Duration // over stdio, through the bridge
}

// What the 5,000-tool server offers beside its tools: a catalog's limit
// of prompts and of resources (upstream.CatalogLimits.MaxFeatures), so
// that serve's start and memory are measured with them stored.
const (
	BigPrompts   = 1000
	BigResources = 1000
	BigTemplates = 100
)

// bigCatalog indexes one demo server of n synthetic tools (and the
// prompts, resources and templates above), indexes it again
// (the refresh of an unchanged catalog), then serves it and runs
// discoveries before reading serve's peak RSS.
func (p benchProcs) bigCatalog(ctx context.Context, n, discoveries int) (bigFigures, error) {
	f := bigFigures{tools: n, discoveries: discoveries}
	features, err := p.writeFeatures("big", BigPrompts, BigResources, BigTemplates)
	if err != nil {
		return f, err
	}
	cfg, err := p.writeConfig("big", map[string]benchServer{"big": p.demoServer("--fault", fmt.Sprintf("big-catalog:%d", n), "--features", features)})
	if err != nil {
		return f, err
	}
	db := filepath.Join(p.dir, "big.db")
	if f.index, err = p.index(ctx, cfg, db); err != nil {
		return f, err
	}
	if f.refresh, err = p.index(ctx, cfg, db); err != nil {
		return f, err
	}
	cs, cmd, err := p.serve(ctx, cfg, db)
	if err != nil {
		return f, err
	}
	defer cs.Close()
	var took []time.Duration
	for i := range discoveries {
		intent := builtinIntents[i%len(builtinIntents)]
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "discover_capability", Arguments: map[string]any{"intent": intent, "limit": 5}})
		if err := toolOK(res, err); err != nil {
			return f, fmt.Errorf("discover %q: %w", intent, err)
		}
		took = append(took, time.Since(start))
	}
	f.discP50, f.discP95 = search.Percentile(took, 50), search.Percentile(took, 95)
	// A client lists prompts and resources as it connects (for its menus):
	// the peak counts them served.
	for _, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			return f, fmt.Errorf("prompts/list: %w", err)
		}
	}
	for _, err := range cs.Resources(ctx, nil) {
		if err != nil {
			return f, fmt.Errorf("resources/list: %w", err)
		}
	}
	if f.servePeak, err = ProcStatusBytes(cmd.Process.Pid, "VmHWM"); err != nil {
		return f, err
	}
	// A first run starts the server, and the bridge re-lists and
	// re-indexes its catalog before calling (drift check).
	id, err := discoverID(ctx, cs, "big/billing_export_invoice_00007", "big", "billing_export_invoice_00007")
	if err != nil {
		return f, err
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"actionId": id, "params": map[string]any{"invoice_field_01": "x"}}})
	if err := toolOK(res, err); err != nil {
		return f, fmt.Errorf("first run on the %d-tool server: %w", n, err)
	}
	if f.runPeak, err = ProcStatusBytes(cmd.Process.Pid, "VmHWM"); err != nil {
		return f, err
	}
	return f, nil
}

// replayCatalog indexes a catalog file from scratch, each of its servers
// replayed by its own demo-server child.
func (p benchProcs) replayCatalog(ctx context.Context, catalog string) (servers, tools int, f indexFigures, err error) {
	lines, err := readCatalog(catalog)
	if err != nil {
		return 0, 0, f, err
	}
	abs, err := filepath.Abs(catalog)
	if err != nil {
		return 0, 0, f, err
	}
	entries := map[string]benchServer{}
	for _, l := range lines {
		entries[l.server] = p.demoServer("--catalog", abs, "--server", l.server)
	}
	cfg, err := p.writeConfig("replay", entries)
	if err != nil {
		return 0, 0, f, err
	}
	f, err = p.index(ctx, cfg, filepath.Join(p.dir, "replay.db"))
	return len(entries), len(lines), f, err
}

// discoverID discovers intent and returns the action id of provider's
// tool.
func discoverID(ctx context.Context, cs *mcp.ClientSession, intent, provider, tool string) (string, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "discover_capability", Arguments: map[string]any{"intent": intent, "limit": 5}})
	if err := toolOK(res, err); err != nil {
		return "", fmt.Errorf("discover %q: %w", intent, err)
	}
	var ans struct {
		Matches []struct {
			ActionID string `json:"actionId"`
			Name     string `json:"name"`
			Provider string `json:"provider"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(textOf(res)), &ans); err != nil {
		return "", fmt.Errorf("discover %q: %w", intent, err)
	}
	for _, m := range ans.Matches {
		if m.Provider == provider && m.Name == tool {
			return m.ActionID, nil
		}
	}
	return "", fmt.Errorf("discover %q: no %s/%s card", intent, provider, tool)
}

// toolOK turns a failed call or an isError result into an error.
func toolOK(res *mcp.CallToolResult, err error) error {
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("tool error: %.300s", textOf(res))
	}
	return nil
}

// textOf joins a result's text contents.
func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
