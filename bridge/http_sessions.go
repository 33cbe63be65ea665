package bridge

import (
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionRetryAfter is the Retry-After of a 503 for a session past the
// cap: the soonest a busy session may be idle is not known, and a tool call
// takes seconds.
const sessionRetryAfter = 5 * time.Second

// sessionIDHeader is the Streamable HTTP header naming a session.
const sessionIDHeader = "Mcp-Session-Id"

// sessionCap bounds the live Streamable HTTP sessions of one handler. go-sdk
// creates a session for every POST without a session id and keeps it until
// the client deletes it or it is idle for the SessionTimeout, with no cap:
// 20,000 initialize-only sessions held 150 MB. A new session past max makes
// room by closing the session idle longest; when every session has a
// request in progress the new one is refused.
type sessionCap struct {
	srv    *mcp.Server
	max    int
	now    func() time.Time
	logger *slog.Logger

	mu      sync.Mutex
	live    map[string]*sessionUse // guarded by mu; sessions opened here, by id (some may have been closed by go-sdk since)
	opening int                    // guarded by mu; requests that may be opening a session now
}

// sessionUse is what the cap knows of a session: whether a POST of it is in
// progress (it is busy) and when the last one ended.
type sessionUse struct {
	busy int
	last time.Time
}

func newSessionCap(srv *mcp.Server, max int, logger *slog.Logger) *sessionCap {
	return &sessionCap{srv: srv, max: max, now: time.Now, logger: logger, live: map[string]*sessionUse{}}
}

// serve passes r to next, keeping count of the sessions it opens and of
// the requests in progress on each.
func (c *sessionCap) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	id := r.Header.Get(sessionIDHeader)
	switch {
	case id != "" && r.Method == http.MethodPost:
		c.begin(id)
		defer c.end(id)
	case id != "" && r.Method == http.MethodDelete:
		defer c.forget(id)
	case id == "" && r.Method == http.MethodPost:
		if !c.reserve() {
			w.Header().Set("Retry-After", strconv.Itoa(int(sessionRetryAfter/time.Second)))
			http.Error(w, "Service Unavailable: every session is busy; try again later", http.StatusServiceUnavailable)
			return
		}
		sw := &sessionWriter{ResponseWriter: w, opened: c.opened}
		defer sw.record()
		w = sw
	}
	next.ServeHTTP(w, r)
}

// sessionWriter tells opened the session id a response carries (or "")
// as its headers go out: before the client knows the id, and so before any
// request of the new session can arrive.
type sessionWriter struct {
	http.ResponseWriter
	opened   func(id string)
	recorded bool
}

func (w *sessionWriter) WriteHeader(code int) {
	w.record()
	w.ResponseWriter.WriteHeader(code)
}

func (w *sessionWriter) Write(p []byte) (int, error) {
	w.record()
	return w.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection's Flush.
func (w *sessionWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *sessionWriter) record() {
	if !w.recorded {
		w.recorded = true
		w.opened(w.Header().Get(sessionIDHeader))
	}
}

func (c *sessionCap) begin(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u := c.live[id]; u != nil {
		u.busy++
	}
}

func (c *sessionCap) end(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u := c.live[id]; u != nil {
		u.busy--
		u.last = c.now()
	}
}

func (c *sessionCap) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.live, id)
}

// opened records the session a POST without a session id opened, if any.
func (c *sessionCap) opened(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.opening--
	if id != "" {
		c.live[id] = &sessionUse{last: c.now()}
	}
}

// reserve makes room for one more session, closing the sessions idle
// longest as needed, and reports false when every session is busy.
func (c *sessionCap) reserve() bool {
	var evict []*mcp.ServerSession
	defer func() {
		// Close waits for the session's requests in progress: one whose
		// client left may still be waiting for its upstream. The new
		// session does not wait for that.
		for _, ss := range evict {
			go ss.Close()
		}
	}()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.live)+c.opening < c.max {
		c.opening++
		return true
	}
	// At the cap: first let go of the sessions go-sdk has closed (idle
	// timeout, a failed initialize, an error) since they were counted.
	open := map[string]*mcp.ServerSession{}
	for ss := range c.srv.Sessions() {
		if id := ss.ID(); id != "" {
			open[id] = ss
		}
	}
	for id := range c.live {
		if open[id] == nil {
			delete(c.live, id)
		}
	}
	for len(c.live)+c.opening >= c.max {
		victim, oldest := "", time.Time{}
		for id, u := range c.live {
			if u.busy == 0 && (victim == "" || u.last.Before(oldest)) {
				victim, oldest = id, u.last
			}
		}
		if victim == "" {
			c.logger.Warn("refused a new HTTP session: every session is busy", "max_sessions", c.max)
			return false
		}
		delete(c.live, victim)
		evict = append(evict, open[victim])
	}
	if len(evict) > 0 {
		c.logger.Info("closed idle HTTP sessions to make room for a new one", "closed", len(evict), "max_sessions", c.max)
	}
	c.opening++
	return true
}
