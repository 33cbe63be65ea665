package upstream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
)

// startHTTPDemo runs `capbridge demo-server --http 127.0.0.1:0` as a child
// and returns its base URL once it listens.
func startHTTPDemo(t *testing.T, flags ...string) string {
	t.Helper()
	bin, err := demoBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"demo-server", "--http", "127.0.0.1:0"}, flags...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, addr, ok := strings.Cut(sc.Text(), "listening on "); ok {
				found <- addr
			}
		}
	}()
	select {
	case addr := <-found:
		return addr
	case <-time.After(20 * time.Second):
		t.Fatal("demo server did not say where it listens")
		return ""
	}
}

// headerRecorder is a reverse proxy in front of an upstream that keeps the
// Authorization header of every request it forwards.
type headerRecorder struct {
	mu   sync.Mutex // guards seen
	seen []string
}

func (h *headerRecorder) proxy(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1 // stream SSE as it comes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.seen = append(h.seen, r.Method+" "+r.Header.Get("Authorization"))
		h.mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (h *headerRecorder) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}

func TestUpstreamsStreamableHTTPWithHeaders(t *testing.T) {
	ctx := testContext(t)
	fixture, err := filepath.Abs(filepath.Join("testdata", "upstream", "raw.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	base := startHTTPDemo(t, "--catalog", fixture, "--server", "raw")
	var rec headerRecorder
	t.Setenv("CAPBRIDGE_TEST_TOKEN", "planted-secret-token")
	cfg, err := config.Parse([]byte(`{"mcpServers": {"remote": {"url": "`+rec.proxy(t, base)+`/mcp",
		"headers": {"Authorization": "Bearer ${CAPBRIDGE_TEST_TOKEN}"}}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	u := newTestUpstreams(t, cfg, nil)
	l, err := u.ListTools(ctx, "remote")
	if err != nil {
		t.Fatal(err)
	}
	if l.Lossy || len(l.Tools) != 2 || !strings.Contains(string(l.Tools[0]), `"execution":{"taskSupport":"forbidden"}`) {
		t.Fatalf("listing over HTTP: lossy %v, tools %s", l.Lossy, l.Tools)
	}
	res, err := u.Call(ctx, "remote", "echo", json.RawMessage(`{"message":"over http"}`))
	if err != nil || res.IsError {
		t.Fatalf("call over HTTP: %v %+v", err, res)
	}
	seen := rec.requests()
	if len(seen) < 3 {
		t.Fatalf("proxy saw %v", seen)
	}
	for _, r := range seen {
		if !strings.HasSuffix(r, "Bearer planted-secret-token") {
			t.Errorf("request without the configured header: %q", r)
		}
	}
}

func TestUpstreamsHTTPErrorsHideSecrets(t *testing.T) {
	ctx := testContext(t)
	t.Setenv("CAPBRIDGE_TEST_TOKEN", "planted-secret-token")
	// Nothing listens there: both transports fail, and the error must not
	// carry the token, even where the URL does.
	addr := freePort(t)
	cfg, err := config.Parse([]byte(`{"mcpServers": {"remote": {"url": "http://`+addr+`/mcp?key=${CAPBRIDGE_TEST_TOKEN}",
		"headers": {"X-Key": "${CAPBRIDGE_TEST_TOKEN}"}}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	u := newTestUpstreams(t, cfg, nil)
	_, err = u.ListTools(ctx, "remote")
	if err == nil {
		t.Fatal("no error from a server that is not there")
	}
	if strings.Contains(err.Error(), "planted-secret-token") {
		t.Errorf("error leaks the secret: %v", err)
	}
	if !strings.Contains(err.Error(), "key=[redacted]") {
		t.Errorf("error %q does not show where the secret was scrubbed", err)
	}
}

func TestUpstreamsSSEFallback(t *testing.T) {
	ctx := testContext(t)
	s := npmServer(t, "everything", "sse")
	addr := freePort(t)
	_, port, _ := strings.Cut(addr, ":")
	cmd := exec.Command(s.Command, s.Args...)
	cmd.Env = append(os.Environ(), "PORT="+port)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	waitListening(t, addr)
	// No type: Streamable HTTP is tried first, then SSE.
	cfg, err := config.Parse([]byte(`{"mcpServers": {"old": {"url": "http://`+addr+`/sse"}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	u := newTestUpstreams(t, cfg, nil)
	l, err := u.ListTools(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if l.Lossy || !strings.Contains(strings.Join(toolNames(t, l), ","), "echo") {
		t.Fatalf("listing over SSE: lossy %v, tools %v", l.Lossy, toolNames(t, l))
	}
	res, err := u.Call(ctx, "old", "echo", json.RawMessage(`{"message":"over sse"}`))
	if err != nil || res.IsError {
		t.Fatalf("call over SSE: %v %+v", err, res)
	}
}

// waitListening waits until something accepts connections on addr.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s", addr)
}

func TestUpstreamsHTTPCloseEndsCallsInFlight(t *testing.T) {
	ctx := testContext(t)
	base := startHTTPDemo(t, "--fault", "hang")
	cfg, err := config.Parse([]byte(`{"mcpServers": {"stuck": {"url": "`+base+`/mcp"}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	u := NewPool(cfg, &Options{StopGrace: 200 * time.Millisecond})
	if _, err := u.ListTools(ctx, "stuck"); err != nil {
		u.Close()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := u.Call(ctx, "stuck", "list_tickets", nil)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the call reach the server
	began := time.Now()
	u.Close()
	if took := time.Since(began); took > 3*time.Second {
		t.Errorf("Close took %v with a call in flight", took)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("call in flight at Close succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("call in flight did not end with Close")
	}
}

// The bridge declares roots, elicitation (form and URL) and sampling, so
// that servers offer the tools that use them (what they ask goes to the
// calling client, see askRouter).
func TestUpstreamsDeclareWhatTheyPassOn(t *testing.T) {
	ctx := testContext(t)
	base := startHTTPDemo(t)
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var bodies []string
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.FlushInterval = -1
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(b))
			mu.Lock()
			bodies = append(bodies, string(b))
			mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	cfg, err := config.Parse([]byte(`{"mcpServers": {"d": {"url": "`+proxy.URL+`/mcp"}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	u := newTestUpstreams(t, cfg, nil)
	if _, err := u.ListTools(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var handshake bool
	for _, b := range bodies {
		if !strings.Contains(b, `"method":"initialize"`) {
			continue
		}
		handshake = true
		for _, want := range []string{`"roots":{"listChanged":true}`, `"elicitation":{"form":{},"url":{}}`, `"sampling":{`} {
			if !strings.Contains(b, want) {
				t.Errorf("the bridge's initialize declares no %s: %s", want, b)
			}
		}
	}
	if !handshake {
		t.Errorf("no initialize seen in %q", bodies)
	}
}
