package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

var serveHelp = commandHelp{
	usage: []string{"serve [--config FILE] [--db FILE] [--http ADDR] [--log-level LEVEL]"},
	about: `Serves MCP with two tools, discover_capability and run_capability, over
stdio (the default) or Streamable HTTP (--http ADDR). Answers from the stored
catalog at once; configured servers with nothing stored are indexed in the
background, and a discovery meanwhile waits for them (bridge.discoveryWait).
Upstream servers start on the first run_capability that needs them. The
config file is re-read when it changes. stdout carries only MCP; logs go to
stderr, or to bridge.logFile when the config names one. Over HTTP, an address
beyond loopback needs CAPBRIDGE_HTTP_TOKEN, which every request must then
send as "Authorization: Bearer <token>" (so must loopback ones, once set).`,
	examples: []string{
		"capbridge serve",
		"capbridge serve --config ./capbridge.json --db ./catalog.db",
		"capbridge serve --http 127.0.0.1:8930",
		"npx -y @modelcontextprotocol/inspector@2.12.0 --cli capbridge serve --method tools/list",
		"npx -y @modelcontextprotocol/inspector@2.12.0 --cli -e CAPBRIDGE_CONFIG=./capbridge.json capbridge serve \\\n" +
			"    --method tools/call --tool-name discover_capability --tool-arg 'intent=open a ticket'",
	},
}

// configPoll is how often serve checks the config file for changes.
const configPoll = time.Second

