package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/capbridge/capbridge/search"
	"github.com/capbridge/capbridge/store"
)

// Server states Index records besides [store.StateStored].
const (
	// StateFailing: the last listing failed; LastError says why. A catalog
	// stored before stays searchable.
	StateFailing = "failing"
	// StatePartial: listing stopped at a catalog limit; what was read
	// within it is stored and LastError says which limit.
	StatePartial = "partial"
)

// ErrIndexFailed means one or more servers could not be indexed; the
// others were.
var ErrIndexFailed = errors.New("some servers could not be indexed")

// indexParallel is how many servers are listed at once.
const indexParallel = 4

// IndexOptions configure [Index]. A nil *IndexOptions means defaults.
type IndexOptions struct {
	// Progress receives one line per server as it finishes (stderr for
	// the CLI); nil for none.
	Progress io.Writer
	Logger   *slog.Logger // default: discard
	Ingest   *search.IngestOptions
}

// IndexResult is what indexing did with one server.
type IndexResult struct {
	Server  string
	Stored  int // searchable tools stored
	Refused int // tools refused by the schema limits, stored with reasons
	Hidden  int // tools left out by the config's tools.allow/deny
	Held    int // stored tools, prompts and resources held for review (see capbridge servers)
	// Features counts the prompts, resources and resource templates stored;
	// FeaturesNote says what listing them left out.
	Features     int
	FeaturesNote string
	Bytes        int64 // the catalog's bytes as listed
	Took         time.Duration
	// Refusal says why the listing stopped at a catalog limit; "" if the
	// whole catalog was read.
	Refusal string
	Report  *search.IngestReport // nil when Err is set
	Err     error
	// Interrupted: ctx ended before the server was indexed. Nothing was
	// stored or marked for it, Err is ctx's error, and no progress line is
	// written: what the server printed as it was stopped (EPIPE traces)
	// says nothing about it.
	Interrupted bool

	neighbours string // digest of the other servers' tool names the catalog was read with
}

// Index lists the named servers (all enabled ones when names is empty),
// through ups, and stores their catalogs with search.Ingest. A server that
// fails is marked [StateFailing] with the reason and the others go on;
// Index then returns the results and an error wrapping [ErrIndexFailed].
// Naming a server the config does not have is an error wrapping
// [upstream.ErrUnknownServer] before anything is listed. With names empty,
// stored servers no longer configured (or disabled) are removed from the
// store, and each server entry the config left out ([config.File.Invalid])
// is a failed result whose Err is its [*config.EntryError]; its stored
// catalog, if any, is kept for when the entry is mended. When ctx ends
// first, Index returns the results so far (the rest marked Interrupted)
// and an error wrapping ctx's.
func Index(ctx context.Context, cfg *config.File, st *store.Store, ups *upstream.Pool, names []string, opts *IndexOptions) ([]IndexResult, error) {
	var o IndexOptions
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	all := len(names) == 0
	if all {
		names = cfg.Enabled()
	}
	for _, n := range names {
		if _, ok := cfg.Servers[n]; !ok {
			return nil, fmt.Errorf("indexing %q: %w", n, upstream.ErrUnknownServer)
		}
	}
	if all {
		if _, err := Prune(ctx, cfg, st); err != nil {
			return nil, err
		}
	}

	nn, err := storedNeighbours(ctx, cfg, st)
	if err != nil {
		return nil, err
	}
	results := make([]IndexResult, len(names))
	var progressMu sync.Mutex // guards o.Progress
	index := func(i int) {
		results[i] = indexServer(ctx, cfg.Servers[names[i]], cfg.Bridge, st, ups, nn, &o)
		if o.Progress != nil && !results[i].Interrupted {
			progressMu.Lock()
			fmt.Fprintln(o.Progress, results[i].String())
			progressMu.Unlock()
		}
	}
	g := new(errgroup.Group)
	g.SetLimit(indexParallel)
	for i := range names {
		g.Go(func() error { index(i); return nil })
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return results, fmt.Errorf("indexing interrupted: %w", err)
	}
	// A server read before another's tools were listed in this run is read
	// again, knowing them: its text may name them.
	for i, r := range results {
		if r.Err == nil && r.neighbours != nn.of(r.Server).Digest() {
			index(i)
		}
	}
	if all {
		for _, name := range slices.Sorted(maps.Keys(cfg.Invalid)) {
			r := IndexResult{Server: name, Err: cfg.Invalid[name]}
			if o.Progress != nil {
				fmt.Fprintln(o.Progress, r.String())
			}
			results = append(results, r)
		}
	}

	var failed []string
	for _, r := range results {
		if r.Err != nil {
			failed = append(failed, r.Server)
		}
	}
	if len(failed) > 0 {
		return results, fmt.Errorf("indexing: %d of %d servers failed (%s): %w", len(failed), len(results), strings.Join(failed, ", "), ErrIndexFailed)
	}
	return results, nil
}

