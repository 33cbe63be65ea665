package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

var indexHelp = commandHelp{
	usage: []string{"index [--config FILE] [--db FILE] [-v] [SERVER...]"},
	about: `Connects to the configured MCP servers (every enabled one, or the ones named),
lists every page of their tools and stores the catalogs for discovery. Prints
one line per server on stderr: tools stored, tools refused by the limits,
catalog bytes and time, or why the server failed.

A server that fails is marked failing (its earlier catalog, if any, stays
searchable) and the others are indexed all the same; the exit status is then
1. Indexing every server also drops the catalogs of servers no longer
configured.`,
	examples: []string{
		"capbridge index",
		"capbridge index github files",
		"capbridge index --config .vscode/mcp.json --db /tmp/catalog.db",
	},
}

func runIndex(ctx context.Context, e env) error {
	flags := newFlagSet("index", e)
	configPath := configFlag(flags)
	dbPath := dbFlag(flags)
	verbose := flags.Bool("verbose", false, "log what the servers do (their stderr included) on stderr")
	alias(flags, "v", "verbose")
	names, done, err := parseFlags(flags, e, indexHelp)
	if done {
		return err
	}
	if err := keepEnvironPrivate(); err != nil {
		fmt.Fprintln(e.stderr, "capbridge: warning:", err)
	}
	path := config.Path(*configPath)
	cfg, err := config.Load(path)
	if errors.Is(err, config.ErrNotFound) {
		return fmt.Errorf("no config at %s; create one with 'capbridge import claude' (or cursor, vscode, FILE) or 'capbridge add NAME -- COMMAND'", path)
	}
	if err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		if len(names) == 0 && leftOut(cfg, w) {
			continue // its line among the servers' says it
		}
		fmt.Fprintln(e.stderr, "capbridge: warning:", w)
	}
	configured := configuredNames(cfg)
	for _, n := range names {
		if bad := cfg.Invalid[n]; bad != nil {
			return fmt.Errorf("index: the entry of server %q in %s is left out: %s", n, path, bad.Reason())
		}
		s, ok := cfg.Servers[n]
		if !ok {
			return &usageError{msg: fmt.Sprintf("index: no server %q in %s%s", n, path, suggest(n, configured))}
		}
		if s.Disabled {
			return fmt.Errorf("index: server %q is disabled in %s", n, path)
		}
	}
	if len(names) == 0 && len(cfg.Enabled()) == 0 {
		fmt.Fprintf(e.stderr, "capbridge: no enabled servers in %s; add one with 'capbridge add NAME -- COMMAND'\n", path)
	}

	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))
	st, moved, err := store.OpenChecked(ctx, config.DBPath(*dbPath), &store.Options{Lean: leanStore(cfg)})
	if err != nil && ctx.Err() != nil {
		return errors.New("index interrupted before any server was indexed")
	}
	if err != nil {
		return err
	}
	defer st.Close()
	for _, w := range st.Exposure() {
		fmt.Fprintln(e.stderr, "capbridge: warning:", w)
	}
	if moved != "" {
		fmt.Fprintf(e.stderr, "capbridge: warning: the catalog %s was damaged; moved it to %s and indexing into a new one\n", st.Path(), moved)
	}
	emb, err := bridge.NewEmbedder(cfg, logger)
	if err != nil {
		fmt.Fprintf(e.stderr, "capbridge: warning: %v; indexing without embeddings\n", err)
	}
	ups := upstream.NewPool(cfg, &upstream.Options{Logger: logger})
	defer ups.Close()

	total := len(names)
	if total == 0 {
		total = len(cfg.Enabled())
	}
	results, err := bridge.Index(ctx, cfg, st, ups, names, &bridge.IndexOptions{
		Progress: newProgress(e.stderr, total, "indexing servers:"),
		Logger:   logger,
		Ingest:   &search.IngestOptions{Logger: logger, Embedder: emb},
	})
	if ctx.Err() != nil {
		return interrupted(results, total)
	}
	stored, refused := 0, 0
	for _, r := range results {
		stored += r.Stored
		refused += r.Refused
	}
	if len(results) > 0 {
		fmt.Fprintf(e.stderr, "indexed %d of %d servers: %d tools stored, %d refused\n", len(results)-failedCount(results), len(results), stored, refused)
	}
	return err
}

// interrupted is index's one line when it was stopped (Ctrl-C, SIGTERM):
// how far it got and which servers it did not index, nothing about what
// their processes printed as they were stopped.
func interrupted(results []bridge.IndexResult, total int) error {
	var not []string
	indexed := 0
	for _, r := range results {
		switch {
		case r.Interrupted:
			not = append(not, r.Server)
		case r.Err == nil:
			indexed++
		}
	}
	msg := fmt.Sprintf("index interrupted: %d of %d servers indexed", indexed, total)
	if len(not) > 0 {
		msg += "; not indexed: " + strings.Join(not, ", ")
	}
	return errors.New(msg)
}

func failedCount(results []bridge.IndexResult) int {
	n := 0
	for _, r := range results {
		if r.Err != nil {
			n++
		}
	}
	return n
}

// configuredNames lists cfg's servers, for suggesting a near name: the
// entries left out as invalid too.
func configuredNames(cfg *config.File) []string {
	var names []string
	for n := range cfg.Servers {
		names = append(names, n)
	}
	for n := range cfg.Invalid {
		names = append(names, n)
	}
	return names
}

// leftOut reports whether warning is the one cfg gives for a server entry
// it left out.
func leftOut(cfg *config.File, warning string) bool {
	for _, bad := range cfg.Invalid {
		if warning == bad.Warning() {
			return true
		}
	}
	return false
}
