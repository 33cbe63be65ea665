package bridge

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"
)

// indexer runs the bridge's background indexing, one round at a time, in
// the one goroutine that runs loop: servers with nothing stored at start,
// newly configured or changed ones, and servers whose listing changed.
// Discoveries wait for a round in progress (bounded), so they see the new
// cards; but not for a server whose last indexing failed and is tried
// again: it is indexed after the others, while discoveries answer.
type indexer struct {
	b    *Server
	wake chan struct{} // buffered 1: a request is pending

	mu      sync.Mutex
	pending map[string]bool // guarded by mu; servers asked for since the last round started
	// missing: the next round first finds the servers with nothing stored
	// among missingOf (all configured ones when missingOf is nil).
	missing   bool            // guarded by mu
	missingOf map[string]bool // guarded by mu
	running   []string        // guarded by mu; the servers of the round in progress
	idle      chan struct{}   // guarded by mu; closed when nothing is pending or running but retries
	// waited is the idle channel of a round that a discovery already
	// waited out in vain: later discoveries answer at once instead of
	// waiting for the same hanging start again. Guarded by mu.
	waited chan struct{}
}

func newIndexer(b *Server) *indexer {
	idle := make(chan struct{})
	close(idle)
	return &indexer{b: b, wake: make(chan struct{}, 1), pending: make(map[string]bool), idle: idle}
}

// request asks for servers to be indexed in the next round.
func (x *indexer) request(servers ...string) {
	if len(servers) == 0 {
		return
	}
	x.mu.Lock()
	for _, s := range servers {
		x.pending[s] = true
	}
	x.wakeLocked()
}

// requestMissing asks the next round to index the configured servers
// that have nothing stored (or were stored from another entry), all of
// them, or only those among the given names when some are given. Finding
// them reads the store, which may wait for its start-up check: the round
// does it, so the caller does not wait, and discoveries wait for the round
// as for any other.
func (x *indexer) requestMissing(among ...string) {
	x.mu.Lock()
	switch {
	case len(among) == 0:
		x.missingOf = nil
	case !x.missing || x.missingOf != nil:
		if x.missingOf == nil {
			x.missingOf = make(map[string]bool)
		}
		for _, s := range among {
			x.missingOf[s] = true
		}
	}
	x.missing = true
	x.wakeLocked()
}

// wakeLocked marks the indexer busy and wakes its loop; it unlocks x.mu.
func (x *indexer) wakeLocked() {
	select {
	case <-x.idle:
		x.idle = make(chan struct{})
	default:
	}
	x.mu.Unlock()
	select {
	case x.wake <- struct{}{}:
	default:
	}
}

// wait returns when no indexing is pending or running, after max, or when
// ctx is done, whichever comes first. It reports whether indexing was idle.
// A round is waited out at most once: once a wait for it has timed out,
// later waits for the same round return false at once.
func (x *indexer) wait(ctx context.Context, max time.Duration) bool {
	x.mu.Lock()
	idle, waited := x.idle, x.waited
	x.mu.Unlock()
	select {
	case <-idle:
		return true
	default:
	}
	if idle == waited {
		return false
	}
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		x.mu.Lock()
		if x.idle == idle {
			x.waited = idle
		}
		x.mu.Unlock()
	case <-ctx.Done():
	}
	return false
}

// busy returns the servers being indexed or waiting for it.
func (x *indexer) busy() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	names := slices.Clone(x.running)
	for s := range x.pending {
		if !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	sort.Strings(names)
	return names
}

func (x *indexer) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-x.wake:
		}
		x.mu.Lock()
		names := make([]string, 0, len(x.pending))
		for s := range x.pending {
			names = append(names, s)
		}
		clear(x.pending)
		sort.Strings(names)
		missing, missingOf := x.missing, x.missingOf
		x.missing, x.missingOf = false, nil
		x.running = names
		x.mu.Unlock()
		var retries []string
		if missing {
			var fresh []string
			fresh, retries = x.findMissing(ctx, names, missingOf)
			names = append(names, fresh...)
			sort.Strings(names)
			x.mu.Lock()
			x.running = names
			x.mu.Unlock()
		}
		x.index(ctx, names)

		if len(retries) > 0 {
			// Discoveries do not wait for these: each failed the last time,
			// and may well fail again after a long start.
			x.mu.Lock()
			x.running = retries
			x.idleLocked()
			x.mu.Unlock()
			x.index(ctx, retries)
		}

		x.mu.Lock()
		x.running = nil
		x.idleLocked()
		x.mu.Unlock()
	}
}

// idleLocked closes idle when nothing is pending. Called with mu held.
func (x *indexer) idleLocked() {
	if len(x.pending) > 0 || x.missing {
		return
	}
	select {
	case <-x.idle:
	default:
		close(x.idle)
	}
}

// findMissing returns the configured servers with nothing stored, or
// stored from another entry, that are not among names already (and are
// among of, unless of is nil): fresh ones, and retries, whose last
// indexing failed.
func (x *indexer) findMissing(ctx context.Context, names []string, of map[string]bool) (fresh, retries []string) {
	need, err := NeedsIndex(ctx, x.b.config(), x.b.st)
	if ctx.Err() != nil {
		return nil, nil // the bridge is closing: nothing is wrong
	}
	if err != nil {
		x.b.logger.Warn("cannot tell which servers need indexing", "err", err)
		return nil, nil
	}
	failed := map[string]bool{}
	if stored, err := x.b.st.Servers(ctx); err == nil {
		for _, s := range stored {
			failed[s.Name] = s.State == StateFailing
		}
	}
	for _, s := range need {
		switch {
		case slices.Contains(names, s), of != nil && !of[s]:
		case failed[s] && of == nil:
			retries = append(retries, s)
		default:
			fresh = append(fresh, s)
		}
	}
	if len(fresh) > 0 {
		x.b.logger.Info("indexing servers with no stored catalog", "servers", fresh)
	}
	if len(retries) > 0 {
		x.b.logger.Info("trying again servers whose last indexing failed", "servers", retries)
	}
	return fresh, retries
}

func (x *indexer) index(ctx context.Context, names []string) {
	if len(names) == 0 {
		return
	}
	start := time.Now()
	results, err := Index(ctx, x.b.config(), x.b.st, x.b.ups, names, &IndexOptions{Logger: x.b.logger})
	for _, name := range names {
		x.b.forgetRecords(name)
	}
	if ctx.Err() != nil {
		x.b.logger.Debug("background indexing stopped: the bridge is closing", "servers", names)
		return
	}
	if ferr := x.b.features.refresh(ctx); ferr != nil {
		x.b.logger.Warn("reading prompts and resources from the catalog failed", "err", ferr)
	}
	if err != nil {
		// Index has logged each server's failure once, with its reason.
		var failed []string
		for _, r := range results {
			if r.Err != nil {
				failed = append(failed, r.Server)
			}
		}
		x.b.logger.Info("background indexing done with failures", "servers", names, "failed", failed, "took", time.Since(start))
		return
	}
	x.b.logger.Info("background indexing done", "servers", names, "took", time.Since(start))
}
