package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/bridge/upstream"
	"github.com/capbridge/capbridge/output"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runArgs are run_capability's arguments.
type runArgs struct {
	ActionID string          `json:"actionId"`
	Params   json.RawMessage `json:"params"`
	Fields   []string        `json:"fields"`
	Cursor   string          `json:"cursor"`
}

var runKeys = map[string]bool{"actionId": true, "params": true, "fields": true, "cursor": true}

// Messages of the run_capability failures that carry one.
const (
	msgExpired       = "This actionId has expired (action ids last 10 minutes). Call discover_capability again for a fresh one."
	msgUnknownAction = "This actionId was not issued to this session. Call discover_capability to get one."
	msgGone          = "The server or tool of this actionId is no longer configured. Call discover_capability again."
	msgSchemaChanged = "The tool's definition changed since this card was made. Call discover_capability again for the current card."
	msgCursorExpired = "This cursor has expired (pages are kept 10 minutes). Run the tool again for a fresh result."
	msgCursorUnknown = "Unknown cursor. Use the cursor exactly as a truncated result's last line gives it, or run the tool again."
	msgCatalogLocked = "The tool was not run: capbridge's catalog is locked by another capbridge process writing it. Try again in a moment."
)

// Telemetry outcomes beside the failure statuses.
const (
	outcomeOK    = "ok"
	outcomeError = "tool_error" // the provider answered isError
)

func (b *Server) run(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	ctx, done := b.runContext(ctx)
	defer done()
	if req.Params.RequestState != "" {
		return b.resumeRound(ctx, req), nil
	}
	if ans := boundsFailure(req.Params.Arguments); ans != nil {
		return ans, nil
	}
	var args runArgs
	if errs := decodeExact(req.Params.Arguments, &args, runKeys); len(errs) > 0 {
		return invalidParams(errs), nil
	}
	if args.Cursor != "" {
		if len(args.Params) > 0 || len(args.Fields) > 0 {
			return invalidParams([]fieldError{{Path: "/cursor", Message: "a cursor fetches the next page of a result: give it alone (params and fields belong to a new run)"}}), nil
		}
		return b.nextPage(sessionKey(req.Session), args.Cursor), nil
	}
	if args.ActionID == "" {
		return invalidParams([]fieldError{{Path: "/actionId", Message: "required: the actionId of a discover_capability card (or a cursor)"}}), nil
	}
	session := sessionKey(req.Session)
	act, err := b.handles.resolve(session, args.ActionID)
	switch {
	case errors.Is(err, errHandleExpired):
		return failure(statusExpired, msgExpired), nil
	case err != nil:
		return failure(statusUnknownAction, msgUnknownAction), nil
	}
	cfg := b.config()
	if !Scope(cfg)(act.server, act.tool) {
		return failure(statusUnknownAction, msgGone), nil
	}
	b.noteRan(req.Session, act.server)
	run := func(ctx context.Context, asker *upstream.Asker) *mcp.CallToolResult {
		res := b.runAction(upstream.WithAsker(ctx, asker), cfg, session, act, args)
		if !cfg.Bridge.NoLearning {
			b.learner.ran(session, act, res)
		}
		return res
	}
	if inRounds(req) {
		return b.runInRounds(ctx, req, run), nil
	}
	return run(ctx, b.askerFor(ctx, req)), nil
}

