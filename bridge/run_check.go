package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// checkTool returns the stored record of act's tool when it is still the
// definition act's card was made from; otherwise the answer that refuses
// the run. With listed, the record is the one of the server's current
// listing, which may start the server and re-list it (see currentTool);
// without, the one stored now.
func (b *Server) checkTool(ctx context.Context, cfg *config.File, act action, listed bool) (*store.Tool, *mcp.CallToolResult) {
	read := b.storedTool
	if listed {
		read = func(ctx context.Context, server, tool string) (*store.Tool, error) {
			return b.currentTool(ctx, cfg, server, tool)
		}
	}
	tool, err := read(ctx, act.server, act.tool)
	switch {
	case errors.Is(err, store.ErrNotFound):
		b.indexer.request(act.server)
		return nil, b.refuse(act, statusSchemaChanged, failure(statusSchemaChanged, msgSchemaChanged))
	case errors.Is(err, store.ErrLocked):
		// The server answered; the catalog could not be written. Saying the
		// server failed would send the model (and the user) the wrong way.
		b.logger.Warn("catalog locked while checking a tool before a run", "server", act.server, "tool", act.tool, "err", err)
		return nil, b.refuse(act, statusUpstreamError, failure(statusUpstreamError, msgCatalogLocked))
	case err != nil && !listed:
		return nil, b.refuse(act, statusUpstreamError, failure(statusUpstreamError,
			sanitized("The tool was not run: its stored definition could not be read: "+err.Error(), maxMessageLen)))
	case err != nil && b.cancelling():
		return nil, b.cancelled(act, store.Call{})
	case err != nil:
		ans, n := upstreamFailure(act.server, err, cfg.Servers[act.server].Secrets())
		b.record(store.Call{Server: act.server, Tool: act.tool, Outcome: statusUpstreamError, Redactions: n})
		return nil, ans
	}
	if tool.Hash != act.hash {
		b.logger.Info("definition changed since discovery", "server", act.server, "tool", act.tool)
		b.indexer.request(act.server)
		return nil, b.refuse(act, statusSchemaChanged, failure(statusSchemaChanged, b.changedMessage(ctx, act)))
	}
	return tool, nil
}

// checkHeld returns the answer that refuses a run of a held tool, or nil.
func (b *Server) checkHeld(ctx context.Context, act action) *mcp.CallToolResult {
	switch held, err := b.held(ctx, act); {
	case errors.Is(err, store.ErrLocked):
		return b.refuse(act, statusUpstreamError, failure(statusUpstreamError, msgCatalogLocked))
	case err != nil:
		return b.refuse(act, statusUpstreamError, failure(statusUpstreamError, sanitized("The tool was not run: its pin could not be read: "+err.Error(), maxMessageLen)))
	case held:
		return b.refuse(act, statusSchemaChanged, failure(statusSchemaChanged, msgHeld))
	}
	return nil
}

// checkParams validates a run's params against tool's exact schema and
// returns the arguments in the provider's names, or the answer that
// refuses the run (needs_input, invalid_params).
func (b *Server) checkParams(act action, tool *store.Tool, params json.RawMessage) (*schema.Checked, *mcp.CallToolResult) {
	v, err := b.validators.get(tool)
	if err != nil {
		return nil, b.refuse(act, statusUpstreamError, failure(statusUpstreamError, sanitized("the tool's input schema cannot be used: "+err.Error(), maxMessageLen)))
	}
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage("{}")
	}
	checked, err := v.Check(params)
	if err != nil {
		return nil, b.refuse(act, statusInvalidParams, invalidParams([]fieldError{{Path: "/params", Message: err.Error()}}))
	}
	if len(checked.Missing) > 0 {
		return nil, b.refuse(act, statusNeedsInput, needsInput(checked.Missing))
	}
	if len(checked.Errors) > 0 {
		errs := make([]fieldError, len(checked.Errors))
		for i, e := range checked.Errors {
			errs[i] = fieldError{Path: e.Path, Message: e.Message}
		}
		return nil, b.refuse(act, statusInvalidParams, invalidParams(errs))
	}
	return checked, nil
}

// Bound on compiled validators kept.
const maxValidators = 512

// validators caches compiled validators by schema hash: compiling a large
// schema takes milliseconds, a run must not.
type validators struct {
	mu     sync.Mutex
	byHash map[string]*schema.Validator // guarded by mu
}

func newValidators() *validators {
	return &validators{byHash: make(map[string]*schema.Validator)}
}

func (vs *validators) get(t *store.Tool) (*schema.Validator, error) {
	vs.mu.Lock()
	v, ok := vs.byHash[t.Hash]
	vs.mu.Unlock()
	if ok {
		return v, nil
	}
	rec, err := schema.DecodeRecord(t.Record)
	if err != nil {
		return nil, fmt.Errorf("reading the record of %s/%s: %w", t.Server, t.Name, err)
	}
	v, err = schema.NewValidator(rec)
	if err != nil {
		return nil, fmt.Errorf("compiling the schema of %s/%s: %w", t.Server, t.Name, err)
	}
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if len(vs.byHash) >= maxValidators {
		for h := range vs.byHash { // drop any one: a recompile is cheap enough
			delete(vs.byHash, h)
			break
		}
	}
	vs.byHash[t.Hash] = v
	return v, nil
}