func indexServer(ctx context.Context, s config.Server, bc config.Bridge, st *store.Store, ups *upstream.Pool, nn *neighbourNames, o *IndexOptions) IndexResult {
	began := time.Now()
	r := IndexResult{Server: s.Name}
	fail := func(err error) IndexResult {
		r.Err, r.Took = err, time.Since(began)
		if ctx.Err() != nil { // the server did nothing wrong
			r.Err, r.Interrupted = ctx.Err(), true
			return r
		}
		if errors.Is(err, store.ErrLocked) {
			// Another capbridge held the catalog past the busy timeout: the
			// server answered, so it is not failing, and what the other
			// process stores stands. Writing "failing" would need the same
			// lock, and would mark a server stored by the other process.
			o.Logger.Warn("indexing not stored: catalog locked", "server", s.Name, "error", err)
			return r
		}
		o.Logger.Warn("indexing failed", "server", s.Name, "error", err, upstream.StderrAttr(err))
		// capbridge servers shows the reason to a person: with the stderr
		// tail, which the model never reads.
		if serr := st.SetServerState(ctx, s.Name, StateFailing, err.Error()+stderrNote(err)); serr != nil {
			r.Err = errors.Join(err, serr)
		}
		return r
	}
	if s.Disabled {
		return fail(fmt.Errorf("indexing %q: %w", s.Name, upstream.ErrDisabled))
	}
	l, err := ups.ListTools(ctx, s.Name)
	if err != nil {
		return fail(err)
	}
	r.Bytes, r.Refusal = l.Bytes, l.Refusal
	raws, hidden := allowedTools(s, l.Tools)
	r.Hidden = hidden
	srv := store.Server{Name: s.Name, Fingerprint: s.Fingerprint(), Bytes: l.Bytes, State: store.StateStored}
	if l.Refusal != "" {
		srv.State, srv.LastError = StatePartial, l.Refusal
	}
	// The listing is read once more, by Ingest, which may let go of it.
	ingest := search.IngestOptions{Consume: true}
	if o.Ingest != nil {
		ingest = *o.Ingest
		ingest.Consume = true
	}
	_, pinned, err := st.FirstPinned(ctx, s.Name)
	if err != nil {
		return fail(err)
	}
	ingest.Pin = pinRule(bc, s.Name, pinned, o.Logger, time.Now)
	ingest.Neighbours = nn.listed(s.Name, raws)
	r.neighbours = ingest.Neighbours.Digest()
	rep, err := search.Ingest(ctx, st, srv, raws, &ingest)
	if err != nil {
		return fail(err)
	}
	r.Report, r.Stored, r.Refused = rep, rep.Stored, len(rep.Refused)
	if l.Bytes >= largeListing {
		// The listing is garbage now, and it was most of the live heap:
		// left alone, the collector would let the heap grow to twice that
		// before its next cycle, and a serve's peak memory with it.
		runtime.GC()
	}
	// The tools are stored: a server whose prompts and resources cannot be
	// listed keeps them, and its last listing of those.
	if n, note, err := indexFeatures(ctx, s, bc, st, ups, pinned, o.Logger); err != nil {
		if ctx.Err() != nil {
			return fail(err)
		}
		o.Logger.Warn("listing prompts and resources failed; its tools are indexed", "server", s.Name, "err", err)
		r.FeaturesNote = "prompts and resources not listed: " + err.Error()
	} else {
		r.Features, r.FeaturesNote = n, note
	}
	held, err := st.Held(ctx)
	if err != nil {
		return fail(err)
	}
	for _, h := range held {
		if h.Server == s.Name {
			r.Held++
		}
	}
	r.Took = time.Since(began)
	o.Logger.Info("indexed", "server", s.Name, "stored", r.Stored, "refused", r.Refused, "held", r.Held, "bytes", r.Bytes, "took", r.Took)
	return r
}

