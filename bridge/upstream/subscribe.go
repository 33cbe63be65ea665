package upstream

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Subscribe subscribes to updates of server's resource uri
// (resources/subscribe), starting the server if needed. While it has
// subscriptions the server is not stopped for being idle, and a session
// that starts again after a crash subscribes again; its
// notifications/resources/updated reach [Options.OnResourceUpdated].
func (u *Pool) Subscribe(ctx context.Context, server, uri string) error {
	up, err := u.lookup(server)
	if err != nil {
		return fmt.Errorf("subscribing to %s on %s: %w", uri, server, err)
	}
	err = u.forward(ctx, server, "resources/subscribe", func(ctx context.Context, cs *mcp.ClientSession) error {
		return cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
	})
	if err != nil {
		return err
	}
	up.mu.Lock()
	defer up.mu.Unlock()
	if up.subs == nil {
		up.subs = make(map[string]bool)
	}
	up.subs[uri] = true
	return nil
}

// Unsubscribe ends a subscription [Pool.Subscribe] made. A server that is
// not running has nothing to end: it is not started for this.
func (u *Pool) Unsubscribe(ctx context.Context, server, uri string) error {
	up, err := u.lookup(server)
	if err != nil {
		return fmt.Errorf("unsubscribing from %s on %s: %w", uri, server, err)
	}
	up.mu.Lock()
	_, had := up.subs[uri]
	delete(up.subs, uri)
	up.mu.Unlock()
	if !had || !up.running() {
		return nil
	}
	return u.forward(ctx, server, "resources/unsubscribe", func(ctx context.Context, cs *mcp.ClientSession) error {
		return cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
	})
}

// resubscribe subscribes a new session to what the server's last session
// was subscribed to.
func (up *upstream) resubscribe(ctx context.Context, c *conn) {
	up.mu.Lock()
	uris := make([]string, 0, len(up.subs))
	for uri := range up.subs {
		uris = append(uris, uri)
	}
	up.mu.Unlock()
	for _, uri := range uris {
		cctx, cancel := context.WithTimeout(ctx, up.callTimeout())
		err := c.session.Subscribe(cctx, &mcp.SubscribeParams{URI: uri})
		cancel()
		if err != nil {
			up.u.opts.Logger.Warn("subscribing again after a restart failed", "server", up.name, "uri", uri, "err", up.config().Redact(err.Error()))
		}
	}
}
