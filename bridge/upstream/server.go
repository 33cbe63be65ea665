package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Restart backoff after a failed start or a crash: 250ms, doubling, at most
// 30s; reset by a successful call or listing.
const (
	backoffFirst = 250 * time.Millisecond
	backoffMax   = 30 * time.Second
	// maxBackoffWait is the longest a caller waits for the backoff to pass;
	// past it the caller fails at once with ErrBackoff rather than hang.
	maxBackoffWait = 2 * time.Second
)

// upstream is one configured server and its session, if running.
type upstream struct {
	name string
	u    *Pool

	// listMu serializes tools/list on this server, so that the listing tap
	// knows which answer is ours.
	listMu chan struct{}

	mu       sync.Mutex // guards the fields below
	cfg      config.Server
	bridge   config.Bridge
	conn     *conn         // nil when not running
	starting *startAttempt // the start in progress, if any
	failures int           // failed starts and crashes since the last success
	retryAt  time.Time     // no restart before this
	inflight int           // calls and listings using conn
	lastUsed time.Time
	retired  bool            // removed or changed in the config: stop when unused
	subs     map[string]bool // resource URIs subscribed to (see Pool.Subscribe)
	closed   bool            // the manager is closing
}

// startAttempt is one start in progress; callers that find it wait for it.
type startAttempt struct {
	cancel context.CancelFunc // shutdown ends the attempt
	done   chan struct{}
	err    error // set before done closes
}

func newUpstream(s config.Server, b config.Bridge, u *Pool) *upstream {
	return &upstream{name: s.Name, u: u, cfg: s, bridge: b, listMu: make(chan struct{}, 1)}
}

func (up *upstream) config() config.Server {
	up.mu.Lock()
	defer up.mu.Unlock()
	return up.cfg
}

func (up *upstream) setConfig(s config.Server, b config.Bridge) {
	up.mu.Lock()
	defer up.mu.Unlock()
	up.cfg, up.bridge = s, b
}

func (up *upstream) running() bool {
	up.mu.Lock()
	defer up.mu.Unlock()
	return up.conn != nil && !up.conn.ended()
}

// busy reports whether the server still has a session, a start or users.
func (up *upstream) busy() bool {
	up.mu.Lock()
	defer up.mu.Unlock()
	return up.conn != nil || up.starting != nil || up.inflight > 0
}

// acquire returns a live session, starting one if needed, and counts the
// caller as a user until release.
func (up *upstream) acquire(ctx context.Context) (*conn, error) {
	for {
		up.mu.Lock()
		if up.closed || up.retired {
			up.mu.Unlock()
			return nil, up.fail("start", ErrClosed, nil)
		}
		if c := up.conn; c != nil {
			if !c.ended() {
				up.inflight++
				up.mu.Unlock()
				return c, nil
			}
			up.conn = nil
			up.noteFailure()
			up.mu.Unlock()
			c.close(up.u.opts.StopGrace) // before the log: the child is reaped, its status known
			up.u.opts.Logger.Warn("upstream session ended", "server", up.name, "status", c.exitStatus())
			continue
		}
		if a := up.starting; a != nil {
			up.mu.Unlock()
			select {
			case <-a.done:
			case <-ctx.Done():
				return nil, up.fail("start", ctx.Err(), nil)
			}
			if a.err != nil {
				return nil, a.err
			}
			continue
		}
		if wait := time.Until(up.retryAt); wait > 0 {
			failures := up.failures
			up.mu.Unlock()
			limit := maxBackoffWait
			if dl, ok := ctx.Deadline(); ok {
				limit = min(limit, time.Until(dl))
			}
			if wait > limit {
				return nil, up.fail("start", fmt.Errorf("%w (%d failures; next try in %s)", ErrBackoff, failures, wait.Round(time.Millisecond)), nil)
			}
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				return nil, up.fail("start", ctx.Err(), nil)
			}
			continue
		}
		// The start is bounded by the start timeout, and by shutdown.
		sctx, cancel := context.WithTimeout(ctx, up.startTimeoutLocked())
		a := &startAttempt{cancel: cancel, done: make(chan struct{})}
		up.starting = a
		cfg := up.cfg
		up.mu.Unlock()
		defer cancel()
		return up.start(sctx, a, cfg)
	}
}

