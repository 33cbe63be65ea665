package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultPageSize is how many tools one tools/list page holds when
// [Options.PageSize] is zero.
const DefaultPageSize = 1000

// Options configure a demo server. A nil *Options serves an empty catalog.
type Options struct {
	// Tools is the catalog to serve: raw MCP tool objects, sent by tools/list
	// exactly as given. Names must be unique.
	Tools []json.RawMessage
	// Name is the server's implementation name in the initialize answer
	// (default "capbridge-demo").
	Name string
	// Fault makes the server misbehave; see the package documentation.
	Fault Fault
	// StatsTool adds the demo_stats tool, which reports the calls answered
	// per tool.
	StatsTool bool
	// EnvTool adds the demo_env tool, which reports the process's
	// environment variable names, or one variable's value.
	EnvTool bool
	// PageSize is how many tools one tools/list page holds (default
	// [DefaultPageSize]).
	PageSize int
	// Logger receives the server's own log lines (default: discarded). It
	// must not write to the stdout of a stdio server.
	Logger *slog.Logger
	// Exit ends the process for the faults that do (default os.Exit).
	Exit func(code int)
	// Reload, when set, brings catalogs to serve in place of Tools, each
	// as it arrives (see [WatchFile]); clients are notified with
	// notifications/tools/list_changed. The server follows it until it
	// is closed.
	Reload <-chan []json.RawMessage
	// Features, when set, are the prompts, resources and templates the
	// server offers beside its tools (see [Features]).
	Features *Features
	// FeaturesReload, when set, brings Features to serve in place of the
	// current ones, each as it arrives.
	FeaturesReload <-chan *Features

	// flood writes n notifications/tools/list_changed (stdio only; see
	// ServeStdio).
	flood func(n int)
}

// withDefaults returns a copy of opts with every default filled in.
func (opts *Options) withDefaults() Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = "capbridge-demo"
	}
	if o.PageSize <= 0 {
		o.PageSize = DefaultPageSize
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Exit == nil {
		o.Exit = os.Exit
	}
	return o
}

// Serve runs a demo server on t until the client disconnects or ctx ends.
func Serve(ctx context.Context, t mcp.Transport, opts *Options) error {
	srv, err := NewServer(opts)
	if err != nil {
		return err
	}
	if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil {
		return fmt.Errorf("serving demo: %w", err)
	}
	return nil
}

// NewServer returns the MCP server that [Serve] runs, for callers that wire
// transports themselves (one server may serve many sessions; its call
// counter is shared by all of them).
func NewServer(opts *Options) (*mcp.Server, error) {
	o := opts.withDefaults()
	tools := o.Tools
	if o.Fault.Mode == FaultBigCatalog {
		tools = syntheticTools(o.Fault.N)
	}
	if o.StatsTool {
		tools = append(tools[:len(tools):len(tools)], json.RawMessage(statsTool))
	}
	if o.EnvTool {
		tools = append(tools[:len(tools):len(tools)], json.RawMessage(envTool))
	}
	heads, err := readHeads(tools, o.Fault)
	if err != nil {
		return nil, fmt.Errorf("demo catalog: %w", err)
	}
	s := &server{opts: o, tools: tools, heads: heads, calls: map[string]int{}}
	sopts := &mcp.ServerOptions{Logger: o.Logger, PageSize: o.PageSize}
	if o.Features != nil {
		s.feats = &features{s: s, subs: map[string]bool{}}
		sopts.CompletionHandler = s.feats.complete
		sopts.SubscribeHandler = s.feats.subscribe
		sopts.UnsubscribeHandler = s.feats.unsubscribe
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: o.Name, Version: "1.0.0"}, sopts)
	if s.feats != nil {
		s.feats.apply(o.Features)
		if o.FeaturesReload != nil {
			go s.feats.follow(o.FeaturesReload)
		}
	}
	for _, h := range heads {
		s.register(h)
	}
	s.mcp.AddReceivingMiddleware(s.listing, s.cancellations)
	if o.Reload != nil {
		go s.follow(o.Reload)
	}
	o.Logger.Info("demo server ready", "tools", len(tools), "fault", o.Fault.String())
	return s.mcp, nil
}

