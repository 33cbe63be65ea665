//lint:file-ignore SA1019 roots, sampling and logging, deprecated by MCP 2026-07-28 (SEP-2577), are what this file passes through for the servers and clients that still use them

package bridge

import (
	"context"
	"log/slog"
	"strings"

	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/capbridge/capbridge/schema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askerFor returns who answers, for one run_capability call, what the
// tool's server asks of its client while the call runs: the client session
// that made the call, and only for what that client declared. Its progress
// (under the client's own token) and log messages (at the session's log
// level) go to that session too.
//
// The server's text reaches the client as the server wrote it, bounded in
// size by the upstream package: an elicitation's message is for the human,
// who decides, and a sampling request for the client's model passes the
// client's own human-in-the-loop. Text that reads like an attack on a model
// is logged, not rewritten: rewriting would change what the human is asked.
func (b *Server) askerFor(ctx context.Context, req *mcp.CallToolRequest) *upstream.Asker {
	ss := req.Session
	a := &upstream.Asker{
		Client: ss,
		Log: func(_ context.Context, p *mcp.LoggingMessageParams) {
			// The run's context carries the log level of a 2026-07-28
			// request; ss.Log drops what is below the session's level. A
			// message just after the run goes out of band (over HTTP, the
			// run's stream is closed), at the session's level.
			c := ctx
			if ctx.Err() != nil {
				c = afterRun(ctx, req)
			}
			_ = ss.Log(c, p)
		},
	}
	if tok := req.Params.GetProgressToken(); tok != nil {
		a.Progress = func(_ context.Context, p *mcp.ProgressNotificationParams) {
			q := *p
			q.ProgressToken = tok
			_ = ss.NotifyProgress(ctx, &q)
		}
	}
	caps := req.ClientCapabilities()
	if caps == nil || req.ProtocolVersion() >= "2026-07-28" {
		// A 2026-07-28 session takes no request from its server while a
		// call runs: one that declares what may be asked runs in rounds
		// (see runInRounds); this one is asked nothing.
		return a
	}
	during := func(upctx context.Context) (context.Context, context.CancelFunc) { return whileAsked(ctx, upctx) }
	if caps.Elicitation != nil {
		a.Elicit = func(upctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			b.flagAsk("elicitation request", p.Message)
			c, done := during(upctx)
			defer done()
			return ss.Elicit(c, p)
		}
	}
	if caps.Sampling != nil {
		withTools := caps.Sampling.Tools != nil
		a.CreateMessage = func(upctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
			if err := b.checkSampling(withTools, p); err != nil {
				return nil, err
			}
			c, done := during(upctx)
			defer done()
			return ss.CreateMessageWithTools(c, p)
		}
	}
	if caps.RootsV2 != nil {
		a.ListRoots = func(upctx context.Context) ([]*mcp.Root, error) {
			c, done := during(upctx)
			defer done()
			res, err := ss.ListRoots(c, &mcp.ListRootsParams{})
			if err != nil {
				return nil, err
			}
			return res.Roots, nil
		}
	}
	return a
}

// afterRun returns the context of a notification to req's client after the
// run: over Streamable HTTP (2025-11-25) one tied to no request, which goes
// out on the session's own stream at the session's log level; for a
// 2026-07-28 request (stdio), the run's, which keeps the request's level.
func afterRun(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	if req.ProtocolVersion() >= "2026-07-28" {
		return context.WithoutCancel(ctx)
	}
	return context.Background()
}

// whileAsked returns the context of a request to the client on behalf of a
// server's request: the client's (a run's) context, whose values tie the
// request to the client's request (over Streamable HTTP, it goes out on
// that request's stream; the server's context names the server's request,
// which the client never made), ended when either ends.
func whileAsked(client, server context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(client)
	stop := context.AfterFunc(server, cancel)
	return c, func() { stop(); cancel() }
}

// maxScannedAsk bounds the text of a server's request scanned for lures.
const maxScannedAsk = 8 << 10

// flagAsk logs a server's text, passed on to a client as it is, that
// reads like an attack on a model (see schema.ScanText): what says kind of
// text it is ("elicitation request", "prompt", ...).
func (b *Server) flagAsk(what, text string) {
	if len(text) > maxScannedAsk {
		text = text[:maxScannedAsk]
	}
	hits := schema.ScanText(text)
	if len(hits) == 0 {
		return
	}
	rules := make([]string, len(hits))
	for i, h := range hits {
		rules[i] = h.Rule
	}
	b.logger.Warn("a server's "+what+" reads like an attack on a model; passed on as it is",
		slog.String("rules", strings.Join(rules, ",")))
}

// maxRanSessions bounds the sessions whose servers are remembered for
// roots/list_changed; past it the memory starts again.
const maxRanSessions = 1024

// noteRan remembers that session ran a tool of server.
func (b *Server) noteRan(session *mcp.ServerSession, server string) {
	if session == nil {
		return
	}
	b.ranMu.Lock()
	defer b.ranMu.Unlock()
	if b.ran == nil || len(b.ran) >= maxRanSessions && b.ran[session] == nil {
		b.ran = make(map[*mcp.ServerSession]map[string]bool)
	}
	if b.ran[session] == nil {
		b.ran[session] = make(map[string]bool)
	}
	b.ran[session][server] = true
}

// checkSampling refuses a sampling request with tools to a client that
// does not take them, as such a client would (method not found), and logs
// the text of one that reads like an attack on a model.
func (b *Server) checkSampling(withTools bool, p *mcp.CreateMessageWithToolsParams) error {
	if !withTools && (len(p.Tools) > 0 || p.ToolChoice != nil) {
		return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the client does not support sampling with tools"}
	}
	b.flagSampling(p)
	return nil
}

// flagSampling logs the text of a sampling request that reads like an
// attack on a model.
func (b *Server) flagSampling(p *mcp.CreateMessageWithToolsParams) {
	b.flagAsk("sampling request", p.SystemPrompt)
	for _, m := range p.Messages {
		for _, c := range m.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				b.flagAsk("sampling request", t.Text)
			}
		}
	}
}

// rootsChanged forwards a client's notifications/roots/list_changed to the
// servers that session ran tools on; the roots/list each sends back next
// is answered with that session's roots. Only a 2025-11-25 session (or
// older) can be asked for its roots outside a call.
func (b *Server) rootsChanged(ctx context.Context, req *mcp.RootsListChangedRequest) {
	ss := req.Session
	if p := ss.InitializeParams(); p == nil || p.ProtocolVersion >= "2026-07-28" {
		// A 2026-07-28 client is asked for its roots only within a call,
		// in rounds: a server asks for them again on its next call.
		return
	}
	ctx = context.WithoutCancel(ctx) // the server asks after this returns
	b.ranMu.Lock()
	var servers []string
	for server := range b.ran[ss] {
		servers = append(servers, server)
	}
	b.ranMu.Unlock()
	list := func(upctx context.Context) ([]*mcp.Root, error) {
		c, done := whileAsked(ctx, upctx)
		defer done()
		res, err := ss.ListRoots(c, &mcp.ListRootsParams{})
		if err != nil {
			return nil, err
		}
		return res.Roots, nil
	}
	for _, server := range servers {
		b.ups.RootsChanged(server, ss, list)
	}
}
