package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServe is a `capbridge serve --http 127.0.0.1:0` child process.
type httpServe struct {
	url    string
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr bytes.Buffer // guarded by mu; everything serve wrote there
}

// startHTTPServe starts serve --http on a loopback port with cfg, extra
// environment variables and flags, and waits until it says where it
// listens.
func startHTTPServe(t *testing.T, cfg string, env []string, flags ...string) *httpServe {
	t.Helper()
	args := append([]string{"serve", "--config", cfg, "--db", filepath.Join(t.TempDir(), "catalog.db"), "--http", "127.0.0.1:0"}, flags...)
	s := &httpServe{cmd: capbridgeCmd(args...)}
	s.cmd.Env = append(s.cmd.Env, env...)
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Kill(); s.cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			s.mu.Lock()
			s.stderr.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
			if _, url, ok := strings.Cut(sc.Text(), "Streamable HTTP at "); ok {
				addr <- url
			}
		}
	}()
	select {
	case s.url = <-addr:
	case <-time.After(60 * time.Second):
		t.Fatalf("serve --http did not say where it listens; stderr:\n%s", s.log())
	}
	return s
}

func (s *httpServe) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// post sends one JSON-RPC body as a Streamable HTTP client does, with the
// extra headers given, and returns the response with its body read.
func post(t *testing.T, url, body string, headers map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the answer of POST %s: %v", url, err)
	}
	return resp, string(data)
}

// openSession initializes a session by hand and returns its id.
func openSession(t *testing.T, url string, headers map[string]string) string {
	t.Helper()
	resp, body := post(t, url, initializeBody, headers)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %s %q", resp.Status, body)
	}
	return id
}

// pingStatus pings session and returns the HTTP status: 200 while the
// session lives, 404 once it is closed.
func pingStatus(t *testing.T, url, session string) int {
	t.Helper()
	resp, _ := post(t, url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		map[string]string{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"})
	return resp.StatusCode
}

// TestServeHTTPOpenAddressNeedsToken: an address beyond loopback refuses to
// start without CAPBRIDGE_HTTP_TOKEN, before it listens, and says how to set
// one.
func TestServeHTTPOpenAddressNeedsToken(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{}, nil)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		t.Run(addr, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "serve", "--config", cfg, "--db", filepath.Join(t.TempDir(), "catalog.db"), "--http", addr)
			cmd.Env = append(os.Environ(), asCapbridge+"=1", "CAPBRIDGE_HTTP_TOKEN=")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			msg := stderr.String()
			if err == nil || ctx.Err() != nil || strings.Contains(msg, "serving MCP over Streamable HTTP") {
				t.Fatalf("serve --http %s without a token: %v, stderr:\n%s\nwant a refusal before listening", addr, err, msg)
			}
			for _, want := range []string{"CAPBRIDGE_HTTP_TOKEN", "export CAPBRIDGE_HTTP_TOKEN=", "Authorization: Bearer", "127.0.0.1"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the refusal does not say %q:\n%s", want, msg)
				}
			}
		})
	}
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestServeHTTPToken: with CAPBRIDGE_HTTP_TOKEN set, even on loopback,
// every request without the bearer token gets 401; a client that sends it
// is served; the token never reaches the log.
func TestServeHTTPToken(t *testing.T) {
	token := rand.Text()
	cfg := writeConfig(t, map[string]serverEntry{}, nil)
	s := startHTTPServe(t, cfg, []string{"CAPBRIDGE_HTTP_TOKEN=" + token}, "--log-level", "debug")
	for _, tt := range []struct {
		name, auth string
		want       int
	}{
		{"no Authorization", "", http.StatusUnauthorized},
		{"a wrong token", "Bearer " + rand.Text(), http.StatusUnauthorized},
		{"the token with a character more", "Bearer " + token + "x", http.StatusUnauthorized},
		{"the token's prefix", "Bearer " + token[:len(token)-1], http.StatusUnauthorized},
		{"the token as Basic", "Basic " + token, http.StatusUnauthorized},
		{"the token alone", token, http.StatusUnauthorized},
		{"the token", "Bearer " + token, http.StatusOK},
		{"the token, scheme in lower case", "bearer " + token, http.StatusOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			headers := map[string]string{}
			if tt.auth != "" {
				headers["Authorization"] = tt.auth
			}
			resp, body := post(t, s.url, initializeBody, headers)
			if resp.StatusCode != tt.want {
				t.Fatalf("initialize: %s %q, want %d", resp.Status, body, tt.want)
			}
			if tt.want == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("401 without a Bearer challenge: %v", resp.Header)
			}
		})
	}
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(method, s.url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", "any")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s without the token: %s, want 401", method, resp.Status)
		}
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "token-e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatalf("a client with the token: %v", err)
	}
	defer cs.Close()
	if tools, err := cs.ListTools(context.Background(), nil); err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools/list with the token: %v, %v", tools, err)
	}
	callBridge(t, cs, "discover_capability", map[string]any{"intent": "send mail"})
	if log := s.log(); strings.Contains(log, token) || strings.Contains(log, token[:12]) {
		t.Errorf("the token appears in serve's log:\n%s", log)
	}
}