// allowedTools drops the tools s's filter does not allow. A tool whose name
// cannot be read is kept, for the normalizer to refuse with a reason.
func allowedTools(s config.Server, tools []json.RawMessage) (kept []json.RawMessage, hidden int) {
	if len(s.Tools.Allow) == 0 && len(s.Tools.Deny) == 0 {
		return tools, 0
	}
	for _, raw := range tools {
		var t struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &t) == nil && t.Name != "" && !s.Allows(t.Name) {
			hidden++
			continue
		}
		kept = append(kept, raw)
	}
	return kept, hidden
}

// String is the progress line for the result.
func (r IndexResult) String() string {
	var bad *config.EntryError
	if errors.As(r.Err, &bad) {
		return fmt.Sprintf("%-20s not indexed: its config entry is left out: %s", r.Server, bad.Reason())
	}
	if r.Err != nil {
		return fmt.Sprintf("%-20s failed after %s: %v", r.Server, r.Took.Round(time.Millisecond), r.Err) + stderrNote(r.Err)
	}
	line := fmt.Sprintf("%-20s %d tools stored, %d refused, %s, %s", r.Server, r.Stored, r.Refused, byteSize(r.Bytes), r.Took.Round(time.Millisecond))
	if r.Features > 0 {
		line += fmt.Sprintf(", %d prompts and resources", r.Features)
	}
	if r.Hidden > 0 {
		line += fmt.Sprintf(", %d hidden by tools.allow/deny", r.Hidden)
	}
	if r.Held > 0 {
		line += fmt.Sprintf(", %d held for review (capbridge servers)", r.Held)
	}
	if r.Refusal != "" {
		line += "; " + r.Refusal
	}
	if r.FeaturesNote != "" {
		line += "; prompts and resources left out: " + r.FeaturesNote
	}
	if r.Report != nil && r.Report.EmbedErr != nil {
		line += fmt.Sprintf("; searchable without vectors (embedding failed: %v)", r.Report.EmbedErr)
	}
	return line
}

// byteSize formats n as B, KiB or MiB (one digit), as `capbridge servers`
// does.
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// NewEmbedder returns the embeddings client cfg configures, or nil when it
// configures none. The API key is read from the variable the config names.
func NewEmbedder(cfg *config.File, logger *slog.Logger) (*search.Embedder, error) {
	e := cfg.Bridge.Embeddings
	if e == nil {
		return nil, nil
	}
	opts := search.EmbedderOptions{URL: e.URL, Model: e.Model, Timeout: e.Timeout, Logger: logger}
	if e.APIKeyEnv != "" {
		opts.APIKey = os.Getenv(e.APIKeyEnv)
	}
	emb, err := search.NewEmbedder(opts)
	if err != nil {
		return nil, fmt.Errorf("config %s: bridge.embeddings: %w", cfg.Path, err)
	}
	return emb, nil
}

// NeedsIndex returns the enabled servers of cfg whose catalog is not
// stored, or was stored from a different fingerprint (the command, args,
// url or tool filter changed), sorted.
func NeedsIndex(ctx context.Context, cfg *config.File, st *store.Store) ([]string, error) {
	stored, err := st.Servers(ctx)
	if err != nil {
		return nil, fmt.Errorf("checking stored catalogs: %w", err)
	}
	byName := make(map[string]store.Server, len(stored))
	for _, s := range stored {
		byName[s.Name] = s
	}
	var need []string
	for _, name := range cfg.Enabled() {
		s, ok := byName[name]
		if !ok || s.LastListed.IsZero() || s.Fingerprint != cfg.Servers[name].Fingerprint() {
			need = append(need, name)
		}
	}
	return need, nil
}

// Prune removes from st the servers cfg no longer has enabled, and returns
// their names, sorted. A server whose entry cfg left out as invalid keeps
// its catalog.
func Prune(ctx context.Context, cfg *config.File, st *store.Store) ([]string, error) {
	stored, err := st.Servers(ctx)
	if err != nil {
		return nil, fmt.Errorf("pruning stored catalogs: %w", err)
	}
	var removed []string
	for _, s := range stored {
		if c, ok := cfg.Servers[s.Name]; ok && !c.Disabled {
			continue
		}
		if _, ok := cfg.Invalid[s.Name]; ok {
			continue // a mistake in the entry must not cost its catalog
		}
		if err := st.RemoveServer(ctx, s.Name); err != nil {
			return removed, fmt.Errorf("pruning stored catalogs: %w", err)
		}
		removed = append(removed, s.Name)
	}
	sort.Strings(removed)
	return removed, nil
}

// largeListing is the size of a tool listing past which indexing collects
// the garbage it leaves at once (see indexServer).
const largeListing = 4 << 20
