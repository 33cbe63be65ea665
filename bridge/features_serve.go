package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/capbridge/capbridge/schema"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"
)

// features serves the offering (see newOffering) through go-sdk's own
// prompt, resource and template sets: go-sdk pages their lists with
// cursors and sends notifications/prompts/list_changed and
// notifications/resources/list_changed to every session when a set
// changes. The request for a list's first page first reads the catalog
// again (a few milliseconds at most), so what a list answers is what is
// stored and not held now, approvals by `capbridge approve` included; no
// server is started to list.
type features struct {
	b *Server

	mu      sync.Mutex // serializes refreshes; guards the fields below
	current *offering
	offers  offers // what the configured servers declare
	loaded  bool   // current was read at least once
}

// offers are the capabilities the bridge declares for what its servers
// offer: each only when a server in scope declares it.
type offers struct {
	prompts, resources, subscribe, completions bool
}

// refresh reads the catalog and brings go-sdk's sets in line with it.
func (f *features) refresh(ctx context.Context) error {
	st := f.b.st
	fs, err := st.Features(ctx)
	if err != nil {
		return err
	}
	heldTools, err := st.Held(ctx)
	if err != nil {
		return err
	}
	listings, err := st.FeatureListings(ctx)
	if err != nil {
		return err
	}
	held := make(map[heldKey]bool)
	for _, h := range heldTools {
		held[heldKey{h.Server, h.Tool}] = true
	}
	cfg := f.b.config()
	inScope := func(server string) bool {
		s, ok := cfg.Servers[server]
		return ok && !s.Disabled
	}
	next := newOffering(fs, inScope, held)
	o := offersOf(listings, inScope)

	f.mu.Lock()
	defer f.mu.Unlock()
	for _, why := range next.left {
		if f.current == nil || !containsString(f.current.left, why) {
			f.b.logger.Warn("not offered to clients", "reason", why)
		}
	}
	f.apply(f.current, next)
	f.current, f.offers, f.loaded = next, o, true
	return nil
}

// offersOf is what the servers in scope declare, from their listings.
func offersOf(listings []store.ServerFeatures, inScope func(string) bool) offers {
	var o offers
	for _, l := range listings {
		if !inScope(l.Server) || l.Capabilities == nil {
			continue
		}
		var caps mcp.ServerCapabilities
		if json.Unmarshal(l.Capabilities, &caps) != nil {
			continue
		}
		o.prompts = o.prompts || caps.Prompts != nil
		o.resources = o.resources || caps.Resources != nil
		o.subscribe = o.subscribe || caps.Resources != nil && caps.Resources.Subscribe
		o.completions = o.completions || caps.Completions != nil
	}
	return o
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// apply adds to go-sdk's sets what next offers anew or changed, and
// removes what it no longer offers. Called with f.mu held.
func (f *features) apply(prev, next *offering) {
	s := f.b.server
	for _, kind := range []string{schema.KindPrompt, schema.KindResource, schema.KindTemplate} {
		var gone []string
		for key := range prev.kindMap(kind) {
			if next.get(kind, key) == nil {
				gone = append(gone, key)
			}
		}
		if len(gone) > 0 {
			switch kind {
			case schema.KindPrompt:
				s.RemovePrompts(gone...)
			case schema.KindResource:
				s.RemoveResources(gone...)
			case schema.KindTemplate:
				s.RemoveResourceTemplates(gone...)
			}
		}
		for key, of := range next.kindMap(kind) {
			if old := prev.get(kind, key); old != nil && old.hash == of.hash && old.server == of.server && bytes.Equal(old.def, of.def) {
				continue
			}
			if err := f.add(of); err != nil {
				f.b.logger.Warn("not offered to clients", "kind", kind, "key", key, "server", of.server, "err", err)
			}
		}
	}
}

func (o *offering) kindMap(kind string) map[string]*offered {
	if o == nil {
		return nil
	}
	return o.byKey[kind]
}

// add registers one offered feature with go-sdk.
func (f *features) add(of *offered) error {
	s := f.b.server
	switch of.kind {
	case schema.KindPrompt:
		var p mcp.Prompt
		if err := json.Unmarshal(of.def, &p); err != nil {
			return fmt.Errorf("reading the prompt: %w", err)
		}
		s.AddPrompt(&p, f.getPrompt(of.server, of.orig))
	case schema.KindResource:
		var r mcp.Resource
		if err := json.Unmarshal(of.def, &r); err != nil {
			return fmt.Errorf("reading the resource: %w", err)
		}
		s.AddResource(&r, f.readResource(of.server, of.prefixed()))
	case schema.KindTemplate:
		var t mcp.ResourceTemplate
		if err := json.Unmarshal(of.def, &t); err != nil {
			return fmt.Errorf("reading the resource template: %w", err)
		}
		s.AddResourceTemplate(&t, f.readResource(of.server, of.prefixed()))
	}
	return nil
}

// getPrompt forwards prompts/get for a prompt server calls orig.
func (f *features) getPrompt(server, orig string) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		res, err := f.b.ups.GetPrompt(ctx, server, &mcp.GetPromptParams{Name: orig, Arguments: req.Params.Arguments})
		if err == nil && res != nil {
			// A prompt's messages go into the conversation as the user
			// picked them: logged when they read like an attack, not
			// changed.
			for _, m := range res.Messages {
				if m == nil {
					continue
				}
				switch c := m.Content.(type) {
				case *mcp.TextContent:
					f.b.flagAsk("prompt", c.Text)
				case *mcp.EmbeddedResource:
					if c.Resource != nil {
						f.b.flagAsk("prompt", c.Resource.Text)
					}
				}
			}
		}
		return res, err
	}
}

