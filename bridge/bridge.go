// Package bridge is the MCP server that shows a model two operations,
// discover_capability and run_capability, with the action handles and the
// indexing behind them.
//
// A [Server] answers both operations from the stored catalog (package store)
// and never shows a provider's own tool definitions to the model:
//
//   - discover_capability ranks the catalog for an intent (package search)
//     and answers a few bounded cards, each with a fresh opaque action id
//     (act_ + 128 random bits, valid 10 minutes, for the session that got it).
//   - run_capability resolves an action id to the exact stored record,
//     refuses it if the provider's schema changed since the card was made,
//     maps aliases back and validates the arguments against the exact schema
//     (package schema), calls the upstream server through [upstream.Pool], and
//     shapes the result into pages that fit the context (package output).
//
// Every answer the bridge writes itself is one compact-JSON TextContent;
// every failure carries isError. [Definitions] returns the two tool
// definitions exactly as tools/list sends them. A Server serves any number
// of sessions: [Server.Serve] on one transport ([NewStdioTransport] for a
// process's stdin and stdout), or [Server.MCP] for Streamable HTTP and
// in-memory transports ([NewHTTPHandler] puts Streamable HTTP behind an
// Origin check, a bearer token and a session cap). Action ids and cursors
// belong to the session they were issued to.
//
// Package config reads the mcpServers file ([config.File]); [Index] fills the
// store from the configured servers; package upstream keeps the client
// sessions ([upstream.Pool]).
package bridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/capbridge/capbridge/output"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a Server. A nil *Options means defaults.
type Options struct {
	// Logger receives the bridge's logs; default: discarded. Never stdout
	// in stdio mode: stdout is the MCP stream.
	Logger *slog.Logger
	// Searcher ranks the catalog; default: search.New over the store.
	Searcher *search.Searcher
	// Upstreams calls the configured servers; default: upstream.NewPool over
	// the config, owned (and closed) by the Server. A caller that passes its
	// own must route its OnToolsChanged to [Server.ToolsChanged].
	Upstreams *upstream.Pool
	// Now is the clock for handle expiry; default time.Now.
	Now func() time.Time
	// Version is reported to clients in serverInfo; default "dev".
	Version string
	// ConfigPoll, when positive and the config was read from a file (or
	// names one in Path), is how often the file is checked; a changed file
	// is re-read and applied with [Server.Reconfigure].
	ConfigPoll time.Duration
}

// Server serves the two operations over any MCP transport.
type Server struct {
	logger     *slog.Logger
	st         *store.Store
	searcher   *search.Searcher
	ups        *upstream.Pool
	ownsUps    bool
	now        func() time.Time
	handles    *handles
	pager      *output.Pager
	validators *validators
	served     servedCards // the cards discoveries serve, sanitized again
	indexer    *indexer
	features   *features      // the prompts, resources and templates offered
	subs       *subscriptions // resource subscriptions passed on
	learner    *learner
	relists    *relister // list_changed notifications, folded into re-lists
	server     *mcp.Server
	calls      chan store.Call    // telemetry waiting for the recorder; closed by Close
	runs       context.Context    // done once CancelRuns is called: runs in flight end
	stopRuns   context.CancelFunc // cancels runs
	stop       context.CancelFunc // cancels the goroutines below
	wg         sync.WaitGroup     // the indexer loop, the telemetry recorder, the learner and the config watcher

	ranMu  sync.Mutex
	ran    map[*mcp.ServerSession]map[string]bool // guarded by ranMu; servers each session ran tools on, for roots/list_changed
	rounds rounds                                 // runs of 2026-07-28 clients waiting for their answers

	mu       sync.Mutex
	cfg      *config.File             // guarded by mu; replaced whole by Reconfigure
	verified map[string]bool          // guarded by mu; servers whose listing was checked since they last changed
	listing  map[string]chan struct{} // guarded by mu; servers being re-listed for a run, closed when done
	records  map[toolKey]*store.Tool  // guarded by mu; stored rows read by runs, dropped when their server is re-indexed
	indexed  uint64                   // guarded by mu; counts re-indexes, so a row read before one is not kept after it
	closed   bool                     // guarded by mu; set by Close, after which calls is closed
}

// maxPageBytes caps the page text kept behind cursors. The pager's own
// default, 64 MiB, is nearly half the 150 MB a bridge serving 5,000 tools
// may use in all (serve holds ~100-120 MB there before any page): the soak
// filled it in three minutes and the heap grew with it. 16 MiB still keeps
// ~250 results of a thousand records, the oldest evicted first.
const maxPageBytes = 16 << 20

// toolKey names one provider tool.
type toolKey struct{ server, tool string }

