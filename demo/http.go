package demo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shutdownGrace is how long ServeHTTP lets open requests finish once ctx ends.
const shutdownGrace = 2 * time.Second

// ServeHTTP serves the demo server over Streamable HTTP on ln, at every
// path, until ctx ends. All sessions share one server and its call counter.
// The stdout faults (banner, garbage, exit-at-start) do not apply.
func ServeHTTP(ctx context.Context, ln net.Listener, opts *Options) error {
	srv, err := NewServer(opts)
	if err != nil {
		return err
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving demo over HTTP: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close() // a hanging call keeps its request open
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving demo over HTTP: %w", err)
	}
	return nil
}
