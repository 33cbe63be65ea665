package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Features is what one server offers beside its tools, each object as the
// SDK decoded it from the server's list pages (go-sdk's types know every
// field MCP 2025-11-25 defines for these objects).
type Features struct {
	Server string
	// Capabilities are the server's capabilities as it declared them.
	Capabilities json.RawMessage
	Prompts      []json.RawMessage
	Resources    []json.RawMessage
	Templates    []json.RawMessage
	Bytes        int64 // the three lists' objects, in all
	// Refusals say, one per list, why a list stopped before its end (a
	// limit, a failing page); nil when every list was read whole.
	Refusals []string
}

// ListFeatures lists server's prompts, resources and resource templates,
// every page of each list the server declares a capability for, starting
// the server if needed. Each list is bounded by [CatalogLimits.MaxFeatures]
// and all three by MaxFeatureBytes; past a bound, or when a list fails
// after its first page, the list stops and [Features.Refusals] says why.
// A server that cannot be started or whose first page fails is an error.
func (u *Pool) ListFeatures(ctx context.Context, server string) (*Features, error) {
	up, err := u.lookup(server)
	if err != nil {
		return nil, fmt.Errorf("listing prompts and resources of %s: %w", server, err)
	}
	c, err := up.acquire(ctx)
	if err != nil {
		return nil, err
	}
	f, err := up.readFeatures(ctx, c)
	up.release(err == nil)
	return f, err
}

func (up *upstream) readFeatures(ctx context.Context, c *conn) (*Features, error) {
	f := &Features{Server: up.name, Capabilities: json.RawMessage("{}")}
	caps := &mcp.ServerCapabilities{}
	if ir := c.session.InitializeResult(); ir != nil && ir.Capabilities != nil {
		caps = ir.Capabilities
	}
	if b, err := json.Marshal(caps); err == nil {
		f.Capabilities = b
	}
	lim := up.u.opts.Limits
	timeout := up.callTimeout()
	type list struct {
		kind string
		on   bool
		into *[]json.RawMessage
		page func(ctx context.Context, cursor string) ([]any, string, error)
	}
	lists := []list{
		{"prompts", caps.Prompts != nil, &f.Prompts, func(ctx context.Context, cursor string) ([]any, string, error) {
			res, err := c.session.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return anys(res.Prompts), res.NextCursor, nil
		}},
		{"resources", caps.Resources != nil, &f.Resources, func(ctx context.Context, cursor string) ([]any, string, error) {
			res, err := c.session.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return anys(res.Resources), res.NextCursor, nil
		}},
		{"resource templates", caps.Resources != nil, &f.Templates, func(ctx context.Context, cursor string) ([]any, string, error) {
			res, err := c.session.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return anys(res.ResourceTemplates), res.NextCursor, nil
		}},
	}
	for _, l := range lists {
		if !l.on {
			continue
		}
		seen := map[string]bool{}
		cursor := ""
		for pages := 0; ; pages++ {
			if pages >= lim.MaxPages {
				f.Refusals = append(f.Refusals, fmt.Sprintf("%s refused past %d pages", l.kind, lim.MaxPages))
				break
			}
			pctx, cancel := context.WithTimeout(ctx, timeout)
			items, next, err := l.page(pctx, cursor)
			expired := pctx.Err() != nil
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return nil, up.fail("list", ctx.Err(), nil)
				}
				if expired {
					err = fmt.Errorf("%w after %s", ErrTimeout, timeout)
				}
				var answered *jsonrpc.Error
				if pages == 0 && !errors.As(err, &answered) {
					return nil, up.broken("list", c, fmt.Errorf("listing %s: %w", l.kind, err))
				}
				// The server refused the list (or a later page): the others
				// are still worth keeping.
				f.Refusals = append(f.Refusals, fmt.Sprintf("%s not read: %s", l.kind, up.config().Redact(err.Error())))
				break
			}
			full := false
			for _, it := range items {
				b, err := json.Marshal(it)
				if err != nil {
					continue // cannot happen for the SDK's own types
				}
				if len(*l.into) >= lim.MaxFeatures {
					f.Refusals = append(f.Refusals, fmt.Sprintf("%s refused past %d", l.kind, lim.MaxFeatures))
					full = true
					break
				}
				if f.Bytes+int64(len(b)) > lim.MaxFeatureBytes {
					f.Refusals = append(f.Refusals, fmt.Sprintf("%s refused past %d bytes of prompts and resources", l.kind, lim.MaxFeatureBytes))
					full = true
					break
				}
				*l.into = append(*l.into, b)
				f.Bytes += int64(len(b))
			}
			if full || next == "" {
				break
			}
			if seen[next] {
				f.Refusals = append(f.Refusals, fmt.Sprintf("%s cut short: the server repeated a cursor", l.kind))
				break
			}
			seen[next] = true
			cursor = next
		}
	}
	if len(f.Refusals) > 0 {
		up.u.opts.Logger.Warn("prompts and resources cut short", "server", up.name, "reasons", f.Refusals)
	}
	return f, nil
}