// runAction executes one resolved action for session: the drift check
// against the server's current listing, validation, the upstream call, the
// output stage (later pages kept for session only), telemetry. The
// arguments are checked before any server starts: when the server is not
// running, against the stored definition first (a needs_input or
// invalid_params answer waits for no start), and the drift check, which
// starts it, follows; a running server's listing costs no start and is
// checked first.
func (b *Server) runAction(ctx context.Context, cfg *config.File, session any, act action, args runArgs) *mcp.CallToolResult {
	if b.cancelling() {
		return b.cancelled(act, store.Call{})
	}
	running := b.ups.Running(act.server)
	tool, ans := b.checkTool(ctx, cfg, act, running)
	if ans == nil {
		ans = b.checkHeld(ctx, act)
	}
	if ans != nil {
		return ans
	}
	checked, ans := b.checkParams(act, tool, args.Params)
	if ans != nil {
		return ans
	}
	if !running {
		if _, ans := b.checkTool(ctx, cfg, act, true); ans != nil {
			return ans
		}
	}

	call := b.ups.Call
	if schema.NeedsTask(tool.Record) {
		call = b.ups.CallTask
	}
	start := time.Now()
	res, err := call(ctx, act.server, act.tool, checked.Args)
	latency := time.Since(start)
	if err == nil && res == nil {
		err = errors.New("empty result")
	}
	if err != nil && b.cancelling() {
		b.logger.Info("run cancelled: shutting down", "server", act.server, "tool", act.tool, "after", latency)
		return b.cancelled(act, store.Call{Latency: latency})
	}
	if err != nil && ctx.Err() != nil {
		// The client cancelled the request (notifications/cancelled) or
		// its session ended: go-sdk cancelled the call upstream, and the
		// server did nothing wrong.
		b.logger.Info("run cancelled by the client", "server", act.server, "tool", act.tool, "after", latency)
		return b.clientCancelled(act, store.Call{Latency: latency})
	}
	if err != nil {
		b.logger.Warn("upstream call failed", "server", act.server, "tool", act.tool, "err", err, upstream.StderrAttr(err))
		ans, n := upstreamFailure(act.server, err, cfg.Servers[act.server].Secrets())
		b.record(store.Call{Server: act.server, Tool: act.tool, Latency: latency, Outcome: statusUpstreamError, Redactions: n})
		return ans
	}

	shaped, err := output.Shape(res, outputOptions(cfg, act, args.Fields))
	if err != nil {
		// The raw result would skip redaction and the token ceiling.
		b.logger.Warn("shaping a result failed", "server", act.server, "tool", act.tool, "err", err)
		b.record(store.Call{Server: act.server, Tool: act.tool, Latency: latency, Outcome: statusUpstreamError})
		return failure(statusUpstreamError, sanitized("the tool answered, but its result could not be read: "+err.Error(), maxMessageLen))
	}
	page := b.pager.First(session, shaped)
	outcome := outcomeOK
	if res.IsError {
		outcome = outcomeError
	}
	if len(shaped.Flagged) > 0 {
		b.logger.Warn("result flagged by the poisoning detector", "server", act.server, "tool", act.tool,
			"rules", strings.Join(shaped.Flagged, ","), "mode", cfg.Bridge.Results)
	}
	b.record(store.Call{
		Server: act.server, Tool: act.tool,
		BytesIn: int64(shaped.BytesIn), BytesOut: int64(shaped.BytesOut),
		TokensIn: int64(shaped.TokensIn), TokensOut: int64(shaped.TokensOut),
		Pages: shaped.PageCount(), Latency: latency, Outcome: outcome, Redactions: shaped.Redactions,
		Flagged: len(shaped.Flagged),
	})
	return page
}

// currentTool returns the stored record of server's tool as the server
// lists it now. A run for a server that is not running (so its next session
// may list other tools) or whose listing changed since it was last checked
// re-lists it first, which also starts it (a listing identical to the
// stored one, by its digest, is not normalized or stored again); while the session
// lives, notifications/tools/list_changed (ToolsChanged) marks it again.
func (b *Server) currentTool(ctx context.Context, cfg *config.File, server, tool string) (*store.Tool, error) {
	if err := b.ensureListed(ctx, cfg, server); err != nil {
		return nil, err
	}
	return b.storedTool(ctx, server, tool)
}

