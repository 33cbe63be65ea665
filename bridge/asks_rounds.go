//lint:file-ignore SA1019 roots, sampling and logging, deprecated by MCP 2026-07-28 (SEP-2577), are what this file passes through for the servers that still use them

package bridge

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"sync"

	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client session of MCP 2026-07-28 takes no request from its server while
// a call runs: the server answers the call with its input requests
// (resultType input_required) and the client calls again with the answers
// (multi-round-trip requests, SEP-2322). A run for such a client runs on
// its own, past the request that started it; each request of the upstream
// server to its client ends the current round with an input-required
// result, and the client's next call, naming the round's requestState,
// carries the answer back to the upstream and waits for the next round.

// maxRoundsPending bounds the rounds waiting for their client's answer.
const maxRoundsPending = 1024

// msgRoundUnknown answers a call naming a requestState that is not (or no
// longer) waiting for an answer.
const msgRoundUnknown = "This requestState names no run waiting for an answer (the run ended, or was answered already). Run the tool again."

// roundRun is one run_capability of a 2026-07-28 client, running past the
// request that started it.
type roundRun struct {
	owner  any // sessionKey of the session that started it
	asks   chan *roundAsk
	done   chan *mcp.CallToolResult // the run's answer; buffered
	ctx    context.Context          // the run's own context
	cancel context.CancelFunc

	mu  sync.Mutex
	cur context.Context // the client request the run answers now
}

// roundAsk is one request of the upstream server, waiting for the client.
type roundAsk struct {
	req    mcp.InputRequest
	answer chan mcp.InputResponse // buffered; nil: no answer came
}

// rounds are the runs waiting for their client's answer, by requestState.
type rounds struct {
	mu      sync.Mutex
	pending map[string]parkedRound
}

type parkedRound struct {
	run *roundRun
	ask *roundAsk
}

// inRounds reports whether a run for req answers its server's requests in
// rounds: a 2026-07-28 request from a client that declares something a
// server may ask for.
func inRounds(req *mcp.CallToolRequest) bool {
	if req.ProtocolVersion() < "2026-07-28" {
		return false
	}
	caps := req.ClientCapabilities()
	return caps != nil && (caps.Elicitation != nil || caps.Sampling != nil || caps.RootsV2 != nil)
}

// runInRounds starts run, for a 2026-07-28 client, on a context of its own
// and answers the current round.
func (b *Server) runInRounds(ctx context.Context, req *mcp.CallToolRequest, run func(context.Context, *upstream.Asker) *mcp.CallToolResult) *mcp.CallToolResult {
	rr := &roundRun{owner: sessionKey(req.Session), asks: make(chan *roundAsk), done: make(chan *mcp.CallToolResult, 1), cur: ctx}
	// The run's context keeps the values of the first request (its log
	// level, its session) but not its end: it ends with CancelRuns, when
	// a round's request is cancelled, or when the run is over.
	rr.ctx, rr.cancel = b.runContext(context.WithoutCancel(ctx))
	asker := b.roundAsker(rr, req)
	go func() {
		defer rr.cancel()
		res := run(rr.ctx, asker)
		rr.done <- res
		b.rounds.forget(rr)
	}()
	return b.awaitRound(ctx, rr)
}

// resumeRound answers the round req names with req's input response and
// waits for the run's next round.
func (b *Server) resumeRound(ctx context.Context, req *mcp.CallToolRequest) *mcp.CallToolResult {
	p, ok := b.rounds.take(req.Params.RequestState, sessionKey(req.Session))
	if !ok {
		return failure(statusExpired, msgRoundUnknown)
	}
	rr := p.run
	rr.mu.Lock()
	rr.cur = ctx
	rr.mu.Unlock()
	p.ask.answer <- req.Params.InputResponses[roundInputID]
	return b.awaitRound(ctx, rr)
}

// roundInputID names the one input request of a round.
const roundInputID = "capbridge"

// awaitRound waits for the run's answer, or its server's next request,
// which ends the round with an input-required result. A cancelled request
// cancels the run.
func (b *Server) awaitRound(ctx context.Context, rr *roundRun) *mcp.CallToolResult {
	select {
	case res := <-rr.done:
		return res
	case a := <-rr.asks:
		state, err := b.rounds.park(rr, a)
		if err != nil {
			a.answer <- nil
			return b.awaitRound(ctx, rr)
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{roundInputID: a.req}, RequestState: state}
	case <-ctx.Done():
		rr.cancel()
		return <-rr.done
	}
}