func runServe(ctx context.Context, e env) error {
	fs := newFlagSet("serve", e)
	var (
		configFile = configFlag(fs)
		dbFile     = dbFlag(fs)
		httpAddr   = fs.String("http", "", "serve Streamable HTTP on `ADDR` (e.g. 127.0.0.1:8930; port 0 picks one) instead of stdio")
		logLevel   = fs.String("log-level", "info", "log at `LEVEL` and above: debug, info, warn or error")
	)
	args, done, err := parseFlags(fs, e, serveHelp)
	if done {
		return err
	}
	if len(args) > 0 {
		return &usageError{msg: fmt.Sprintf("serve takes no arguments, got %q; run 'capbridge serve -h'", args)}
	}
	if *httpAddr != "" { // before anything starts: a refused address must not listen, even briefly
		if err := bridge.CheckHTTPAddr(*httpAddr, os.Getenv(bridge.HTTPTokenEnv)); err != nil {
			return err
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return &usageError{msg: fmt.Sprintf("--log-level %q: want debug, info, warn or error", *logLevel)}
	}

	limitMemory(os.Getenv)
	if err := keepEnvironPrivate(); err != nil {
		fmt.Fprintln(e.stderr, "capbridge: warning:", err)
	}

	configPath := config.Path(*configFile)
	cfg, cfgErr := config.Load(configPath)
	if errors.Is(cfgErr, config.ErrNotFound) {
		cfg = &config.File{Path: configPath}
	} else if cfgErr != nil {
		return cfgErr
	}
	logger, closeLog, err := serveLogger(cfg.Bridge.LogFile, level, e.stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	if cfgErr != nil {
		logger.Warn("no config file: serving an empty catalog; run `capbridge import` to bring in your MCP servers, or `capbridge add`",
			"path", configPath)
	}
	for _, w := range cfg.Warnings {
		logger.Warn("config", "warning", w)
	}

	// The catalog is checked in the background: initialize and tools/list
	// need none of it, and every catalog read waits for the check. Lean:
	// serve's RSS is what a client's process list shows for it.
	st, err := store.OpenChecking(ctx, config.DBPath(*dbFile), &store.Options{Logger: logger, Lean: leanStore(cfg)})
	if err != nil {
		return fmt.Errorf("opening the catalog: %w", err)
	}
	defer st.Close()
	go reportCheck(ctx, st, logger)
	for _, w := range st.Exposure() {
		logger.Warn(w)
	}

	emb, err := bridge.NewEmbedder(cfg, logger)
	if err != nil {
		logger.Warn("embeddings off; words and trigrams still answer", "err", err)
	}
	b, err := bridge.New(cfg, st, &bridge.Options{
		Logger:     logger,
		Searcher:   search.New(st, &search.Options{Logger: logger, Embedder: emb}),
		Version:    readBuildVersion().Version,
		ConfigPoll: configPoll,
	})
	if err != nil {
		return err
	}
	defer b.Close()
	b.IndexMissing(ctx)

	if *httpAddr != "" {
		h := cfg.Bridge.HTTP
		return serveHTTP(ctx, b, *httpAddr, e.stderr, &bridge.HTTPOptions{Token: os.Getenv(bridge.HTTPTokenEnv),
			AllowedOrigins: h.AllowedOrigins, SessionIdle: h.SessionIdle, MaxSessions: h.MaxSessions, Logger: logger})
	}
	logger.Info("serving MCP over stdio", "servers", len(cfg.Servers))
	// A client that dies leaves stdout with no reader. Go kills a process
	// that writes to such a stdout with SIGPIPE, which would skip stopping
	// the upstream servers; ignored, the write fails with EPIPE instead and
	// the session ends like any other.
	signal.Ignore(syscall.SIGPIPE)
	// Requests read before stdin ends are answered first, within a call's time.
	err = b.Serve(ctx, bridge.NewStdioTransport(e.stdin, e.stdout, cfg.Bridge.CallTimeout+5*time.Second, logger))
	if errors.Is(err, syscall.EPIPE) {
		logger.Info("the client is gone (stdout closed); stopping")
		return nil
	}
	return err
}

// reportCheck logs what the catalog's start-up check found, once it is over.
func reportCheck(ctx context.Context, st *store.Store, logger *slog.Logger) {
	moved, err := st.Checked(ctx)
	switch {
	case err != nil && !errors.Is(err, context.Canceled):
		logger.Error("the catalog cannot be used; discoveries and runs will fail", "path", st.Path(), "err", err)
	case moved != "":
		logger.Warn("the catalog was damaged: moved it aside and rebuilding it from the configured servers",
			"path", st.Path(), "moved_to", moved)
	}
}

// serveMemoryLimit is the soft memory limit serve gives the Go runtime,
// unless GOMEMLIMIT sets one. Left alone, Go lets the heap grow to twice
// its live data and hands freed memory back slowly: a 30-minute
// `capbridge bench --soak` whose live heap held at ~70 MiB kept 180 to 230
// MiB of RSS. With this limit RSS stayed at 126 to 143 MiB from the 6th to
// the 12th minute, against 134 to 172 without. The limit is soft: a larger
// live heap costs more collection, never a failed allocation.
const serveMemoryLimit = 128 << 20

// limitMemory sets serveMemoryLimit unless getenv("GOMEMLIMIT") names
// one (the runtime has applied that one already).
func limitMemory(getenv func(string) string) {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
}

// serveHTTP serves the bridge over Streamable HTTP on addr until ctx is done.
func serveHTTP(ctx context.Context, b *bridge.Server, addr string, stderr io.Writer, opts *bridge.HTTPOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	a := &answering{next: bridge.NewHTTPHandler(b.MCP(), opts)}
	srv := bridge.NewHTTPServer(a, opts)
	fmt.Fprintf(stderr, "capbridge: serving MCP over Streamable HTTP at http://%s/\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving HTTP: %w", err)
	case <-ctx.Done():
	}
	shutdownHTTP(b, srv, a)
	<-done
	return nil
}

// serveLogger logs to file when the config names one, else to stderr.
func serveLogger(file string, level slog.Level, stderr io.Writer) (*slog.Logger, func(), error) {
	opts := &slog.HandlerOptions{Level: level}
	if file == "" {
		return slog.New(slog.NewTextHandler(stderr, opts)), func() {}, nil
	}
	f, err := os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("opening log file: %w", err)
	}
	return slog.New(slog.NewTextHandler(f, opts)), func() { f.Close() }, nil
}

// leanStore reports whether a process serving or indexing cfg should open
// the catalog lean (store.Options.Lean): unless embeddings are configured,
// whose nearest-vector searches read the whole vector table each time and
// are what the memory map pays off for.
func leanStore(cfg *config.File) bool {
	return cfg.Bridge.Embeddings == nil
}
