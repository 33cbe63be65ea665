//lint:file-ignore SA1019 roots, sampling and logging, deprecated by MCP 2026-07-28 (SEP-2577), are what this file passes through for the servers and clients that still use them

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds on what a server sends its client while a call runs. Its whole
// message is already bounded by [CatalogLimits.MaxMessageBytes]; these are
// tighter, for what reaches the user's client.
const (
	// MaxElicitBytes bounds one elicitation/create's params as JSON: a
	// message and a flat schema of primitive fields.
	MaxElicitBytes = 64 << 10
	// MaxSamplingBytes bounds one sampling/createMessage's params as JSON.
	MaxSamplingBytes = 1 << 20
	// MaxLogBytes bounds the data of one notifications/message passed on.
	MaxLogBytes = 16 << 10
	// progressEvery and logEvery space out what one call's server sends
	// unasked: faster notifications are dropped, not queued.
	progressEvery = 50 * time.Millisecond
	logEvery      = 20 * time.Millisecond
	// logGrace is how long after a call its client still gets the server's
	// log messages, when no other call is in flight.
	logGrace = time.Second
)

// Asker is the client that made one call, as its server sees it while the
// call runs: what the server asks of its client (elicitation, sampling,
// roots) and sends it (progress, log messages) goes to the Asker of the
// call. Set it on the call's context with [WithAsker]. A nil func is a
// capability the client lacks: the server's request is answered as a
// client without it answers, so that the server can fall back.
type Asker struct {
	// Client names the client session; two calls with the same Client are
	// from the same session.
	Client any
	// Progress is given the server's notifications/progress for the call,
	// with the server's token. Nil: the client asked for no progress, and
	// the call carries no progress token.
	Progress      func(ctx context.Context, p *mcp.ProgressNotificationParams)
	Log           func(ctx context.Context, p *mcp.LoggingMessageParams)
	Elicit        func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	CreateMessage func(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error)
	ListRoots     func(ctx context.Context) ([]*mcp.Root, error)
}

type askerKey struct{}

// WithAsker returns ctx carrying a, for [Pool.Call].
func WithAsker(ctx context.Context, a *Asker) context.Context {
	return context.WithValue(ctx, askerKey{}, a)
}

func askerOf(ctx context.Context) *Asker {
	a, _ := ctx.Value(askerKey{}).(*Asker)
	return a
}

// askRouter maps what one session's server sends its client back to the
// call it belongs to. A progress notification names its call by the token
// capbridge gave it. Nothing else on the wire names a call (MCP 2025-11-25
// over stdio relates a server's request to no call), so a request or log
// message goes to the client of the calls in flight only when they all come
// from one client session; with calls of two sessions in flight, or none,
// it goes to nobody: never to a session that may not be the one asked for.
type askRouter struct {
	mu    sync.Mutex
	next  uint64
	calls map[string]*inflight // by progress token

	// changed answers the next roots/list until changedUntil (see
	// Pool.RootsChanged).
	changed      func(context.Context) ([]*mcp.Root, error)
	changedBy    any // the Asker.Client whose roots changed
	changedUntil time.Time

	// last is the call that ended last, until lastUntil: a log message
	// that arrives then, with no call in flight, is its.
	last      *inflight
	lastUntil time.Time
}

// inflight is one call in flight with an Asker.
type inflight struct {
	asker        *Asker
	lastProgress time.Time
	lastLog      time.Time
}

// begin registers a call by a; end unregisters it. token is the progress
// token to send the call with ("" when a wants no progress). A nil a is a
// call of no client (a forwarded request, a call without [WithAsker]):
// while it runs, no request goes to another call's client.
func (r *askRouter) begin(a *Asker) (token string, end func()) {
	if a == nil {
		a = &Asker{Client: new(byte)} // a client of its own, asked nothing
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = make(map[string]*inflight)
	}
	r.next++
	key := "capbridge-" + strconv.FormatUint(r.next, 10)
	r.calls[key] = &inflight{asker: a}
	if a.Progress != nil {
		token = key
	}
	c := r.calls[key]
	return token, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.calls, key)
		r.last, r.lastUntil = c, time.Now().Add(logGrace)
	}
}

