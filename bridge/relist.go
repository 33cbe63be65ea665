package bridge

import (
	"log/slog"
	"sync"
	"time"
)

// RelistInterval is the least time between two re-lists of one server that
// notifications/tools/list_changed ask for. A server may send thousands of
// them (3,000 made 2,970 re-lists and 635 KB of log): notifications that
// come sooner are folded into one re-list when the interval has passed, so
// the catalog still ends up as the server lists it last.
const RelistInterval = time.Second

// relister folds a server's list_changed notifications into at most one
// re-list a RelistInterval, and logs once that it does, per burst.
type relister struct {
	request  func(servers ...string) // asks for a re-list (the indexer's)
	logger   *slog.Logger
	interval time.Duration

	mu      sync.Mutex
	last    map[string]time.Time   // guarded by mu: when a re-list was last asked for
	waiting map[string]*time.Timer // guarded by mu: a re-list asked for once the interval has passed
	folded  map[string]int         // guarded by mu: notifications folded since the burst began
	closed  bool                   // guarded by mu
}

func newRelister(request func(servers ...string), logger *slog.Logger, interval time.Duration) *relister {
	return &relister{request: request, logger: logger, interval: interval,
		last: map[string]time.Time{}, waiting: map[string]*time.Timer{}, folded: map[string]int{}}
}

// changed is told that server's listing changed. The first notification
// after a quiet interval re-lists at once; later ones wait for the
// interval to pass and are folded into one re-list then.
func (r *relister) changed(server string) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	if _, ok := r.waiting[server]; ok {
		r.folded[server]++
		r.mu.Unlock()
		return
	}
	now := time.Now()
	wait := r.last[server].Add(r.interval).Sub(now)
	if wait <= 0 { // a quiet interval: any burst is over
		r.last[server], r.folded[server] = now, 0
		r.mu.Unlock()
		r.request(server)
		return
	}
	if r.folded[server] == 0 {
		r.logger.Warn("server sends notifications/tools/list_changed faster than the bridge re-lists; re-listing it at most once per interval",
			"server", server, "interval", r.interval)
	}
	r.folded[server]++
	r.waiting[server] = time.AfterFunc(wait, func() { r.fire(server) })
	r.mu.Unlock()
}

// fire re-lists server once the interval has passed.
func (r *relister) fire(server string) {
	r.mu.Lock()
	delete(r.waiting, server)
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.last[server] = time.Now()
	r.mu.Unlock()
	r.request(server)
}

// close stops the re-lists waiting for their interval.
func (r *relister) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for _, t := range r.waiting {
		t.Stop()
	}
	clear(r.waiting)
}