// server is the state behind one demo [mcp.Server].
type server struct {
	opts Options
	mcp  *mcp.Server

	mu      sync.Mutex
	tools   []json.RawMessage // guarded by mu: the catalog, in listing order
	heads   []toolHead        // guarded by mu: tools[i]'s name and schema
	total   int               // guarded by mu: tools/call requests received
	calls   map[string]int    // guarded by mu: tools/call requests per tool
	changed bool              // guarded by mu: the schema-change fault has fired
	feats   *features         // nil without Options.Features; its fields are guarded by mu
	flooded bool              // guarded by mu: the list-changed-flood fault has fired
	lists   int               // guarded by mu: tools/list requests for a first page
}

// register adds one tool to the SDK server so that it dispatches its calls.
// The SDK never validates: the schema is passed through as raw JSON, and
// tools/list is answered from s.tools by [server.listing].
func (s *server) register(h toolHead) {
	schema := h.InputSchema
	if !isObjectSchema(schema) {
		// AddTool insists on an object schema; what the listing shows
		// stays the catalog's own.
		schema = json.RawMessage(`{"type":"object"}`)
	}
	name := h.Name
	s.mcp.AddTool(&mcp.Tool{Name: name, Description: h.Description, InputSchema: schema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.call(ctx, name, req)
		})
}

func isObjectSchema(schema json.RawMessage) bool {
	// Decoded whole, as AddTool decodes it: a schema it cannot decode (a
	// number past float64, as a hostile catalog has) would make it panic.
	var m map[string]any
	return json.Unmarshal(schema, &m) == nil && m["type"] == "object"
}

// toolsPage is a tools/list answer made of raw tools.
type toolsPage struct {
	mcp.ResultBase
	Tools      []json.RawMessage `json:"tools"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

// listing answers tools/list from the raw catalog, so that every field of a
// tool reaches the client as it was written; other methods pass through.
// CancelledLog is the message the server logs (on stderr for
// `capbridge demo-server`) when a client cancels one of its requests with
// notifications/cancelled, so a test can tell a cancelled call from one
// whose client went away.
const CancelledLog = "request cancelled by the client"

// cancellations logs each notifications/cancelled the client sends.
func (s *server) cancellations(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.CancelledParams); ok && method == "notifications/cancelled" && p != nil {
			s.opts.Logger.Warn(CancelledLog, "request_id", fmt.Sprint(p.RequestID), "reason", p.Reason)
		}
		return next(ctx, method, req)
	}
}

func (s *server) listing(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/list" {
			return next(ctx, method, req)
		}
		var cursor string
		if p, ok := req.GetParams().(*mcp.ListToolsParams); ok && p != nil {
			cursor = p.Cursor
		}
		if cursor == "" {
			s.mu.Lock()
			s.lists++
			s.mu.Unlock()
		}
		return s.page(cursor)
	}
}

// page returns the tools from the offset the cursor names. Cursors are
// decimal offsets; pages-forever wraps around and never stops.
func (s *server) page(cursor string) (*toolsPage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	from := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 || (n > len(s.tools) && s.opts.Fault.Mode != FaultPagesForever) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("invalid cursor %q", cursor)}
		}
		from = n
	}
	res := &toolsPage{Tools: []json.RawMessage{}}
	if len(s.tools) == 0 {
		return res, nil
	}
	if s.opts.Fault.Mode == FaultPagesForever {
		for i := range min(s.opts.PageSize, len(s.tools)) {
			res.Tools = append(res.Tools, s.tools[(from+i)%len(s.tools)])
		}
		res.NextCursor = strconv.Itoa(from + len(res.Tools))
		return res, nil
	}
	to := min(from+s.opts.PageSize, len(s.tools))
	res.Tools = append(res.Tools, s.tools[from:to]...)
	if to < len(s.tools) {
		res.NextCursor = strconv.Itoa(to)
	}
	return res, nil
}