// only returns the one call whose client is the client of every call in
// flight, or nil.
func (r *askRouter) only() *inflight {
	var one *inflight
	for _, c := range r.calls {
		if one != nil && one.asker.Client != c.asker.Client {
			return nil
		}
		if one == nil {
			one = c
		}
	}
	return one
}

// asker returns the Asker requests go to now, or nil.
func (r *askRouter) asker() *Asker {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c := r.only(); c != nil {
		return c.asker
	}
	return nil
}

// progress passes p on to the call its token names, at most one each
// progressEvery (the last of a call, progress equal to total, always).
func (r *askRouter) progress(ctx context.Context, p *mcp.ProgressNotificationParams) {
	tok, ok := p.ProgressToken.(string)
	if !ok {
		return
	}
	r.mu.Lock()
	c := r.calls[tok]
	if c == nil || c.asker.Progress == nil {
		r.mu.Unlock()
		return
	}
	now := time.Now()
	last := p.Total > 0 && p.Progress >= p.Total
	if !last && now.Sub(c.lastProgress) < progressEvery {
		r.mu.Unlock()
		return
	}
	c.lastProgress = now
	r.mu.Unlock()
	c.asker.Progress(ctx, p)
}

// log passes p on to the client of the calls in flight (see askRouter),
// or of the call that just ended, at most one each logEvery, its data
// bounded.
func (r *askRouter) log(ctx context.Context, p *mcp.LoggingMessageParams) {
	r.mu.Lock()
	c := r.only()
	if len(r.calls) == 0 && time.Now().Before(r.lastUntil) {
		// go-sdk hands a call its answer before the notifications the
		// server sent ahead of it: a log message of the call may come just
		// after it.
		c = r.last
	}
	if c == nil || c.asker.Log == nil {
		r.mu.Unlock()
		return
	}
	now := time.Now()
	if now.Sub(c.lastLog) < logEvery {
		r.mu.Unlock()
		return
	}
	c.lastLog = now
	r.mu.Unlock()
	if b, err := json.Marshal(p.Data); err != nil || len(b) > MaxLogBytes {
		q := *p
		q.Data = fmt.Sprintf("(a log message of %d bytes, over capbridge's limit of %d, was left out)", len(b), MaxLogBytes)
		p = &q
	}
	c.asker.Log(ctx, p)
}

// declare makes o declare roots, elicitation (form and URL) and sampling,
// so that servers offer the tools that use them, and routes what the
// server asks and sends unasked while a call runs through r. Roots answer
// the calling client's roots, and none outside a call: a server such as
// server-filesystem that replaces its configured directories with its
// client's roots keeps them when given none.
func (r *askRouter) declare(o *mcp.ClientOptions) {
	o.Capabilities = &mcp.ClientCapabilities{
		RootsV2:     &mcp.RootCapabilities{ListChanged: true},
		Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
	}
	o.ElicitationHandler = r.elicit
	o.CreateMessageWithToolsHandler = r.createMessage
	o.ProgressNotificationHandler = func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
		r.progress(ctx, req.Params)
	}
	o.LoggingMessageHandler = func(ctx context.Context, req *mcp.LoggingMessageRequest) {
		r.log(ctx, req.Params)
	}
}

// maxURLElicitations bounds the URL elicitations of one
// URLElicitationRequired error that are passed on.
const maxURLElicitations = 4

// urlElicited handles a call the server refused with
// URLElicitationRequired (-32042), naming URLs for the user to visit
// first: when a, the call's client, takes URL elicitations, each is passed
// to it in turn, and urlElicited reports whether the user accepted them
// all, after which the server expects the same call again. A client
// without URL elicitation, a declined one, or an error that is not that,
// report false: the error stands.
func (r *askRouter) urlElicited(ctx context.Context, a *Asker, err error) bool {
	var rpcErr *jsonrpc.Error
	if a == nil || a.Elicit == nil || !errors.As(err, &rpcErr) || rpcErr.Code != mcp.CodeURLElicitationRequired {
		return false
	}
	if len(rpcErr.Data) > MaxElicitBytes {
		return false
	}
	var data struct {
		Elicitations []*mcp.ElicitParams `json:"elicitations"`
	}
	if json.Unmarshal(rpcErr.Data, &data) != nil || len(data.Elicitations) == 0 || len(data.Elicitations) > maxURLElicitations {
		return false
	}
	for _, p := range data.Elicitations {
		if p == nil || p.Mode != "url" || p.URL == "" {
			return false
		}
		res, err := a.Elicit(ctx, p)
		if err != nil || res.Action != "accept" {
			return false
		}
	}
	return true
}