// New returns a Server over cfg (nil: no servers) and the open store st.
// Close releases what it started.
func New(cfg *config.File, st *store.Store, opts *Options) (*Server, error) {
	if st == nil {
		return nil, errors.New("bridge.New: nil store")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if cfg == nil {
		cfg = &config.File{}
	}
	b := &Server{
		logger:     o.Logger,
		st:         st,
		searcher:   o.Searcher,
		ups:        o.Upstreams,
		now:        o.Now,
		handles:    newHandles(o.Now, nil),
		pager:      output.NewPager(&output.PagerOptions{Now: o.Now, MaxBytes: maxPageBytes}),
		validators: newValidators(),
		cfg:        cfg,
		verified:   make(map[string]bool),
		listing:    make(map[string]chan struct{}),
		records:    make(map[toolKey]*store.Tool),
		calls:      make(chan store.Call, maxPendingCalls),
	}
	if b.searcher == nil {
		b.searcher = search.New(st, &search.Options{Logger: o.Logger})
	}
	if b.ups == nil {
		b.ups = upstream.NewPool(cfg, &upstream.Options{Logger: o.Logger, OnToolsChanged: b.ToolsChanged,
			OnFeaturesChanged: b.FeaturesChanged, OnResourceUpdated: b.ResourceUpdated})
		b.ownsUps = true
	}
	b.runs, b.stopRuns = context.WithCancel(context.Background())
	b.indexer = newIndexer(b)
	b.features = &features{b: b}
	b.subs = &subscriptions{b: b}
	b.learner = newLearner(b.searcher, o.Logger, o.Now)
	b.relists = newRelister(b.indexer.request, o.Logger, RelistInterval)
	b.server = b.newServer(o.Version)

	ctx, stop := context.WithCancel(context.Background())
	b.stop = stop
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.indexer.loop(ctx)
	}()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.recordCalls()
	}()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		// Read once the catalog's check is over, so that a client's first
		// list seldom waits, and go-sdk's sets fill before most sessions
		// (which they would tell of the change) begin.
		b.features.load(ctx)
	}()
	b.wg.Go(func() { b.learner.loop(ctx) })
	if o.ConfigPoll > 0 && cfg.Path != "" {
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			_ = config.Watch(ctx, cfg, o.ConfigPoll, func(next *config.File, err error) { b.configChanged(ctx, next, err) })
		}()
	}
	return b, nil
}

func (b *Server) newServer(version string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "capbridge", Version: version}, &mcp.ServerOptions{
		Logger: sdkLogger(b.logger),
		Instructions: "capbridge connects you to many tools through two: discover_capability finds one for a task " +
			"and run_capability runs it. Discover first whenever a task may need a tool or data you do not have.",
		// Prompts, resources and completions are declared by
		// featuresMiddleware, for what the configured servers offer. go-sdk
		// is told they may be there from the start: it accepts a session's
		// subscriptions/listen for prompts and resources list_changed only
		// while its own capabilities include them, and a session may open
		// that stream before the catalog's prompts are first offered.
		Capabilities: &mcp.ServerCapabilities{
			//lint:ignore SA1019 logging is deprecated by MCP 2026-07-28, still used: servers' log messages of a run are passed on
			Logging:   &mcp.LoggingCapabilities{},
			Prompts:   &mcp.PromptCapabilities{ListChanged: true},
			Resources: &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
		},
		CompletionHandler:  b.complete,
		SubscribeHandler:   b.subs.subscribe,
		UnsubscribeHandler: b.subs.unsubscribe,
		PageSize:           featurePageSize,
		// A client's changed roots reach the servers it ran tools on
		// (see rootsChanged).
		//lint:ignore SA1019 roots are deprecated by MCP 2026-07-28, still used by clients: passed on
		RootsListChangedHandler: b.rootsChanged,
	})
	s.AddReceivingMiddleware(b.featuresMiddleware)
	defs := Definitions()
	s.AddTool(defs[0], b.discover)
	s.AddTool(defs[1], b.run)
	return s
}

// MCP returns the MCP server, for a transport the caller connects
// (mcp.NewStreamableHTTPHandler, in-memory transports).
func (b *Server) MCP() *mcp.Server { return b.server }

// Serve serves one client over t until the client leaves or ctx is done.
// When ctx is done, the runs in flight are cancelled ([Server.CancelRuns])
// and their answers written, within answerWait, before the session ends:
// go-sdk writes no answer once the session is closing.
func (b *Server) Serve(ctx context.Context, t mcp.Transport) error {
	tracked := &drainingTransport{inner: t}
	session, end := context.WithCancel(context.WithoutCancel(ctx))
	defer end()
	stop := context.AfterFunc(ctx, func() {
		b.CancelRuns()
		tracked.waitAnswered(session, answerWait)
		end()
	})
	defer stop()
	if err := b.server.Run(session, tracked); err != nil && ctx.Err() == nil {
		return fmt.Errorf("serving MCP: %w", err)
	}
	return nil
}

