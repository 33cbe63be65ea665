package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Errors callers branch on. Failures of a server itself come as
// *Error wrapping one of these or the underlying cause.
var (
	ErrUnknownServer = errors.New("no such server in the config")
	ErrDisabled      = errors.New("server is disabled in the config")
	ErrToolDenied    = errors.New("tool is not allowed by the server's tools.allow/deny")
	ErrExited        = errors.New("server exited")
	ErrTimeout       = errors.New("server did not answer in time")
	ErrBackoff       = errors.New("server failed recently; waiting before restarting it")
	ErrClosed        = errors.New("upstreams are closed")
	// ErrMessageTooLarge: the server sent one message over
	// CatalogLimits.MaxMessageBytes, and its session was dropped.
	ErrMessageTooLarge = errors.New("server sent a message over the size limit")
)

// Error is a failure of one upstream server: it would not start,
// crashed, timed out, or answered a request with an error. Its Error text
// is scrubbed of the server's env and header values and expanded ${VAR}s;
// show that text, not Err's own.
type Error struct {
	Server     string
	Op         string // "start", "list" or "call"
	Err        error
	StderrTail string // the end of a stdio server's stderr, when it died

	redact func(string) string // the server's secrets scrubbed from Error; nil: none
}

func (e *Error) Error() string {
	msg := e.Unredacted()
	if e.redact != nil {
		msg = e.redact(msg)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// CatalogLimits bound what is read from one server's tools/list.
type CatalogLimits struct {
	MaxBytes        int64 // tool objects in all; default 16 MiB
	MaxTools        int   // default 5,000
	MaxPages        int   // default 1,000
	MaxMessageBytes int64 // one JSON-RPC message; default MaxBytes + 1 MiB
	// MaxFeatures bounds each of prompts/list, resources/list and
	// resources/templates/list; default 1,000 objects each.
	MaxFeatures int
	// MaxFeatureBytes bounds the three lists' objects in all; default 4 MiB.
	MaxFeatureBytes int64
}

// Options configure [NewPool]. A nil *Options means
// defaults.
type Options struct {
	Logger *slog.Logger // default: discard
	// OnToolsChanged is called, on a goroutine of its own, when a server
	// sends notifications/tools/list_changed.
	OnToolsChanged func(server string)
	// OnConnected is called, on a goroutine of its own, each time a session
	// with a server starts: its catalog may have changed while it was down.
	OnConnected func(server string)
	// OnFeaturesChanged is called, on a goroutine of its own, when a server
	// sends notifications/prompts/list_changed or
	// notifications/resources/list_changed.
	OnFeaturesChanged func(server string)
	// OnResourceUpdated is called, on a goroutine of its own, when a server
	// sends notifications/resources/updated for uri (see [Pool.Subscribe]).
	OnResourceUpdated func(server, uri string)
	Limits            CatalogLimits
	// StartTimeout bounds starting a server and its MCP handshake (npx
	// may download the server first). Default: the config's
	// bridge.startTimeout (60s).
	StartTimeout time.Duration
	// StopGrace is how long a child gets after stdin closes before SIGTERM,
	// and after SIGTERM before SIGKILL. Default 2s.
	StopGrace time.Duration
	// Secrets holds the sign-ins of remote servers (`capbridge login`).
	// Default: [config.OpenSecrets], asked only when a server wants OAuth.
	Secrets *config.SecretStore
}

func (o *Options) withDefaults() *Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Limits.MaxBytes <= 0 {
		c.Limits.MaxBytes = 16 << 20
	}
	if c.Limits.MaxTools <= 0 {
		c.Limits.MaxTools = 5000
	}
	if c.Limits.MaxPages <= 0 {
		c.Limits.MaxPages = 1000
	}
	if c.Limits.MaxFeatures <= 0 {
		c.Limits.MaxFeatures = 1000
	}
	if c.Limits.MaxFeatureBytes <= 0 {
		c.Limits.MaxFeatureBytes = 4 << 20
	}
	if c.Limits.MaxMessageBytes <= 0 {
		c.Limits.MaxMessageBytes = c.Limits.MaxBytes + 1<<20
	}
	if c.StopGrace <= 0 {
		c.StopGrace = 2 * time.Second
	}
	if c.Secrets == nil {
		store, err := config.OpenSecrets()
		if err != nil {
			c.Logger.Warn("no sign-in to remote servers", "err", err)
		}
		c.Secrets = store
	}
	return &c
}

// Pool keeps one client session per configured server: started on
// first need, stopped when idle, restarted after a crash with backoff, and
// never left running after Close.
type Pool struct {
	opts   *Options
	cancel context.CancelFunc // stops the janitor
	wg     sync.WaitGroup     // the janitor, callbacks and background stops

	mu      sync.Mutex // guards the fields below
	cfg     *config.File
	servers map[string]*upstream // configured servers, disabled ones included
	retired []*upstream          // removed or changed servers still running
	closed  bool
}

// NewPool returns a manager over cfg's servers. Nothing starts until a
// server is first needed.
func NewPool(cfg *config.File, opts *Options) *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	u := &Pool{opts: opts.withDefaults(), cancel: cancel, servers: make(map[string]*upstream)}
	u.Reconfigure(cfg)
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		u.janitor(ctx)
	}()
	return u
}