// readResource forwards resources/read of a resource or template of
// server; prefixed: offered under server's prefix, which the server's own
// URI has not, and the contents name the URI as the client asked for it.
func (f *features) readResource(server string, prefixed bool) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri, orig := req.Params.URI, req.Params.URI
		if prefixed {
			var ok bool
			if orig, ok = unprefixURI(server, uri); !ok {
				return nil, mcp.ResourceNotFoundError(uri)
			}
		}
		res, err := f.b.ups.ReadResource(ctx, server, &mcp.ReadResourceParams{URI: orig})
		if err != nil {
			return nil, err
		}
		for _, c := range res.Contents {
			if c == nil {
				continue
			}
			if prefixed && c.URI == orig {
				c.URI = uri
			}
			f.b.flagAsk("resource", c.Text) // logged, not changed: see getPrompt
		}
		return res, nil
	}
}

// declared returns what the capabilities of the bridge say of prompts,
// resources and completions: what the servers in scope offer as last read,
// or, before the catalog was first read, as the stored servers declared
// them (read without waiting for the catalog's check, which initialize
// must not wait for).
func (f *features) declared(ctx context.Context) offers {
	f.mu.Lock()
	loaded, o, cur := f.loaded, f.offers, f.current
	f.mu.Unlock()
	if !loaded {
		listings, err := f.b.st.PeekCapabilities(ctx)
		if err != nil {
			f.b.logger.Warn("reading what the servers offer failed; declaring no prompts or resources", "err", err)
			return offers{}
		}
		cfg := f.b.config()
		return offersOf(listings, func(server string) bool {
			s, ok := cfg.Servers[server]
			return ok && !s.Disabled
		})
	}
	if cur != nil {
		o.prompts = o.prompts || len(cur.byKey[schema.KindPrompt]) > 0
		o.resources = o.resources || len(cur.byKey[schema.KindResource]) > 0 || len(cur.byKey[schema.KindTemplate]) > 0
	}
	return o
}

// declare sets the prompts, resources and completions capabilities of an
// initialize or server/discover answer to what configured servers offer.
func (o offers) declare(caps *mcp.ServerCapabilities) {
	caps.Prompts, caps.Resources, caps.Completions = nil, nil, nil
	if o.prompts {
		caps.Prompts = &mcp.PromptCapabilities{ListChanged: true}
	}
	if o.resources {
		caps.Resources = &mcp.ResourceCapabilities{ListChanged: true, Subscribe: o.subscribe}
	}
	if o.completions {
		caps.Completions = &mcp.CompletionCapabilities{}
	}
}

// resolve finds what the server behind an offered resource URI (or one a
// template matches) or template calls it.
func (f *features) resolve(uri string) (server, orig string, ok bool) {
	f.mu.Lock()
	cur := f.current
	f.mu.Unlock()
	if of := cur.get(schema.KindResource, uri); of != nil {
		return of.server, of.orig, true
	}
	if of := cur.get(schema.KindTemplate, uri); of != nil {
		return of.server, of.orig, true
	}
	for _, of := range cur.kindMap(schema.KindTemplate) {
		if of.matches(uri) {
			if !of.prefixed() {
				return of.server, uri, true
			}
			orig, ok := unprefixURI(of.server, uri)
			return of.server, orig, ok
		}
	}
	return "", "", false
}