// TestServeHTTPOrigin: a browser Origin other than a loopback one or one
// listed in bridge.http.allowedOrigins gets 403; no Origin (a client that
// is not a browser) is served.
func TestServeHTTPOrigin(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{}, map[string]any{"http": map[string]any{"allowedOrigins": []string{"https://App.Example.com"}}})
	s := startHTTPServe(t, cfg, nil)
	for _, tt := range []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://localhost:5173", http.StatusOK},
		{"http://localhost", http.StatusOK},
		{"http://127.0.0.1:8080", http.StatusOK},
		{"http://[::1]:3000", http.StatusOK},
		{"https://app.example.com", http.StatusOK},
		{"https://evil.example", http.StatusForbidden},
		{"http://app.example.com", http.StatusForbidden},
		{"https://app.example.com.evil.example", http.StatusForbidden},
		{"http://localhost.evil.example", http.StatusForbidden},
		{"http://127.0.0.1.evil.example:8080", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"file://", http.StatusForbidden},
	} {
		t.Run(tt.origin, func(t *testing.T) {
			headers := map[string]string{}
			if tt.origin != "" {
				headers["Origin"] = tt.origin
			}
			if resp, body := post(t, s.url, initializeBody, headers); resp.StatusCode != tt.want {
				t.Errorf("Origin %q: %s %q, want %d", tt.origin, resp.Status, body, tt.want)
			}
		})
	}
}

// TestServeHTTPSessionCap: past bridge.http.maxSessions live sessions, a
// new one closes the session idle longest; the others live on.
func TestServeHTTPSessionCap(t *testing.T) {
	const max = 3
	cfg := writeConfig(t, map[string]serverEntry{}, map[string]any{"http": map[string]any{"maxSessions": max}})
	s := startHTTPServe(t, cfg, nil)
	var sessions []string
	for range max {
		sessions = append(sessions, openSession(t, s.url, nil))
	}
	// Used in this order, the first session is the one idle longest.
	for _, id := range sessions {
		if got := pingStatus(t, s.url, id); got != http.StatusOK {
			t.Fatalf("ping of a live session: %d", got)
		}
	}
	sessions = append(sessions, openSession(t, s.url, nil))
	if got := pingStatus(t, s.url, sessions[0]); got != http.StatusNotFound {
		t.Errorf("the session idle longest, past the cap of %d: ping %d, want 404 (closed)", max, got)
	}
	for i, id := range sessions[1:] {
		if got := pingStatus(t, s.url, id); got != http.StatusOK {
			t.Errorf("session %d: ping %d, want 200", i+2, got)
		}
	}
}

// TestServeHTTPSessionIdle: a session that gets no request for
// bridge.http.sessionIdle is closed.
func TestServeHTTPSessionIdle(t *testing.T) {
	cfg := writeConfig(t, map[string]serverEntry{}, map[string]any{"http": map[string]any{"sessionIdle": "1s"}})
	s := startHTTPServe(t, cfg, nil)
	id := openSession(t, s.url, nil)
	deadline := time.Now().Add(30 * time.Second)
	for pingStatus(t, s.url, id) != http.StatusNotFound {
		if time.Now().After(deadline) {
			t.Fatal("a session idle for 30 s past a sessionIdle of 1s is still open")
		}
		time.Sleep(2 * time.Second)
	}
}

// TestServeHTTPSessionMemory opens 5,000 initialize-only sessions, one
// after another as a leaking client would, and reads serve's resident
// memory: under 100 MB, and past the default cap of 1,000 sessions it
// no longer grows with them (without the cap, 5,000 sessions took 81 MiB
// where 1,000 took 35).
func TestServeHTTPSessionMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("-race multiplies memory use: .ci/run measures this without it")
	}
	const sessions, maxRSS, maxGrowth = 5000, 100 << 20, 16 << 20
	cfg := writeConfig(t, map[string]serverEntry{}, nil)
	s := startHTTPServe(t, cfg, nil)
	var atCap int64
	for i := range sessions {
		resp, body := post(t, s.url, initializeBody, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("initialize %d: %s %q", i, resp.Status, body)
		}
		if i+1 == 1000 {
			atCap = residentMemory(t, s.cmd.Process.Pid)
		}
	}
	rss := residentMemory(t, s.cmd.Process.Pid)
	t.Logf("serve VmRSS after 1,000 initialize-only sessions: %d MiB; after %d: %d MiB (VmHWM %d MiB)",
		atCap>>20, sessions, rss>>20, peakRSS(t, s.cmd.Process.Pid)>>20)
	if rss > maxRSS || rss-atCap > maxGrowth {
		t.Errorf("serve holds %d MiB after %d sessions (%d MiB more than after 1,000), want under %d MiB and at most %d MiB more",
			rss>>20, sessions, (rss-atCap)>>20, maxRSS>>20, maxGrowth>>20)
	}
}

// residentMemory reads a process's VmRSS in bytes.
func residentMemory(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err != nil {
				t.Fatalf("VmRSS %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc status")
	return 0
}