// start runs one start attempt and publishes its outcome to waiters.
func (up *upstream) start(ctx context.Context, a *startAttempt, cfg config.Server) (*conn, error) {
	began := time.Now()
	c, err := connect(ctx, cfg, up.u.opts, func() {
		if f := up.u.opts.OnToolsChanged; f != nil {
			up.u.goCallback(func() { f(up.name) })
		}
	}, &clientHooks{up: up})
	if err != nil {
		var ue *Error
		if errors.As(err, &ue) {
			ue.redact = cfg.Redact
			ue.StderrTail = cfg.Redact(ue.StderrTail)
		}
	}
	up.mu.Lock()
	up.starting = nil
	a.err = err
	close(a.done)
	if err == nil && (up.closed || up.retired) {
		err = up.fail("start", ErrClosed, nil)
		up.mu.Unlock()
		c.close(up.u.opts.StopGrace)
		return nil, err
	}
	if err != nil {
		up.noteFailure()
		up.mu.Unlock()
		// Whoever asked for the start (indexing, a call) reports the
		// failure; a warning here would say it twice.
		up.u.opts.Logger.Debug("upstream failed to start", "server", up.name, "error", err, StderrAttr(err))
		return nil, err
	}
	up.conn = c
	up.inflight++
	up.lastUsed = time.Now()
	resubscribe := len(up.subs) > 0
	up.mu.Unlock()
	if resubscribe {
		up.u.goCallback(func() { up.resubscribe(context.WithoutCancel(ctx), c) })
	}
	up.u.opts.Logger.Info("upstream started", "server", up.name, "type", cfg.Type, "took", time.Since(began))
	if f := up.u.opts.OnConnected; f != nil {
		up.u.goCallback(func() { f(up.name) })
	}
	return c, nil
}

// release ends a use of c; ok reports that the use succeeded, which resets
// the restart backoff.
func (up *upstream) release(ok bool) {
	up.mu.Lock()
	defer up.mu.Unlock()
	up.inflight--
	up.lastUsed = time.Now()
	if ok {
		up.failures, up.retryAt = 0, time.Time{}
	}
}

// noteFailure pushes the next restart back. Called with mu held.
func (up *upstream) noteFailure() {
	up.failures++
	wait := backoffFirst << min(up.failures-1, 10)
	up.retryAt = time.Now().Add(min(wait, backoffMax))
}

// broken handles an error from a session: when the session has ended (the
// child exited, the connection closed), it drops the session so that the
// next use restarts the server, and returns the error to report.
func (up *upstream) broken(op string, c *conn, err error) error {
	var answered *jsonrpc.Error
	if !errors.As(err, &answered) && signInFailure(err) == nil {
		select { // a session ends just after its calls fail
		case <-c.done:
		case <-time.After(time.Second):
		}
	}
	if !c.ended() {
		return up.fail(op, err, nil)
	}
	up.mu.Lock()
	if up.conn == c {
		up.conn = nil
		up.noteFailure()
	}
	up.mu.Unlock()
	c.close(up.u.opts.StopGrace)
	if reason := c.dropReason(); reason != nil {
		err = fmt.Errorf("session dropped: %w (%w)", reason, err)
	} else if st := c.exitStatus(); st != "" {
		err = fmt.Errorf("%w (%s): %w", ErrExited, st, err)
	} else if !errors.Is(err, ErrExited) {
		err = fmt.Errorf("%w: %w", ErrExited, err)
	}
	ue := up.fail(op, err, c)
	up.u.opts.Logger.Warn("upstream session ended", "server", up.name, "op", op, "error", ue, StderrAttr(ue))
	return ue
}

// fail builds the *Error for op.
func (up *upstream) fail(op string, err error, c *conn) *Error {
	cfg := up.config()
	if se := signInFailure(err); se != nil {
		err = se // the command to run, not the transport's wrapping
	}
	e := &Error{Server: up.name, Op: op, Err: err, redact: cfg.Redact}
	if c != nil {
		e.StderrTail = cfg.Redact(c.stderrTail())
	}
	return e
}