// matches reports whether a template's expansions include uri.
func (of *offered) matches(uri string) bool {
	of.once.Do(func() {
		if t, err := uritemplate.New(of.key); err == nil {
			of.re = t.Regexp()
		}
	})
	return of.re != nil && of.re.MatchString(uri)
}

// complete forwards completion/complete to the server of the prompt or
// resource template its reference names.
func (b *Server) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref := req.Params.Ref
	b.features.load(ctx)
	var server, orig string
	switch ref.Type {
	case "ref/prompt":
		b.features.mu.Lock()
		of := b.features.current.get(schema.KindPrompt, ref.Name)
		b.features.mu.Unlock()
		if of == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", ref.Name)}
		}
		server, orig = of.server, of.orig
	case "ref/resource":
		var ok bool
		if server, orig, ok = b.features.resolve(ref.URI); !ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown resource or template %q", ref.URI)}
		}
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown reference type %q", ref.Type)}
	}
	p := *req.Params
	r := *ref
	if r.Type == "ref/prompt" {
		r.Name = orig
	} else {
		r.URI = orig
	}
	p.Ref = &r
	p.Meta = nil
	return b.ups.Complete(ctx, server, &p)
}

// firstPage reports whether a list request asks for a list's first page:
// the catalog is read again for it, and its later pages come from that
// read (a client that follows cursors is not charged a read per page).
func firstPage(req mcp.Request) bool {
	switch p := req.GetParams().(type) {
	case *mcp.ListPromptsParams:
		return p == nil || p.Cursor == ""
	case *mcp.ListResourcesParams:
		return p == nil || p.Cursor == ""
	case *mcp.ListResourceTemplatesParams:
		return p == nil || p.Cursor == ""
	}
	return true
}

// Methods whose answers come from the catalog, read again before each
// first page.
var listMethods = map[string]bool{"prompts/list": true, "resources/list": true, "resources/templates/list": true}

// Methods that name one prompt, resource or template: answered once the
// catalog was read.
var featureMethods = map[string]bool{"prompts/get": true, "resources/read": true, "resources/subscribe": true, "resources/unsubscribe": true}

// load reads the catalog unless it was read already.
func (f *features) load(ctx context.Context) {
	f.mu.Lock()
	loaded := f.loaded
	f.mu.Unlock()
	if loaded {
		return
	}
	if err := f.refresh(ctx); err != nil && ctx.Err() == nil {
		f.b.logger.Warn("reading prompts and resources from the catalog failed", "err", err)
	}
}

// featuresMiddleware reads the catalog before the first page of each list
// of prompts, resources or templates, and sets the capabilities an initialize or
// server/discover answer declares for them.
func (b *Server) featuresMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch {
		case listMethods[method] && firstPage(req):
			if err := b.features.refresh(ctx); err != nil {
				b.logger.Warn("reading prompts and resources from the catalog failed; answering from the last read", "method", method, "err", err)
			}
		case featureMethods[method]:
			// A client may get a prompt or read a resource it knows from
			// an earlier session without listing first.
			b.features.load(ctx)
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.InitializeResult:
			if r.Capabilities != nil {
				b.features.declared(ctx).declare(r.Capabilities)
			}
		case *mcp.DiscoverResult:
			if r.Capabilities != nil {
				b.features.declared(ctx).declare(r.Capabilities)
			}
		}
		return res, nil
	}
}

// featuresChanged is told that server's prompts or resources changed
// (notifications/*/list_changed): they are listed and stored again, and
// the offering follows.
func (b *Server) featuresChanged(server string) {
	ctx, cancel := context.WithTimeout(context.Background(), featuresRelistTimeout)
	defer cancel()
	cfg := b.config()
	s, ok := cfg.Servers[server]
	if !ok || s.Disabled {
		return
	}
	_, pinned, err := b.st.FirstPinned(ctx, server)
	if err != nil {
		b.logger.Warn("listing prompts and resources again failed", "server", server, "err", err)
		return
	}
	if _, _, err := indexFeatures(ctx, s, cfg.Bridge, b.st, b.ups, pinned, b.logger); err != nil {
		b.logger.Warn("listing prompts and resources again failed", "server", server, "err", err)
		return
	}
	if err := b.features.refresh(ctx); err != nil {
		b.logger.Warn("reading prompts and resources from the catalog failed", "err", err)
	}
}

// featuresRelistTimeout bounds listing a server's prompts and resources
// again after it said they changed.
const featuresRelistTimeout = 2 * time.Minute
