package bridge

import (
	"context"
	"time"

	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// answerWait bounds how long Serve waits, once its context is done, for the
// answers of the requests in flight (runs cancelled, and answered
// cancelled) to be written before it ends the session.
const answerWait = 2 * time.Second

// msgCancelled is the message of a run answered cancelled.
const msgCancelled = "capbridge is shutting down: this call was cancelled and its server was told so. " +
	"The tool may have done part of its work: check before you run it again."

// CancelRuns cancels every run_capability call in flight, and every one
// that arrives after it: each call is cancelled upstream (go-sdk sends the
// server notifications/cancelled) and answered with the status
// "cancelled" (isError), like the other failures. [Server.Serve] calls it
// when its context ends, so that a signal does not wait for a long call;
// the owner of an HTTP server calls it before shutting the server down,
// which would otherwise wait for the calls. Close calls it too.
func (b *Server) CancelRuns() { b.stopRuns() }

// runContext returns ctx, also cancelled by CancelRuns; the caller calls
// the CancelFunc when the run is over.
func (b *Server) runContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(b.runs, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// cancelling reports whether CancelRuns was called.
func (b *Server) cancelling() bool { return b.runs.Err() != nil }

// cancelled records a run that CancelRuns ended and answers it.
func (b *Server) cancelled(act action, c store.Call) *mcp.CallToolResult {
	c.Server, c.Tool, c.Outcome = act.server, act.tool, statusCancelled
	b.record(c)
	return failure(statusCancelled, msgCancelled)
}

// msgClientCancelled is the message of a run its client cancelled (if the
// client reads the answer at all).
const msgClientCancelled = "the client cancelled this call, and its server was told so. " +
	"The tool may have done part of its work: check before you run it again."

// clientCancelled answers and records a run its client cancelled: the
// outcome is "cancelled", not a failure of the server.
func (b *Server) clientCancelled(act action, c store.Call) *mcp.CallToolResult {
	c.Server, c.Tool, c.Outcome = act.server, act.tool, statusCancelled
	b.record(c)
	return failure(statusCancelled, msgClientCancelled)
}

// OutcomeCancelled is the telemetry outcome of a run cancelled before its
// server answered, by the client or by capbridge shutting down.
const OutcomeCancelled = statusCancelled
