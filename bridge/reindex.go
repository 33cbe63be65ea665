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
// newly configured ones, and servers whose listing changed. Discoveries wait
// for a round in progress (bounded), so they see the new cards.
type indexer struct {
	b    *Server
	wake chan struct{} // buffered 1: a request is pending

	mu      sync.Mutex
	pending map[string]bool // guarded by mu; servers asked for since the last round started
	missing bool            // guarded by mu; the next round first finds servers with nothing stored
	running []string        // guarded by mu; the servers of the round in progress
	idle    chan struct{}   // guarded by mu; closed when nothing is pending or running
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

// requestMissing asks the next round to index every configured server
// that has nothing stored. Finding them reads the store, which may wait for
// its start-up check: the round does it, so the caller does not wait, and
// discoveries wait for the round as for any other.
func (x *indexer) requestMissing() {
	x.mu.Lock()
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
		missing := x.missing
		x.missing = false
		x.running = names
		x.mu.Unlock()
		if missing {
			names = append(names, x.findMissing(ctx, names)...)
			sort.Strings(names)
			x.mu.Lock()
			x.running = names
			x.mu.Unlock()
		}
		x.index(ctx, names)

		x.mu.Lock()
		x.running = nil
		if len(x.pending) == 0 && !x.missing {
			select {
			case <-x.idle:
			default:
				close(x.idle)
			}
		}
		x.mu.Unlock()
	}
}

// findMissing returns the configured servers with nothing stored that
// are not among names already.
func (x *indexer) findMissing(ctx context.Context, names []string) []string {
	need, err := NeedsIndex(ctx, x.b.config(), x.b.st)
	if ctx.Err() != nil {
		return nil // the bridge is closing: nothing is wrong
	}
	if err != nil {
		x.b.logger.Warn("cannot tell which servers need indexing", "err", err)
		return nil
	}
	need = slices.DeleteFunc(need, func(s string) bool { return slices.Contains(names, s) })
	if len(need) > 0 {
		x.b.logger.Info("indexing servers with no stored catalog", "servers", need)
	}
	return need
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
