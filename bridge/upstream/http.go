package upstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport is the http.RoundTripper of one remote server: it adds the
// configured headers and shows the JSON-RPC messages to the listing tap.
type httpTransport struct {
	life    context.Context // the session's: ending it cancels every request
	base    http.RoundTripper
	headers map[string]string // values may be secrets: never logged
	tap     *listTap
	max     int        // largest message shown to the tap
	own     *ownPoster // follows the session's headers for capbridge's own requests
}

func (t *httpTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(t.life, cancel)
	done := func() {
		stop()
		cancel()
	}
	req = req.Clone(ctx)
	for k, v := range t.headers {
		if req.Header.Get(k) == "" {
			req.Header.Set(k, v)
		}
	}
	var body []byte
	if req.Body != nil && req.Method == http.MethodPost {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			done()
			return nil, fmt.Errorf("reading request body: %w", err)
		}
		t.tap.sent(body)
		t.own.saw(req)
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		done()
		return nil, err
	}
	if body != nil && resp.StatusCode < 300 {
		t.tap.cancels.sent(body) // the server took it
	}
	resp.Body = &closeHook{ReadCloser: newTappedBody(resp.Body, resp.Header.Get("Content-Type"), t.tap, t.max), hook: done}
	return resp, nil
}

// closeHook runs hook once the body is closed.
type closeHook struct {
	io.ReadCloser
	hook func()
}

func (c *closeHook) Close() error {
	err := c.ReadCloser.Close()
	c.hook()
	return err
}

// connectHTTP opens a session with a remote server on ctx, the session's
// own context. Type "http" tries
// Streamable HTTP first and falls back to the old HTTP+SSE transport when
// the server rejects it; type "sse" uses SSE only.
//
// oauth, when not nil, signs the session's requests (Streamable HTTP only:
// the SDK's SSE transport has no OAuth handler).
//
// Over Streamable HTTP, own sends capbridge's own requests in the session.
func connectHTTP(ctx context.Context, client *mcp.Client, s config.Server, tap *listTap, own *ownRequests, oauth auth.OAuthHandler) (*mcp.ClientSession, error) {
	rt := &httpTransport{
		life:    ctx,
		base:    http.DefaultTransport.(*http.Transport).Clone(),
		headers: s.Headers,
		tap:     tap,
		max:     own.max,
		own:     &ownPoster{},
	}
	httpClient := &http.Client{Transport: rt}
	rt.own.client = httpClient
	if s.Type == config.TypeSSE {
		cs, err := client.Connect(ctx, &mcp.SSEClientTransport{Endpoint: s.URL, HTTPClient: httpClient, MaxEventSize: own.max}, nil)
		if err != nil {
			return nil, fmt.Errorf("connecting over SSE: %w", err)
		}
		return cs, nil
	}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: httpClient, MaxEventSize: own.max, OAuthHandler: oauth}, nil)
	if err == nil {
		own.mu.Lock()
		own.post = rt.own
		own.mu.Unlock()
		return cs, nil
	}
	if ctx.Err() != nil || signInFailure(err) != nil {
		return nil, fmt.Errorf("connecting over Streamable HTTP: %w", err)
	}
	cs, sseErr := client.Connect(ctx, &mcp.SSEClientTransport{Endpoint: s.URL, HTTPClient: httpClient, MaxEventSize: own.max}, nil)
	if sseErr != nil {
		return nil, errors.Join(
			fmt.Errorf("connecting over Streamable HTTP: %w", err),
			fmt.Errorf("falling back to SSE: %w", sseErr))
	}
	return cs, nil
}
