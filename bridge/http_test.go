package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestCheckHTTPAddr(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8930", "", true},
		{"127.0.0.2:0", "", true},
		{"[::1]:0", "", true},
		{"localhost:8930", "", true},
		{"0.0.0.0:8930", "", false},
		{":8930", "", false},
		{"[::]:0", "", false},
		{"192.168.1.10:8930", "", false},
		{"myhost:8930", "", false},
		{"127.0.0.1", "", false}, // no port: not an address net.Listen takes
		{"0.0.0.0:8930", "t0ken", true},
	}
	for _, tt := range tests {
		err := CheckHTTPAddr(tt.addr, tt.token)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrHTTPNeedsToken)) {
			t.Errorf("CheckHTTPAddr(%q, %q) = %v, want ok %v", tt.addr, tt.token, err, tt.ok)
		}
	}
}

// serveHTTPTest serves h on a loopback port with NewHTTPServer and opts,
// and returns its URL.
func serveHTTPTest(t *testing.T, h http.Handler, opts *HTTPOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(h, opts)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

const testInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func postInitialize(t *testing.T, url string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(testInitialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// TestHTTPBusySessions: at the session cap with every session in the middle
// of a request, a new session gets 503 with Retry-After; once one is idle,
// the new session takes its place.
func TestHTTPBusySessions(t *testing.T) {
	const max = 2
	srv := mcp.NewServer(&mcp.Implementation{Name: "blocking", Version: "1"}, nil)
	started, release := make(chan struct{}), make(chan struct{})
	srv.AddTool(&mcp.Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			started <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{}, nil
		})
	url := serveHTTPTest(t, NewHTTPHandler(srv, &HTTPOptions{MaxSessions: max}), nil)

	var calls sync.WaitGroup
	for i := range max {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprint("c", i), Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		calls.Go(func() { cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "block"}) })
	}
	releaseOnce := sync.OnceFunc(func() { close(release) })
	defer releaseOnce() // before the sessions close, should the test fail
	for range max {
		<-started
	}
	resp := postInitialize(t, url)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a new session with every session busy: %s, Retry-After %q; want 503 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
	releaseOnce()
	calls.Wait()
	if resp := postInitialize(t, url); resp.StatusCode != http.StatusOK {
		t.Fatalf("a new session once the others are idle: %s, want 200", resp.Status)
	}
}

// TestHTTPSlowClients: 60 connections trickling their headers or their body
// a byte at a time are cut after the header and body timeouts, and a real
// client is served meanwhile.
func TestHTTPSlowClients(t *testing.T) {
	const slow, timeout, trickle = 60, 500 * time.Millisecond, 100 * time.Millisecond
	opts := &HTTPOptions{HeaderTimeout: timeout, BodyTimeout: timeout}
	b := newBridge(t, nil, nil)
	url := serveHTTPTest(t, NewHTTPHandler(b.MCP(), opts), opts)
	addr := strings.TrimPrefix(url, "http://")

	cut := make(chan error, slow)
	for i := range slow {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		// Half trickle their headers; half send headers and trickle the body.
		start := "POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n" +
			"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n"
		if i%2 == 0 {
			start = "POST / HTTP/1.1\r\n"
		}
		go func() {
			if _, err := io.WriteString(conn, start); err != nil {
				cut <- err
				return
			}
			// Until the server cuts the connection, or for at most 30 s
			// (far past any timeout here): a byte every trickle.
			go func() {
				for range 30 * time.Second / trickle {
					if _, err := conn.Write([]byte("X")); err != nil {
						return
					}
					time.Sleep(trickle)
				}
			}()
			conn.SetReadDeadline(time.Now().Add(30 * time.Second))
			_, err := io.Copy(io.Discard, conn) // returns when the server closes the connection
			cut <- err
		}()
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "real", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("a real client among %d slow ones: %v", slow, err)
	}
	defer cs.Close()
	if tools, err := cs.ListTools(context.Background(), nil); err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools/list among %d slow clients: %v, %v", slow, tools, err)
	}

	for i := range slow {
		if err := <-cut; err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("slow connection %d still open after 30 s", i)
			}
		}
	}
}

func TestHostAllowed(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8930}
	open := &net.TCPAddr{IP: net.IPv4(192, 168, 1, 10), Port: 8930}
	tests := []struct {
		local net.Addr
		host  string
		ok    bool
	}{
		{loopback, "127.0.0.1:8930", true},
		{loopback, "127.0.0.2:8930", true},
		{loopback, "localhost", true},
		{loopback, "[::1]:8930", true},
		{loopback, "[::1]", true},
		{loopback, "127.0.0.1:8930.evil.com", false},
		{loopback, "127.0.0.1:8930:80", false},
		{loopback, "127.0.0.1:", true}, // RFC 9110 lets the port be empty
		{loopback, "127.0.0.1:+80", false},
		{loopback, "evil.com", false},
		{loopback, "localhost.", false},
		{loopback, "", false},
		{open, "bridge.example.com:8930", true},
		{open, "192.168.1.10:8930", true},
		{open, "bridge.example.com:8930.evil.com", false},
		{open, "bridge.example.com/x", false},
		{nil, "127.0.0.1:8930", true},
		{nil, "127.0.0.1:8930.evil.com", false},
	}
	for _, tt := range tests {
		r, _ := http.NewRequest(http.MethodPost, "http://x/", nil)
		r.Host = tt.host
		if tt.local != nil {
			r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, tt.local))
		}
		if got := hostAllowed(r); got != tt.ok {
			t.Errorf("hostAllowed(Host %q on %v) = %v, want %v", tt.host, tt.local, got, tt.ok)
		}
	}
}
