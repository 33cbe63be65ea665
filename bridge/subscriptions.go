package bridge

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// subscriptions forward resources/subscribe and resources/unsubscribe to
// the server behind a resource, once per resource however many sessions
// subscribe, and hand its notifications/resources/updated to go-sdk, which
// sends them to the sessions subscribed (either protocol generation).
// Sessions that ended without unsubscribing are dropped whenever the
// subscriptions are used; the last one out unsubscribes upstream.
type subscriptions struct {
	b *Server

	mu    sync.Mutex               // guards byURI
	byURI map[string]*subscription // by the URI clients subscribed to
}

type subscription struct {
	server, orig string // the resource as its server calls it
	sessions     map[*mcp.ServerSession]bool
}

func (s *subscriptions) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	server, orig, ok := s.b.features.resolve(uri)
	if !ok {
		return mcp.ResourceNotFoundError(uri)
	}
	s.mu.Lock()
	if s.byURI == nil {
		s.byURI = make(map[string]*subscription)
	}
	sub := s.byURI[uri]
	if sub != nil && sub.server == server && sub.orig == orig {
		sub.sessions[req.Session] = true
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	if err := s.b.ups.Subscribe(ctx, server, orig); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sub = s.byURI[uri]; sub == nil || sub.server != server || sub.orig != orig {
		sub = &subscription{server: server, orig: orig, sessions: make(map[*mcp.ServerSession]bool)}
		s.byURI[uri] = sub
	}
	sub.sessions[req.Session] = true
	return nil
}

func (s *subscriptions) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	uri := req.Params.URI
	s.mu.Lock()
	sub := s.byURI[uri]
	if sub == nil {
		s.mu.Unlock()
		return nil
	}
	delete(sub.sessions, req.Session)
	last := len(sub.sessions) == 0
	if last {
		delete(s.byURI, uri)
	}
	s.mu.Unlock()
	if last {
		return s.b.ups.Unsubscribe(ctx, sub.server, sub.orig)
	}
	return nil
}

// updated passes on server's notifications/resources/updated for its URI
// orig, under the URI each subscriber used.
func (s *subscriptions) updated(server, orig string) {
	ctx, cancel := context.WithTimeout(context.Background(), featuresRelistTimeout)
	defer cancel()
	live := make(map[*mcp.ServerSession]bool)
	for ss := range s.b.server.Sessions() {
		live[ss] = true
	}
	var uris []string
	type gone struct{ server, orig string }
	var unsubscribe []gone
	s.mu.Lock()
	for uri, sub := range s.byURI {
		for ss := range sub.sessions {
			if !live[ss] {
				delete(sub.sessions, ss)
			}
		}
		if len(sub.sessions) == 0 {
			delete(s.byURI, uri)
			unsubscribe = append(unsubscribe, gone{sub.server, sub.orig})
			continue
		}
		if sub.server == server && sub.orig == orig {
			uris = append(uris, uri)
		}
	}
	s.mu.Unlock()
	for _, g := range unsubscribe {
		if err := s.b.ups.Unsubscribe(ctx, g.server, g.orig); err != nil {
			s.b.logger.Debug("unsubscribing for sessions that ended", "server", g.server, "uri", g.orig, "err", err)
		}
	}
	for _, uri := range uris {
		if err := s.b.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
			s.b.logger.Debug("passing on a resource update", "uri", uri, "err", err)
		}
	}
}
