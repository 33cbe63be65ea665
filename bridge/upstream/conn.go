package upstream

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// conn is one live session with an upstream server: the MCP client session,
// the child process behind it (stdio only) and the listing tap.
type conn struct {
	session *mcp.ClientSession
	client  *mcp.Client
	asks    *askRouter      // what the server asks of its client, to the call's client
	proc    *process        // nil for remote servers
	stdout  *jsonLineReader // nil for remote servers
	tap     *listTap
	own     *ownRequests       // requests go-sdk has no method for (tasks/*)
	done    chan struct{}      // closed when the session has ended, for any reason
	endLife context.CancelFunc // ends the session's context
}

// connect starts (stdio) or dials (http, sse) the server and initializes a
// session. onToolsChanged runs when the server sends
// notifications/tools/list_changed. Failures are *Error with Op
// "start" and, for a child that died, the tail of its stderr.
func connect(ctx context.Context, s config.Server, o *Options, onToolsChanged func(), h *clientHooks) (*conn, error) {
	tap := &listTap{}
	asks := &askRouter{}
	opts := &mcp.ClientOptions{
		Logger: o.Logger,
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			onToolsChanged()
		},
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) {
			h.featuresChanged()
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			h.featuresChanged()
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			h.resourceUpdated(req.Params.URI)
		},
	}
	asks.declare(opts)
	client := mcp.NewClient(&mcp.Implementation{Name: "capbridge", Version: buildVersion()}, opts)
	client.AddReceivingMiddleware(asks.rootsMiddleware)
	// The session gets a context of its own that outlives this call: the
	// SDK's SSE transport ties its event stream to the context given to
	// Connect. ctx bounds only the handshake.
	began := time.Now()
	life, endLife := context.WithCancel(context.WithoutCancel(ctx))
	handshakeOver := context.AfterFunc(ctx, endLife)
	c, err := dial(life, s, o, client, tap)
	if !handshakeOver() || err != nil {
		endLife()
		if c != nil {
			c.session.Close()
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// The SDK reports only that its context was cancelled: say what
			// the server failed to do, and for how long.
			timeout := &Error{Server: s.Name, Op: "start", Err: noAnswer{after: budget(ctx, began)}}
			var ue *Error
			if errors.As(err, &ue) {
				timeout.StderrTail = ue.StderrTail
			}
			err = timeout
		}
		if err == nil {
			err = &Error{Server: s.Name, Op: "start", Err: ctx.Err()}
		}
		return nil, err
	}
	c.endLife = endLife
	c.client, c.asks = client, asks
	go func() {
		c.session.Wait()
		close(c.done)
	}()
	return c, nil
}

// noAnswer is a start that timed out. Its text says what the server did not
// do, and for how long; it matches [ErrTimeout].
type noAnswer struct{ after time.Duration }

func (e noAnswer) Error() string        { return fmt.Sprintf("no answer to initialize within %s", e.after) }
func (e noAnswer) Is(target error) bool { return target == ErrTimeout }

// budget is the time the start was given: from began to ctx's deadline
// (the start timeout, or a caller's sooner deadline), not the time the
// failed start took, which includes stopping the child after it. In whole
// seconds, or in milliseconds under one (a caller's deadline that had all
// but passed: not "0s").
func budget(ctx context.Context, began time.Time) time.Duration {
	d := time.Since(began)
	if dl, ok := ctx.Deadline(); ok {
		d = dl.Sub(began)
	}
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}

// dial starts or reaches the server and initializes a session on ctx.
func dial(ctx context.Context, s config.Server, o *Options, client *mcp.Client, tap *listTap) (*conn, error) {
	max := int(o.Limits.MaxMessageBytes)
	c := &conn{tap: tap, done: make(chan struct{})}
	c.own = &ownRequests{max: max, answer: c.answerServer}
	switch s.Type {
	case config.TypeStdio:
		p, err := startProcess(s, o.Logger)
		if err != nil {
			return nil, &Error{Server: s.Name, Op: "start", Err: err}
		}
		c.proc = p
		c.stdout = newJSONLineReader(p.stdout, max, tap, s, o.Logger)
		t := &stdioTransport{r: c.stdout, w: tappedWriter{w: p.stdin, tap: tap}, own: c.own}
		cs, err := connectStdio(ctx, client, t, p, o.StopGrace)
		if err != nil {
			return nil, &Error{Server: s.Name, Op: "start", Err: err, StderrTail: p.stderr.String()}
		}
		c.session = cs
	default:
		cs, err := connectHTTP(ctx, client, s, tap, c.own, o.signIn(s))
		if err != nil {
			if se := signInFailure(err); se != nil {
				err = se // the command to run, not the transport's wrapping
			}
			return nil, &Error{Server: s.Name, Op: "start", Err: err}
		}
		c.session = cs
	}
	return c, nil
}

// connectStdio initializes a session over a started child. A child that
// exits before answering ends the attempt at once instead of at ctx's
// deadline.
func connectStdio(ctx context.Context, client *mcp.Client, t mcp.Transport, p *process, grace time.Duration) (*mcp.ClientSession, error) {
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-p.exited:
			cancel()
		case <-hctx.Done():
		}
	}()
	cs, err := client.Connect(hctx, t, nil)
	if err != nil {
		if ctx.Err() == nil {
			// The handshake failed on its own (the child's stdout ended, or
			// the child exited): let the child be reaped, to say how it ended.
			select {
			case <-p.exited:
			case <-time.After(time.Second):
			}
		}
		st := p.exitStatus() // before stop: did it end on its own?
		p.stop(grace)
		if st != "" {
			return nil, fmt.Errorf("initializing: %w before answering (%s)", ErrExited, st)
		}
		return nil, fmt.Errorf("initializing: %w", err)
	}
	return cs, nil
}

// isDone reports whether the session has ended.
func (c *conn) isDone() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// close ends the session and, for a stdio server, the child's whole process
// group, once the cancellations of calls cancelled just before are out
// (within cancelNoteWait). The SDK's Close waits for calls in flight, so
// those are ended first: a child's stdin is closed (and the child stopped), which ends its
// stdout and every call reading from it; HTTP requests still open after
// grace are cancelled through the session's context.
func (c *conn) close(grace time.Duration) {
	c.tap.cancels.wait(min(grace, cancelNoteWait))
	if c.proc != nil {
		c.proc.stop(grace)
	}
	closed := make(chan struct{})
	go func() {
		c.session.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(grace):
		c.endLife()
		<-closed
	}
	c.endLife()
	<-c.done
}

// ended reports whether the session is over: it has ended, or the child
// behind it has exited. A child that exited answers no more calls, and one
// that exited before a call was sent cannot have been ended by that call, so
// the session is dropped and the call goes to a new one instead of failing.
func (c *conn) ended() bool {
	return c.isDone() || c.proc != nil && c.proc.hasExited()
}

// dropReason returns why the bridge itself cut the session (a message over
// the size limit), or nil.
func (c *conn) dropReason() error {
	if c.stdout == nil {
		return nil
	}
	return c.stdout.failure()
}

// stderrTail returns the last of the child's stderr, or "".
func (c *conn) stderrTail() string {
	if c.proc == nil {
		return ""
	}
	return c.proc.stderr.String()
}

// exitStatus describes how the child ended, or "" while it runs.
func (c *conn) exitStatus() string {
	if c.proc == nil {
		return ""
	}
	return c.proc.exitStatus()
}

func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}