// Call calls tool on server with args (a JSON object, or nil for none),
// starting the server if needed. The call is bounded by the config's
// callTimeout; a cancelled ctx cancels it upstream. A result with IsError
// set is a result, not an error.
func (u *Pool) Call(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	return u.call(ctx, server, tool, args, false)
}

// CallTask is [Pool.Call] for a tool that must be called as a task (its
// execution.taskSupport is "required"): the server creates the task, and
// the call follows it to its result, within the same timeout.
func (u *Pool) CallTask(ctx context.Context, server, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	return u.call(ctx, server, tool, args, true)
}

func (u *Pool) call(ctx context.Context, server, tool string, args json.RawMessage, asTask bool) (*mcp.CallToolResult, error) {
	up, err := u.lookup(server)
	if err != nil {
		return nil, fmt.Errorf("calling %s/%s: %w", server, tool, err)
	}
	if !up.config().Allows(tool) {
		return nil, fmt.Errorf("calling %s/%s: %w", server, tool, ErrToolDenied)
	}
	return up.call(ctx, tool, args, asTask)
}

// ListTools lists every page of server's tools, starting the server if
// needed. The tools are exactly as the server sent them, allowed or not by
// the config's tool filter; past the catalog limits the listing stops and
// says why in [Listing.Refusal].
func (u *Pool) ListTools(ctx context.Context, server string) (*Listing, error) {
	up, err := u.lookup(server)
	if err != nil {
		return nil, fmt.Errorf("listing tools of %s: %w", server, err)
	}
	return up.listTools(ctx)
}

// Running reports whether server has a live session now.
func (u *Pool) Running(server string) bool {
	u.mu.Lock()
	up := u.servers[server]
	u.mu.Unlock()
	return up != nil && up.running()
}

// Reconfigure switches to cfg. Added servers start on first need; removed
// or disabled ones, and ones whose command, args, env, cwd, url or headers
// changed, are stopped once their calls in flight end (a changed one starts
// again, as configured now, on next use). Others keep running.
func (u *Pool) Reconfigure(cfg *config.File) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed {
		return
	}
	u.cfg = cfg
	next := make(map[string]*upstream, len(cfg.Servers))
	for name, s := range cfg.Servers {
		old := u.servers[name]
		if old != nil && sameConnection(old.config(), s) {
			old.setConfig(s, cfg.Bridge)
			next[name] = old
			continue
		}
		if old != nil {
			old.retire()
			u.retired = append(u.retired, old)
		}
		next[name] = newUpstream(s, cfg.Bridge, u)
	}
	for name, old := range u.servers {
		if _, ok := next[name]; !ok {
			old.retire()
			u.retired = append(u.retired, old)
		}
	}
	u.servers = next
}

// Close stops every server (their process groups included) and waits for
// the manager's goroutines. Calls in flight fail.
func (u *Pool) Close() error {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return nil
	}
	u.closed = true
	all := append([]*upstream(nil), u.retired...)
	for _, up := range u.servers {
		all = append(all, up)
	}
	u.mu.Unlock()
	u.cancel()

	var stops sync.WaitGroup
	for _, up := range all {
		stops.Add(1)
		go func() {
			defer stops.Done()
			up.shutdown()
		}()
	}
	stops.Wait()
	u.wg.Wait()
	return nil
}

func (u *Pool) lookup(server string) (*upstream, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed {
		return nil, ErrClosed
	}
	up := u.servers[server]
	if up == nil {
		return nil, ErrUnknownServer
	}
	if up.config().Disabled {
		return nil, ErrDisabled
	}
	return up, nil
}

// goCallback runs f on a goroutine the manager waits for on Close, unless
// the manager is closed.
func (u *Pool) goCallback(f func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.closed {
		return
	}
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		f()
	}()
}

// janitor stops idle servers, sessions that ended on their own, and retired
// servers whose calls have ended.
func (u *Pool) janitor(ctx context.Context) {
	for {
		u.mu.Lock()
		idle := u.cfg.Bridge.IdleShutdown
		all := append([]*upstream(nil), u.retired...)
		for _, up := range u.servers {
			all = append(all, up)
		}
		u.mu.Unlock()

		for _, up := range all {
			up.reap(time.Now())
		}
		u.mu.Lock()
		u.retired = deleteStopped(u.retired)
		u.mu.Unlock()

		select {
		case <-ctx.Done():
			return
		case <-time.After(min(max(idle/4, 5*time.Millisecond), time.Second)):
		}
	}
}

func deleteStopped(ups []*upstream) []*upstream {
	var keep []*upstream
	for _, up := range ups {
		if up.busy() {
			keep = append(keep, up)
		}
	}
	return keep
}

// lastLines returns the end of s, at most n bytes, starting at a line.
func lastLines(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return "..." + s[i+1:]
		}
	}
	return "..." + s
}
