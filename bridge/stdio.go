package bridge

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewStdioTransport serves MCP on r and w (a process's stdin and stdout)
// and, when r ends, answers the requests already read before the session
// ends, waiting at most drain. go-sdk cancels every request in flight as
// soon as its reader reports end of input, so a client that writes its
// requests and closes its end (a script, a pipe) would otherwise get no
// answers. w is never closed: it is not the transport's to close. A client
// line go-sdk would end the session on (too deep, too long, not JSON, not a
// JSON-RPC 2.0 message, a batch) is answered alone with the JSON-RPC error
// it calls for and logged to logger (nil: discarded); the next line is read
// as usual. Only the end of r ends the session.
func NewStdioTransport(r io.Reader, w io.Writer, drain time.Duration, logger *slog.Logger) mcp.Transport {
	rc, ok := r.(io.ReadCloser)
	if !ok {
		rc = io.NopCloser(r)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	out := &lockedWriter{w: w}
	return &drainingTransport{inner: &guardTransport{in: rc, out: out, logger: logger}, drain: drain}
}

// guardTransport is the session's side of stdio, in place of go-sdk's
// IOTransport: the session reads the messages the guard decoded. The guard
// decodes each line as go-sdk does, to be sure it can; IOTransport would
// decode it twice more (as a batch, then as one message), each time with a
// 64 KiB buffer of its own, on every call.
type guardTransport struct {
	in     io.ReadCloser
	out    *lockedWriter
	logger *slog.Logger
}

func (t *guardTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &guardConn{out: t.out, closer: t.in, incoming: make(chan guardRead), closed: make(chan struct{})}
	g := newStdinGuard(t.in, t.out, t.logger)
	// Reads block on the client's input, which Close cannot interrupt: a
	// goroutine reads, and Read waits for it or for Close. It ends with the
	// input, or at its next message after Close.
	go func() {
		for {
			msg, err := g.next()
			select {
			case c.incoming <- guardRead{msg, err}:
			case <-c.closed:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return c, nil
}

// guardRead is one result of [stdinGuard.next].
type guardRead struct {
	msg jsonrpc.Message
	err error
}

// guardConn is one stdio session's connection: the guard's messages in,
// one line each out.
type guardConn struct {
	out      *lockedWriter
	closer   io.Closer      // the client's input
	incoming chan guardRead // from the reading goroutine
	closed   chan struct{}  // closed by Close

	closeOnce sync.Once
	closeErr  error // set once, in closeOnce
}

func (c *guardConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case r := <-c.incoming:
		if c.isClosed() {
			return nil, io.EOF // the input closed under this read: Close's answer, not the pipe's error
		}
		return r.msg, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *guardConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message to the client: %w", err)
	}
	_, err = c.out.Write(append(data, '\n'))
	return err
}

// Close closes the client's input, never the output (not the session's to
// close).
func (c *guardConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed) // first: a read the input's closing wakes must see it
		c.closeErr = c.closer.Close()
	})
	return c.closeErr
}

func (*guardConn) SessionID() string { return "" }

// isClosed reports whether Close was called.
func (c *guardConn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

type drainingTransport struct {
	inner mcp.Transport
	drain time.Duration

	mu   sync.Mutex
	conn *drainingConn // guarded by mu; the last connection made
}

func (t *drainingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	dc := &drainingConn{
		Connection: c,
		drain:      t.drain,
		answered:   make(chan struct{}, 1),
		closed:     make(chan struct{}),
		pending:    make(map[jsonrpc.ID]bool),
	}
	t.mu.Lock()
	t.conn = dc
	t.mu.Unlock()
	return dc, nil
}

// waitAnswered returns when the requests read on the last connection have
// been answered, after d, or when ctx is done.
func (t *drainingTransport) waitAnswered(ctx context.Context, d time.Duration) {
	t.mu.Lock()
	c := t.conn
	t.mu.Unlock()
	if c != nil {
		c.waitAnswered(ctx, d)
	}
}

// drainingConn counts the requests read and not yet answered, and holds
// back the end of input until none is left.
type drainingConn struct {
	mcp.Connection
	drain     time.Duration
	answered  chan struct{} // buffered 1: a response was written
	closed    chan struct{} // closed by Close
	closeOnce sync.Once

	mu      sync.Mutex
	pending map[jsonrpc.ID]bool // guarded by mu; ids of requests read and not answered
}

func (c *drainingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.waitAnswered(ctx, c.drain)
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		c.pending[req.ID] = true
		c.mu.Unlock()
	}
	return msg, nil
}

func (c *drainingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, resp.ID)
		c.mu.Unlock()
		select {
		case c.answered <- struct{}{}:
		default:
		}
	}
	return err
}

func (c *drainingConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Connection.Close()
}

// waitAnswered returns when every request read has been answered, after
// d, or when the connection is closed or ctx done.
func (c *drainingConn) waitAnswered(ctx context.Context, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		c.mu.Lock()
		left := len(c.pending)
		c.mu.Unlock()
		if left == 0 {
			return
		}
		select {
		case <-c.answered:
		case <-timer.C:
			return
		case <-c.closed:
			return
		case <-ctx.Done():
			return
		}
	}
}