// IndexMissing indexes, in the background, every configured server that has
// nothing stored, or was stored from another entry. A discovery that
// arrives meanwhile waits for it, up to the config's discoveryWait, but not
// for a server whose last indexing failed: that one is tried again after
// the others. It returns at once: even finding those servers waits for the
// store (see store.OpenChecking).
func (b *Server) IndexMissing(ctx context.Context) {
	b.indexer.requestMissing()
}

// ToolsChanged is told that server's tool listing changed (on connect or
// notifications/tools/list_changed): its next run is checked against a fresh
// listing and its catalog is re-indexed in the background, at most once a
// [RelistInterval] (see relister).
func (b *Server) ToolsChanged(server string) {
	b.mu.Lock()
	delete(b.verified, server)
	b.mu.Unlock()
	b.relists.changed(server)
}

// FeaturesChanged is told that server's prompts or resources changed
// (notifications/prompts/list_changed, notifications/resources/list_changed):
// they are listed and stored again, and clients are told of the change.
func (b *Server) FeaturesChanged(server string) { b.featuresChanged(server) }

// ResourceUpdated is told that server's resource uri changed
// (notifications/resources/updated): the clients subscribed to it are told.
func (b *Server) ResourceUpdated(server, uri string) { b.subs.updated(server, uri) }

// featurePageSize is how many prompts, resources or templates one list
// page holds; the rest follow behind cursors.
const featurePageSize = 100

// Reconfigure applies a changed config: the upstream manager starts, stops
// or restarts servers, and the servers whose entry is new or changed are
// indexed when their stored catalog is not theirs. A server whose entry is
// as it was is not started, even one whose last indexing failed: an edit
// elsewhere in the file, or a client rewriting it as it was, is no reason
// to start anything.
func (b *Server) Reconfigure(ctx context.Context, cfg *config.File) {
	if cfg == nil {
		cfg = &config.File{}
	}
	b.mu.Lock()
	changed := changedEntries(b.cfg, cfg)
	b.cfg = cfg
	b.verified = make(map[string]bool)
	clear(b.records)
	b.indexed++
	b.mu.Unlock()
	b.ups.Reconfigure(cfg)
	if err := b.features.refresh(ctx); err != nil {
		b.logger.Warn("reading prompts and resources from the catalog failed", "err", err)
	}
	if len(changed) > 0 {
		b.indexer.requestMissing(changed...)
	}
}

// changedEntries returns the enabled servers of next whose entry prev does
// not have enabled as it is.
func changedEntries(prev, next *config.File) []string {
	var changed []string
	for _, name := range next.Enabled() {
		if p, ok := prev.Servers[name]; !ok || p.Disabled || p.Fingerprint() != next.Servers[name].Fingerprint() {
			changed = append(changed, name)
		}
	}
	return changed
}

func (b *Server) config() *config.File {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cfg
}

// Close cancels the runs in flight, stops background work and, when the
// Server started them, the upstream servers (their children are killed).
func (b *Server) Close() error {
	b.stopRuns()
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.calls)
	}
	b.mu.Unlock()
	b.relists.close()
	b.stop()
	b.wg.Wait()
	if b.ownsUps {
		if err := b.ups.Close(); err != nil {
			return fmt.Errorf("closing upstream servers: %w", err)
		}
	}
	return nil
}

// configChanged applies a config file that changed on disk. A file that
// cannot be read keeps the previous config.
func (b *Server) configChanged(ctx context.Context, next *config.File, err error) {
	if errors.Is(err, config.ErrNotFound) {
		// Polled every tick while the file is missing: not worth a warning.
		b.logger.Debug("no config file; keeping the current servers", "err", err)
		return
	}
	if err != nil {
		b.logger.Warn("config changed but cannot be read; keeping the previous one", "err", err)
		return
	}
	b.logger.Info("config changed; reconfiguring", "path", next.Path, "servers", len(next.Servers))
	for _, w := range next.Warnings {
		b.logger.Warn("config", "warning", w)
	}
	b.Reconfigure(ctx, next)
}

// sessionKey names the client session a request came in on: its id when the
// transport has one (Streamable HTTP), else the session itself (stdio,
// in-memory: one session per connection).
func sessionKey(ss *mcp.ServerSession) any {
	if ss == nil {
		return nil
	}
	if id := ss.ID(); id != "" {
		return id
	}
	return ss
}