func anys[T any](items []*T) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out
}

// GetPrompt forwards prompts/get to server, starting it if needed, bounded
// by the call timeout. An error the server answered with is returned as
// its *jsonrpc.Error (its message scrubbed of the entry's secrets), for the
// caller to pass on as it is.
func (u *Pool) GetPrompt(ctx context.Context, server string, p *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
	var res *mcp.GetPromptResult
	err := u.forward(ctx, server, "prompts/get", func(ctx context.Context, cs *mcp.ClientSession) (err error) {
		res, err = cs.GetPrompt(ctx, p)
		return err
	})
	return res, err
}

// ReadResource forwards resources/read to server as [Pool.GetPrompt] does.
func (u *Pool) ReadResource(ctx context.Context, server string, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	var res *mcp.ReadResourceResult
	err := u.forward(ctx, server, "resources/read", func(ctx context.Context, cs *mcp.ClientSession) (err error) {
		res, err = cs.ReadResource(ctx, p)
		return err
	})
	return res, err
}

// Complete forwards completion/complete to server as [Pool.GetPrompt] does.
func (u *Pool) Complete(ctx context.Context, server string, p *mcp.CompleteParams) (*mcp.CompleteResult, error) {
	var res *mcp.CompleteResult
	err := u.forward(ctx, server, "completion/complete", func(ctx context.Context, cs *mcp.ClientSession) (err error) {
		res, err = cs.Complete(ctx, p)
		return err
	})
	return res, err
}

// forward runs one request on server's session: started if needed, bounded
// by the call timeout; a session that ended under it is dropped.
func (u *Pool) forward(ctx context.Context, server, method string, do func(context.Context, *mcp.ClientSession) error) error {
	up, err := u.lookup(server)
	if err != nil {
		return fmt.Errorf("%s on %s: %w", method, server, err)
	}
	c, err := up.acquire(ctx)
	if err != nil {
		return err
	}
	timeout := up.callTimeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, end := c.asks.begin(nil) // what the server asks meanwhile is nobody's
	defer end()
	err = do(cctx, c.session)
	var answered *jsonrpc.Error
	up.release(err == nil || errors.As(err, &answered))
	switch {
	case err == nil:
		return nil
	case errors.As(err, &answered):
		return up.answered(answered)
	case ctx.Err() != nil:
		return up.fail("call", ctx.Err(), nil)
	case cctx.Err() != nil:
		return up.fail("call", fmt.Errorf("%s: %w after %s: %w", method, ErrTimeout, timeout, cctx.Err()), nil)
	}
	return up.broken("call", c, fmt.Errorf("%s: %w", method, err))
}

// answered is an error the server answered a forwarded request with, as it
// is passed on: its message and data scrubbed of the entry's secrets (data
// that is no JSON once scrubbed is left out).
func (up *upstream) answered(e *jsonrpc.Error) *jsonrpc.Error {
	cfg := up.config()
	out := &jsonrpc.Error{Code: e.Code, Message: cfg.Redact(e.Message)}
	if len(e.Data) > 0 {
		if data := cfg.Redact(string(e.Data)); json.Valid([]byte(data)) {
			out.Data = json.RawMessage(data)
		}
	}
	return out
}