// storedTool returns the stored record of server's tool, without listing
// the server. A row read from the store is kept until the server is
// re-indexed.
func (b *Server) storedTool(ctx context.Context, server, tool string) (*store.Tool, error) {
	key := toolKey{server, tool}
	b.mu.Lock()
	t, ok := b.records[key]
	gen := b.indexed
	b.mu.Unlock()
	if ok {
		return t, nil
	}
	t, err := b.st.Tool(ctx, server, tool)
	if err != nil {
		return nil, fmt.Errorf("reading %s/%s: %w", server, tool, err)
	}
	b.mu.Lock()
	if b.indexed == gen { // no re-index since the read: the row is current
		if len(b.records) >= maxRecordsKept {
			clear(b.records)
		}
		b.records[key] = t
	}
	b.mu.Unlock()
	return t, nil
}

// ensureListed re-lists and re-indexes server unless it is running and was
// checked since its listing last changed. Concurrent runs share one listing.
func (b *Server) ensureListed(ctx context.Context, cfg *config.File, server string) error {
	for {
		running := b.ups.Running(server)
		b.mu.Lock()
		if b.verified[server] && running {
			b.mu.Unlock()
			return nil
		}
		if wait, ok := b.listing[server]; ok {
			b.mu.Unlock()
			select {
			case <-wait:
				continue // check again: it may have failed, or stopped since
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		done := make(chan struct{})
		b.listing[server] = done
		b.mu.Unlock()

		err := b.relist(ctx, cfg, server)
		b.mu.Lock()
		delete(b.listing, server)
		if err == nil {
			b.verified[server] = true
		}
		b.mu.Unlock()
		close(done)
		return err
	}
}

// relist lists server now and stores its catalog.
func (b *Server) relist(ctx context.Context, cfg *config.File, server string) error {
	results, err := Index(ctx, cfg, b.st, b.ups, []string{server}, &IndexOptions{Logger: b.logger})
	b.forgetRecords(server)
	for _, r := range results {
		if r.Server == server && r.Err != nil {
			return r.Err
		}
	}
	return err
}

// Bound on stored rows kept in memory for runs.
const maxRecordsKept = 4096

// forgetRecords drops the rows kept for server's tools: it was re-indexed.
func (b *Server) forgetRecords(server string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.indexed++
	for k := range b.records {
		if k.server == server {
			delete(b.records, k)
		}
	}
}

// outputOptions joins the config's mask for this tool and the call's fields;
// the pages are framed as data from act's server, and read by the poisoning
// detector as bridge.results says.
func outputOptions(cfg *config.File, act action, fields []string) *output.Options {
	oc := cfg.Output[act.server+"/"+act.tool]
	opts := &output.Options{
		MaxTokens: oc.MaxTokens,
		Secrets:   cfg.Servers[act.server].Secrets(),
		Source:    schema.SanitizeName(act.server, maxSourceChars),
		Scan:      scanMode(cfg.Bridge.Results),
	}
	opts.Fields = append(append(opts.Fields, oc.Fields...), fields...)
	if oc.Strip != nil && !*oc.Strip {
		opts.NoStrip = true
	}
	return opts
}

// maxSourceChars bounds the server name a result's frame line shows.
const maxSourceChars = 64

// scanMode is the output stage's reading of bridge.results.
func scanMode(results string) output.ScanMode {
	switch results {
	case config.ResultsStrip:
		return output.ScanStrip
	case config.ResultsOff:
		return output.ScanOff
	}
	return output.ScanWarn
}

// nextPage answers run_capability {cursor} for session: a cursor another
// session got is unknown here, as an action id is.
func (b *Server) nextPage(session any, cursor string) *mcp.CallToolResult {
	page, err := b.pager.Next(session, cursor)
	switch {
	case errors.Is(err, output.ErrCursorExpired):
		return failure(statusExpired, msgCursorExpired)
	case err != nil:
		return failure(statusUnknownAction, msgCursorUnknown)
	}
	return page
}

// RefusedBeforeCall reports whether a recorded call outcome is one the
// bridge answered itself, without calling the provider: the model must fix
// the call (needs_input, invalid_params) or discover again (schema_changed).
func RefusedBeforeCall(outcome string) bool {
	switch outcome {
	case statusNeedsInput, statusInvalidParams, statusSchemaChanged:
		return true
	}
	return false
}

// refuse records a call that never reached the provider and returns ans.
func (b *Server) refuse(act action, outcome string, ans *mcp.CallToolResult) *mcp.CallToolResult {
	b.record(store.Call{Server: act.server, Tool: act.tool, Outcome: outcome})
	return ans
}

// record queues one call's telemetry for the recorder: a SQLite write does
// not belong on the path of every run. When the queue is full (the disk is
// far behind) the record is dropped and logged.
func (b *Server) record(c store.Call) {
	c.At = b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	select {
	case b.calls <- c:
	default:
		b.logger.Warn("call telemetry queue full; dropping a record", "server", c.Server, "tool", c.Tool)
	}
}

// Bounds of the telemetry recorder.
const (
	maxPendingCalls = 1024
	recordTimeout   = 5 * time.Second
	// recordBatchWait is how long the recorder gathers calls after one
	// arrives, to write them in one transaction: a transaction a call cost
	// a run 0.07 ms of CPU, beside the run on a two-core machine.
	recordBatchWait = 500 * time.Millisecond
	maxRecordBatch  = 256
)

// recordCalls writes queued telemetry until Close closes the queue: the
// calls that arrive within recordBatchWait of one go in one transaction.
func (b *Server) recordCalls() {
	batch := make([]store.Call, 0, maxRecordBatch)
	for c := range b.calls {
		batch = append(batch[:0], c)
		wait := time.NewTimer(recordBatchWait)
	gather:
		for len(batch) < maxRecordBatch {
			select {
			case c, ok := <-b.calls:
				if !ok {
					break gather // closed: write what is here, then stop
				}
				batch = append(batch, c)
			case <-wait.C:
				break gather
			}
		}
		wait.Stop()
		ctx, cancel := context.WithTimeout(context.Background(), recordTimeout)
		if err := b.st.RecordCalls(ctx, batch); err != nil {
			b.logger.Warn("recording call telemetry failed", "calls", len(batch), "err", err)
		}
		cancel()
	}
}

// upstreamFailure answers upstream_error with err's message, scrubbed of
// secrets (the server's, and an [upstream.Error]'s own), sanitized and
// bounded. It returns how many secrets it redacted.
func upstreamFailure(server string, err error, secrets []string) (*mcp.CallToolResult, int) {
	msg := fmt.Sprintf("server %q failed: %v", server, err)
	counted := msg
	if ue := (*upstream.Error)(nil); errors.As(err, &ue) {
		msg, counted = ue.Error(), ue.Unredacted() // it names its server itself
	}
	_, n := output.Redact(counted, secrets)
	msg, _ = output.Redact(msg, secrets)
	return failure(statusUpstreamError, sanitized(msg, maxMessageLen)), n
}

// missingInput is one needs_input entry.
type missingInput struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
}

// needsInput answers needs_input with every missing input that fits the
// answer budget; more counts the rest.
func needsInput(missing []schema.Missing) *mcp.CallToolResult {
	ans := struct {
		Status  string         `json:"status"`
		Missing []missingInput `json:"missing"`
		More    int            `json:"more,omitempty"`
	}{Status: statusNeedsInput, Missing: []missingInput{}}
	budget := maxAnswerBytes - len(`,"more":`) - 5
	for i, m := range missing {
		ans.Missing = append(ans.Missing, missingInput{
			Name:        inputName(m.Path),
			Type:        m.Type,
			Description: sanitized(m.Description, 200),
		})
		if len(compactJSON(ans)) > budget {
			ans.Missing = ans.Missing[:len(ans.Missing)-1]
			ans.More = len(missing) - i
			break
		}
	}
	return textAnswer(ans, true)
}

// inputName is how needs_input names a missing input: a top-level one by its
// card name, as params takes it ("subject"), a nested one by its JSON
// Pointer ("/user/email").
func inputName(pointer string) string {
	if rest, ok := strings.CutPrefix(pointer, "/"); ok && !strings.Contains(rest, "/") {
		return strings.NewReplacer("~1", "/", "~0", "~").Replace(rest)
	}
	return pointer
}