// notSupported is the answer of a client without the capability a server
// asks for: go-sdk's client answers so when it has no handler.
func notSupported(what string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the client does not support " + what + " (through capbridge, only the client that made the call is asked, while the call runs)"}
}

// tooLarge refuses a request over its bound.
func tooLarge(what string, n, max int) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s of %d bytes is over capbridge's limit of %d", what, n, max)}
}

func (r *askRouter) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	a := r.asker()
	if a == nil || a.Elicit == nil {
		return nil, notSupported("elicitation")
	}
	if b, _ := json.Marshal(req.Params); len(b) > MaxElicitBytes {
		return nil, tooLarge("an elicitation request", len(b), MaxElicitBytes)
	}
	return a.Elicit(ctx, req.Params)
}

func (r *askRouter) createMessage(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
	a := r.asker()
	if a == nil || a.CreateMessage == nil {
		return nil, notSupported("sampling")
	}
	if b, _ := json.Marshal(req.Params); len(b) > MaxSamplingBytes {
		return nil, tooLarge("a sampling request", len(b), MaxSamplingBytes)
	}
	return a.CreateMessage(ctx, req.Params)
}

// listRoots answers roots/list: the roots of the client whose roots just
// changed (unless calls of another client are in flight: then none, as
// the request may be theirs), else of the calling client, or none (no call
// in flight, calls of two sessions, a client without roots).
func (r *askRouter) listRoots(ctx context.Context) (*mcp.ListRootsResult, error) {
	roots := []*mcp.Root{}
	r.mu.Lock()
	one := r.only()
	var list func(context.Context) ([]*mcp.Root, error)
	switch {
	case r.changed != nil && time.Now().Before(r.changedUntil):
		if len(r.calls) == 0 || one != nil && one.asker.Client == r.changedBy {
			list = r.changed
		}
		r.changed, r.changedBy = nil, nil
	case one != nil:
		list = one.asker.ListRoots
	}
	r.mu.Unlock()
	if list != nil {
		got, err := list(ctx)
		if err != nil {
			return nil, err
		}
		if got != nil {
			roots = got
		}
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}

// rootsMiddleware answers the server's roots/list with listRoots: go-sdk's
// client has no handler for it, only a list of its own.
func (r *askRouter) rootsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "roots/list" {
			return r.listRoots(ctx)
		}
		return next(ctx, method, req)
	}
}

// rootsSentinel is the one root go-sdk's client keeps: adding it again is
// how a client tells its servers notifications/roots/list_changed.
// Servers never see it: roots/list is answered by rootsMiddleware.
var rootsSentinel = &mcp.Root{URI: "capbridge:roots", Name: "capbridge"}

// rootsWindow is how long after [Pool.RootsChanged] the server's next
// roots/list is answered with the roots of the client whose roots changed.
const rootsWindow = 10 * time.Second

// RootsChanged tells server, when it is running, that the roots of client
// (as in [Asker].Client) changed (notifications/roots/list_changed). The
// roots/list it sends next, within a few seconds, is answered by roots,
// unless calls of another client are in flight then.
func (u *Pool) RootsChanged(server string, client any, roots func(context.Context) ([]*mcp.Root, error)) {
	up, err := u.lookup(server)
	if err != nil {
		return
	}
	up.mu.Lock()
	c := up.conn
	up.mu.Unlock()
	if c == nil || c.ended() {
		return
	}
	c.asks.mu.Lock()
	c.asks.changed, c.asks.changedBy, c.asks.changedUntil = roots, client, time.Now().Add(rootsWindow)
	c.asks.mu.Unlock()
	c.client.AddRoots(rootsSentinel)
}
