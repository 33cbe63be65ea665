package cli

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/capbridge/capbridge/bridge"
)

// Bounds of serve --http's shutdown.
const (
	// answerWait bounds the wait for the answers of the calls cancelled at
	// shutdown to go out.
	answerWait = 2 * time.Second
	// shutdownWait bounds http.Server.Shutdown after that.
	shutdownWait = 5 * time.Second
)

// answering counts the HTTP requests being answered that carry messages
// (every method but GET, whose standalone stream stays open as long as its
// session): at shutdown, their answers go out before the sessions end.
type answering struct {
	next   http.Handler
	active atomic.Int64
}

func (a *answering) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		a.active.Add(1)
		defer a.active.Add(-1)
	}
	a.next.ServeHTTP(w, r)
}

// idle waits until no request is being answered, or d has passed.
func (a *answering) idle(d time.Duration) {
	deadline := time.Now().Add(d)
	for a.active.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// shutdownHTTP stops serve --http without waiting for the calls in flight:
// http.Server.Shutdown alone waits for every request in progress, so a long
// upstream call held the exit as long as it ran, and a session's open GET
// stream as long as its client kept it. The calls are cancelled (each
// cancelled upstream and answered cancelled), their answers go out, then
// the sessions end, their streams with them, and the server shuts down.
func shutdownHTTP(b *bridge.Server, srv *http.Server, a *answering) {
	b.CancelRuns()
	a.idle(answerWait)
	for ss := range b.MCP().Sessions() {
		ss.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
	}
}