// ask passes one request of the upstream server to the client, in the
// next round, and returns its answer.
func (rr *roundRun) ask(upctx context.Context, req mcp.InputRequest) (mcp.InputResponse, error) {
	a := &roundAsk{req: req, answer: make(chan mcp.InputResponse, 1)}
	select {
	case rr.asks <- a:
	case <-upctx.Done():
		return nil, upctx.Err()
	case <-rr.ctx.Done():
		return nil, rr.ctx.Err()
	}
	select {
	case res := <-a.answer:
		if res == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client gave no answer"}
		}
		return res, nil
	case <-upctx.Done():
		return nil, upctx.Err()
	case <-rr.ctx.Done():
		return nil, rr.ctx.Err()
	}
}

// current returns the context of the request the run answers now, or nil
// between rounds.
func (rr *roundRun) current() context.Context {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.cur.Err() != nil {
		return nil
	}
	return rr.cur
}

// roundAsker is askerFor for a run in rounds: requests go to the client as
// input requests; progress and log messages to the request of the round.
func (b *Server) roundAsker(rr *roundRun, req *mcp.CallToolRequest) *upstream.Asker {
	ss := req.Session
	a := &upstream.Asker{
		Client: ss,
		Log: func(_ context.Context, p *mcp.LoggingMessageParams) {
			// Past its request (a message just after the run, or between
			// rounds), a message keeps that request's log level.
			rr.mu.Lock()
			c := context.WithoutCancel(rr.cur)
			rr.mu.Unlock()
			_ = ss.Log(c, p)
		},
	}
	if tok := req.Params.GetProgressToken(); tok != nil {
		a.Progress = func(_ context.Context, p *mcp.ProgressNotificationParams) {
			if c := rr.current(); c != nil {
				q := *p
				q.ProgressToken = tok
				_ = ss.NotifyProgress(c, &q)
			}
		}
	}
	caps := req.ClientCapabilities()
	if caps.Elicitation != nil {
		form, url := caps.Elicitation.Form != nil || caps.Elicitation.URL == nil, caps.Elicitation.URL != nil
		a.Elicit = func(upctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			if p.Mode == "url" && !url || p.Mode != "url" && !form {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the client does not support this mode of elicitation"}
			}
			b.flagAsk("elicitation request", p.Message)
			res, err := rr.ask(upctx, p)
			return answerAs[*mcp.ElicitResult](res, err)
		}
	}
	if caps.Sampling != nil {
		withTools := caps.Sampling.Tools != nil
		a.CreateMessage = func(upctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
			if err := b.checkSampling(withTools, p); err != nil {
				return nil, err
			}
			res, err := rr.ask(upctx, p)
			return answerAs[*mcp.CreateMessageWithToolsResult](res, err)
		}
	}
	if caps.RootsV2 != nil {
		a.ListRoots = func(upctx context.Context) ([]*mcp.Root, error) {
			res, err := answerAs[*mcp.ListRootsResult](rr.ask(upctx, &mcp.ListRootsParams{}))
			if err != nil {
				return nil, err
			}
			return res.Roots, nil
		}
	}
	return a
}

// answerAs is the client's answer as the type its request expects.
func answerAs[T mcp.InputResponse](res mcp.InputResponse, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	t, ok := res.(T)
	if !ok {
		return zero, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client answered with another kind of result"}
	}
	return t, nil
}

// park keeps a waiting for its client's answer and returns the
// requestState that names it: 128 random bits.
func (r *rounds) park(rr *roundRun, a *roundAsk) (string, error) {
	var raw [16]byte
	rand.Read(raw[:])
	state := base64.RawURLEncoding.EncodeToString(raw[:])
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) >= maxRoundsPending {
		return "", errors.New("too many runs wait for their client's answer")
	}
	if r.pending == nil {
		r.pending = make(map[string]parkedRound)
	}
	r.pending[state] = parkedRound{run: rr, ask: a}
	return state, nil
}

// take returns, and forgets, the round state names, when it is owner's.
func (r *rounds) take(state string, owner any) (parkedRound, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.pending[state]
	if !ok || p.run.owner != owner {
		return parkedRound{}, false
	}
	delete(r.pending, state)
	return p, true
}

// forget drops the rounds of a run that is over.
func (r *rounds) forget(rr *roundRun) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for state, p := range r.pending {
		if p.run == rr {
			delete(r.pending, state)
		}
	}
}