// call runs one tools/call, bounded by the call timeout; asTask: as a
// task, followed to its result (see conn.callTask).
func (up *upstream) call(ctx context.Context, tool string, args json.RawMessage, asTask bool) (*mcp.CallToolResult, error) {
	c, err := up.acquire(ctx)
	if err != nil {
		return nil, err
	}
	timeout := up.callTimeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	params := &mcp.CallToolParams{Name: tool}
	if len(args) > 0 {
		params.Arguments = args
	}
	token, end := c.asks.begin(askerOf(ctx))
	defer end()
	if token != "" {
		params.SetProgressToken(token)
	}
	var res *mcp.CallToolResult
	if asTask {
		res, err = c.callTask(cctx, params, timeout)
	} else {
		res, err = c.session.CallTool(cctx, params)
		if err != nil && c.asks.urlElicited(cctx, askerOf(ctx), err) {
			res, err = c.session.CallTool(cctx, params) // once: as the server asked
		}
	}
	if err != nil && cctx.Err() != nil {
		// go-sdk sends notifications/cancelled on a goroutine of its own:
		// closing the session waits for it (owed before release, which may
		// close it).
		c.tap.cancels.owe()
	}
	up.release(err == nil)
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return nil, up.fail("call", ctx.Err(), nil)
	case cctx.Err() != nil:
		return nil, up.fail("call", fmt.Errorf("tools/call %q: %w after %s: %w", tool, ErrTimeout, timeout, cctx.Err()), nil)
	}
	return nil, up.broken("call", c, fmt.Errorf("tools/call %q: %w", tool, err))
}

func (up *upstream) callTimeout() time.Duration {
	up.mu.Lock()
	defer up.mu.Unlock()
	return up.callTimeoutLocked()
}

// startTimeoutLocked bounds one start: the pool's option, else the config's.
func (up *upstream) startTimeoutLocked() time.Duration {
	switch {
	case up.u.opts.StartTimeout > 0:
		return up.u.opts.StartTimeout
	case up.bridge.StartTimeout > 0:
		return up.bridge.StartTimeout
	}
	return config.DefaultStartTimeout
}

func (up *upstream) callTimeoutLocked() time.Duration {
	if up.bridge.CallTimeout > 0 {
		return up.bridge.CallTimeout
	}
	return config.DefaultCallTimeout
}

// reap stops the session if it ended on its own, has been idle past the
// idle shutdown, or the server was retired and nothing uses it.
func (up *upstream) reap(now time.Time) {
	up.mu.Lock()
	c := up.conn
	ended := c != nil && c.ended()
	if c == nil || up.inflight > 0 && !ended {
		up.mu.Unlock()
		return
	}
	idle := up.bridge.IdleShutdown
	if !ended && !up.retired && (idle <= 0 || now.Sub(up.lastUsed) < idle || len(up.subs) > 0) {
		up.mu.Unlock()
		return
	}
	up.conn = nil
	if ended {
		up.noteFailure()
	}
	up.mu.Unlock()
	switch {
	case ended:
		c.close(up.u.opts.StopGrace) // before the log: the child is reaped, its status known
		up.u.opts.Logger.Warn("upstream session ended while idle", "server", up.name, "status", c.exitStatus())
		return
	case up.isRetired():
		up.u.opts.Logger.Info("stopping upstream no longer configured as it was", "server", up.name)
	default:
		up.u.opts.Logger.Info("stopping idle upstream", "server", up.name, "idle", idle)
	}
	c.close(up.u.opts.StopGrace)
}

func (up *upstream) isRetired() bool {
	up.mu.Lock()
	defer up.mu.Unlock()
	return up.retired
}

// retire marks the server as removed or replaced in the config.
func (up *upstream) retire() {
	up.mu.Lock()
	defer up.mu.Unlock()
	up.retired = true
}

// shutdown stops the session for good.
func (up *upstream) shutdown() {
	up.mu.Lock()
	up.closed = true
	c := up.conn
	up.conn = nil
	a := up.starting
	up.mu.Unlock()
	if a != nil {
		a.cancel()
		<-a.done // start sees closed and stops what it started
	}
	if c != nil {
		c.close(up.u.opts.StopGrace)
	}
}

// sameConnection reports whether a and b reach the server the same way, so
// that a running session can be kept across a config change.
func sameConnection(a, b config.Server) bool {
	return a.Type == b.Type && a.Command == b.Command && slices.Equal(a.Args, b.Args) &&
		maps.Equal(a.Env, b.Env) && a.Cwd == b.Cwd && a.URL == b.URL &&
		maps.Equal(a.Headers, b.Headers) && a.Disabled == b.Disabled
}
