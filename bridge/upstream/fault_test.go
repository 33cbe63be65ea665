package upstream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests run the demo server of capbridge's own binary as a real child
// process, with its fault modes.

func TestUpstreamsKeepRawTools(t *testing.T) {
	ctx := testContext(t)
	fixture, err := filepath.Abs(filepath.Join("testdata", "upstream", "raw.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	u := newTestUpstreams(t, testConfig(demoServer(t, "raw", "--catalog", fixture, "--server", "raw")), nil)
	l, err := u.ListTools(ctx, "raw")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		want = append(want, strings.Replace(string(line), `"server":"raw",`, "", 1))
	}
	if len(l.Tools) != len(want) || l.Lossy {
		t.Fatalf("got %d tools (lossy %v), want %d", len(l.Tools), l.Lossy, len(want))
	}
	for i, raw := range l.Tools {
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			t.Fatal(err)
		}
		if compact.String() != want[i] {
			t.Errorf("tool %d not kept as sent:\n got %s\nwant %s", i, compact.String(), want[i])
		}
	}
}

func TestUpstreamsDemoPagesAndCall(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(demoServer(t, "demo", "--page-size", "7")), nil)
	l, err := u.ListTools(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if l.Pages < 5 || len(l.Tools) < 30 || l.Refusal != "" {
		t.Fatalf("listing: %d pages, %d tools, refusal %q", l.Pages, len(l.Tools), l.Refusal)
	}
	res, err := u.Call(ctx, "demo", "list_tickets", json.RawMessage(`{"count":2}`))
	if err != nil || res.IsError {
		t.Fatalf("list_tickets: %v %+v", err, res)
	}
}

func TestUpstreamsSkipNonJSONLines(t *testing.T) {
	bin, err := demoBinary()
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]config.Server{
		"banner":  demoServer(t, "noisy", "--fault", "banner"),
		"garbage": demoServer(t, "noisy", "--fault", "garbage"),
		// A JSON log line that is not JSON-RPC, as pino and friends print.
		"json log": testServer("noisy", "sh", "-c", `echo '{"level":30,"msg":"listening"}'; echo '{broken'; exec "$0" demo-server`, bin),
	}
	for name, s := range servers {
		t.Run(name, func(t *testing.T) {
			ctx := testContext(t)
			u := newTestUpstreams(t, testConfig(s), nil)
			l, err := u.ListTools(ctx, "noisy")
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Tools) == 0 {
				t.Fatal("no tools")
			}
			for i := range 3 {
				if _, err := u.Call(ctx, "noisy", "list_tickets", nil); err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
			}
		})
	}
}

func TestUpstreamsCrashThenRestart(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(demoServer(t, "crashy", "--fault", "crash-on-call:2")), nil)
	if _, err := u.Call(ctx, "crashy", "list_tickets", nil); err != nil {
		t.Fatalf("first call: %v", err)
	}
	pid := pidOf(t, u, "crashy")
	_, err := u.Call(ctx, "crashy", "list_tickets", nil)
	var ue *Error
	if !errors.As(err, &ue) || ue.Op != "call" || ue.Server != "crashy" || !errors.Is(err, ErrExited) {
		t.Fatalf("call that hit the crash: %v, want *Error wrapping ErrExited", err)
	}
	if !strings.Contains(err.Error(), "exit status 4") {
		t.Errorf("error does not say how the server ended: %v", err)
	}
	if !waitGone(pid, 5*time.Second) {
		t.Errorf("crashed child %d still there", pid)
	}
	res, err := u.Call(ctx, "crashy", "list_tickets", nil)
	if err != nil || res.IsError {
		t.Fatalf("call after the crash: %v", err)
	}
	if pidOf(t, u, "crashy") == pid {
		t.Error("same pid after a restart")
	}
}

// A server killed while idle is started again by the next call, which then
// succeeds: the child had exited before the call came, so the call cannot
// have been what ended it. The bridge learns of the exit from the kernel, not
// from the end of the child's output: here a grandchild holds stdout open,
// so that end never comes (on a loaded machine it merely comes late, and a
// call in between used to fail with "server exited (signal: killed)").
func TestUpstreamsIdleCrashThenCall(t *testing.T) {
	ctx := testContext(t)
	bin, err := demoBinary()
	if err != nil {
		t.Fatal(err)
	}
	s := testServer("wrapped", "sh", "-c", `sleep 300 & exec "$0" demo-server`, bin)
	u := newTestUpstreams(t, testConfig(s), nil)
	if _, err := u.Call(ctx, "wrapped", "list_tickets", nil); err != nil {
		t.Fatalf("first call: %v", err)
	}
	pid := pidOf(t, u, "wrapped")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !waitGone(pid, 5*time.Second) {
		t.Fatalf("child %d survived SIGKILL", pid)
	}
	res, err := u.Call(ctx, "wrapped", "list_tickets", nil)
	if err != nil || res.IsError {
		t.Fatalf("call after the server died while idle: %v", err)
	}
	if pidOf(t, u, "wrapped") == pid {
		t.Error("same pid after a restart")
	}
}

func TestUpstreamsCallTimeout(t *testing.T) {
	ctx := testContext(t)
	cfg := testConfig(demoServer(t, "stuck", "--fault", "hang"))
	cfg.Bridge.CallTimeout = 300 * time.Millisecond
	u := newTestUpstreams(t, cfg, nil)
	began := time.Now()
	_, err := u.Call(ctx, "stuck", "list_tickets", nil)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("call to a hanging server: %v, want ErrTimeout", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("timed-out call took %v", took)
	}
	if !u.Running("stuck") {
		t.Error("a timeout stopped the server; only the call should end")
	}
}

func TestUpstreamsPagesForever(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(demoServer(t, "pager", "--fault", "pages-forever", "--page-size", "5")),
		&Options{Limits: CatalogLimits{MaxPages: 50}})
	l, err := u.ListTools(ctx, "pager")
	if err != nil {
		t.Fatal(err)
	}
	if l.Refusal == "" {
		t.Fatalf("no refusal after %d pages", l.Pages)
	}
	if l.Pages > 50 || len(l.Tools) == 0 {
		t.Errorf("pages %d, tools %d", l.Pages, len(l.Tools))
	}
}

func TestUpstreamsCatalogLimits(t *testing.T) {
	tests := []struct {
		name   string
		limits CatalogLimits
		want   string
	}{
		{"tools", CatalogLimits{MaxTools: 10}, "10 tools"},
		{"bytes", CatalogLimits{MaxBytes: 4096}, "4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testContext(t)
			u := newTestUpstreams(t, testConfig(demoServer(t, "big", "--page-size", "4")), &Options{Limits: tt.limits})
			l, err := u.ListTools(ctx, "big")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(l.Refusal, tt.want) {
				t.Errorf("refusal %q, want it to mention %q", l.Refusal, tt.want)
			}
			if tt.limits.MaxTools > 0 && len(l.Tools) != tt.limits.MaxTools {
				t.Errorf("kept %d tools, want %d", len(l.Tools), tt.limits.MaxTools)
			}
			if tt.limits.MaxBytes > 0 && (l.Bytes > tt.limits.MaxBytes || l.Bytes == 0) {
				t.Errorf("kept %d bytes, limit %d", l.Bytes, tt.limits.MaxBytes)
			}
		})
	}
}

func TestUpstreamsHugeMessage(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(demoServer(t, "huge", "--fault", "huge:2000000")),
		&Options{Limits: CatalogLimits{MaxMessageBytes: 1 << 20}})
	_, err := u.Call(ctx, "huge", "list_tickets", nil)
	var ue *Error
	if !errors.As(err, &ue) || !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("a 2 MB answer past a 1 MiB limit: %v, want ErrMessageTooLarge", err)
	}
	// The server restarts, and listing (small messages) works.
	if _, err := u.ListTools(ctx, "huge"); err != nil {
		t.Fatalf("listing after the dropped session: %v", err)
	}
}

func TestUpstreamsCloseEndsCallsInFlight(t *testing.T) {
	ctx := testContext(t)
	u := NewPool(testConfig(demoServer(t, "stuck", "--fault", "hang")), &Options{StopGrace: 200 * time.Millisecond})
	if _, err := u.ListTools(ctx, "stuck"); err != nil {
		u.Close()
		t.Fatal(err)
	}
	pid := pidOf(t, u, "stuck")
	done := make(chan error, 1)
	go func() {
		_, err := u.Call(ctx, "stuck", "list_tickets", nil)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the call reach the server
	u.Close()
	select {
	case err := <-done:
		var ue *Error
		if !errors.As(err, &ue) {
			t.Errorf("call in flight at Close: %v, want *Error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("call in flight did not end with Close")
	}
	if !waitGone(pid, 2*time.Second) {
		t.Errorf("child %d alive after Close", pid)
	}
}

func TestUpstreamsExitAtStart(t *testing.T) {
	ctx := testContext(t)
	var logs syncBuffer
	u := newTestUpstreams(t, testConfig(demoServer(t, "dead", "--fault", "exit-at-start")),
		&Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	_, err := u.ListTools(ctx, "dead")
	var ue *Error
	if !errors.As(err, &ue) || ue.Op != "start" || !errors.Is(err, ErrExited) {
		t.Fatalf("listing a server that exits at start: %v", err)
	}
	// The stderr tail goes to the log; the error, which the model reads in
	// upstream_error, gives the short reason only.
	if !strings.Contains(ue.StderrTail, "exiting at start") || !strings.Contains(logs.String(), "exiting at start") {
		t.Errorf("stderr tail %q not in the log:\n%s", ue.StderrTail, logs.String())
	}
	if msg := err.Error(); strings.Contains(msg, "exiting at start") || !strings.Contains(msg, "exited before answering (exit status 3)") {
		t.Errorf("error %q: want the short reason, without the stderr tail", msg)
	}
	// The next try waits out the backoff rather than failing at once.
	if _, err := u.ListTools(ctx, "dead"); !errors.As(err, &ue) || ue.Op != "start" {
		t.Fatalf("second try: %v", err)
	}
}

func TestUpstreamsMissingCommand(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(testServer("ghost", filepath.Join(t.TempDir(), "no-such-server"))), nil)
	_, err := u.Call(ctx, "ghost", "x", nil)
	var ue *Error
	if !errors.As(err, &ue) || ue.Op != "start" || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a missing command: %v", err)
	}
}

func TestUpstreamsIdleShutdown(t *testing.T) {
	ctx := testContext(t)
	cfg := testConfig(demoServer(t, "sleepy"))
	cfg.Bridge.IdleShutdown = 300 * time.Millisecond
	u := newTestUpstreams(t, cfg, nil)
	if _, err := u.Call(ctx, "sleepy", "list_tickets", nil); err != nil {
		t.Fatal(err)
	}
	pid := pidOf(t, u, "sleepy")
	if !waitGone(pid, 5*time.Second) {
		t.Fatalf("idle child %d still running", pid)
	}
	if u.Running("sleepy") {
		t.Error("Running after idle shutdown")
	}
	if _, err := u.Call(ctx, "sleepy", "list_tickets", nil); err != nil {
		t.Fatalf("call after idle shutdown: %v", err)
	}
}

func TestUpstreamsCloseKillsProcessGroup(t *testing.T) {
	ctx := testContext(t)
	bin, err := demoBinary()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	// A shell that leaves a grandchild behind, as npx and wrappers do.
	s := testServer("wrapped", "sh", "-c", `sleep 300 & echo $! > "$0"; exec "$1" demo-server`, pidFile, bin)
	u := NewPool(testConfig(s), &Options{StopGrace: 200 * time.Millisecond})
	if _, err := u.ListTools(ctx, "wrapped"); err != nil {
		u.Close()
		t.Fatal(err)
	}
	pid := pidOf(t, u, "wrapped")
	data, err := os.ReadFile(pidFile)
	if err != nil {
		u.Close()
		t.Fatal(err)
	}
	grandchild, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if !alive(grandchild) {
		t.Fatalf("grandchild %d not running before Close", grandchild)
	}
	u.Close()
	if alive(pid) {
		t.Errorf("child %d alive after Close", pid)
	}
	if !waitGone(grandchild, 2*time.Second) {
		st, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(grandchild), "stat"))
		t.Errorf("grandchild %d alive after Close: %s", grandchild, st)
	}
	if _, err := u.Call(ctx, "wrapped", "list_tickets", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("call after Close: %v, want ErrClosed", err)
	}
}

func TestUpstreamsConcurrentCalls(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(demoServer(t, "busy", "--fault", "slow:50ms")), nil)
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = u.Call(ctx, "busy", "get_ticket", json.RawMessage(`{"ticket_id":"T-`+strconv.Itoa(i)+`"}`))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	res, err := u.Call(ctx, "busy", "demo_stats", nil)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(text, `"get_ticket":`+strconv.Itoa(n)) && !strings.Contains(text, "get_ticket: "+strconv.Itoa(n)) {
		t.Errorf("one server process should have answered all %d calls, once each: %s", n, text)
	}
}

func TestUpstreamsToolListChanged(t *testing.T) {
	ctx := testContext(t)
	changed := make(chan string, 4)
	u := newTestUpstreams(t, testConfig(demoServer(t, "shifty", "--fault", "schema-change")),
		&Options{OnToolsChanged: func(server string) { changed <- server }})
	if _, err := u.Call(ctx, "shifty", "list_tickets", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-changed:
		if got != "shifty" {
			t.Errorf("OnToolsChanged(%q)", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no OnToolsChanged after the server's list_changed")
	}
}

func TestUpstreamsDeniedTool(t *testing.T) {
	ctx := testContext(t)
	s := demoServer(t, "picky")
	s.Tools = config.ToolFilter{Deny: []string{"delete_*"}}
	u := newTestUpstreams(t, testConfig(s), nil)
	if _, err := u.Call(ctx, "picky", "delete_ticket", nil); !errors.Is(err, ErrToolDenied) {
		t.Errorf("denied tool: %v", err)
	}
	if u.Running("picky") {
		t.Error("a denied call started the server")
	}
	if _, err := u.Call(ctx, "nobody", "x", nil); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("unknown server: %v", err)
	}
}

func TestUpstreamsReconfigure(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(demoServer(t, "a"), demoServer(t, "b")), nil)
	for _, s := range []string{"a", "b"} {
		if _, err := u.Call(ctx, s, "list_tickets", nil); err != nil {
			t.Fatal(err)
		}
	}
	pidA, pidB := pidOf(t, u, "a"), pidOf(t, u, "b")
	// a is unchanged, b changes its args, c is new; and then b goes away.
	u.Reconfigure(testConfig(demoServer(t, "a"), demoServer(t, "b", "--page-size", "3"), demoServer(t, "c")))
	if !waitGone(pidB, 5*time.Second) {
		t.Error("changed server b was not stopped")
	}
	if pidOf(t, u, "a") != pidA {
		t.Error("unchanged server a was restarted")
	}
	if _, err := u.Call(ctx, "b", "list_tickets", nil); err != nil {
		t.Fatalf("b after the change: %v", err)
	}
	newB := pidOf(t, u, "b")
	u.Reconfigure(testConfig(demoServer(t, "a")))
	if !waitGone(newB, 5*time.Second) {
		t.Error("removed server b was not stopped")
	}
	if _, err := u.Call(ctx, "b", "list_tickets", nil); !errors.Is(err, ErrUnknownServer) {
		t.Errorf("removed server: %v", err)
	}
}

// The stderr reader and tail are exercised by exit-at-start; this checks
// the tail bound on its own.
func TestTailBuffer(t *testing.T) {
	tb := &tailBuffer{max: 8}
	w := bufio.NewWriter(tb)
	w.WriteString("0123456789abcdef")
	w.Flush()
	if got := tb.String(); got != "89abcdef" {
		t.Errorf("tail = %q", got)
	}
}

func TestUpstreamsStderrTailHidesSecrets(t *testing.T) {
	ctx := testContext(t)
	t.Setenv("CAPBRIDGE_TEST_TOKEN", "planted-secret-token")
	var logs bytes.Buffer
	cfg, err := config.Parse([]byte(`{"mcpServers": {"leaky": {"command": "sh",
		"args": ["-c", "echo \"starting with token $TOKEN\" >&2; exit 1"],
		"env": {"TOKEN": "${CAPBRIDGE_TEST_TOKEN}"}}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	u := newTestUpstreams(t, cfg, &Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	_, err = u.ListTools(ctx, "leaky")
	var ue *Error
	if !errors.As(err, &ue) || !strings.Contains(ue.StderrTail, "starting with token [redacted]") {
		t.Fatalf("error %v: stderr tail should show the line, scrubbed", err)
	}
	if strings.Contains(err.Error(), "starting with") {
		t.Errorf("error %q carries the stderr tail", err)
	}
	for _, out := range []string{err.Error(), ue.StderrTail, logs.String()} {
		if strings.Contains(out, "planted-secret-token") {
			t.Errorf("secret leaked: %s", out)
		}
	}
	if !strings.Contains(logs.String(), "starting with token [redacted]") {
		t.Errorf("log lacks the stderr line, scrubbed:\n%s", logs.String())
	}

	// A line on stdout that is not JSON-RPC is logged when skipped; the
	// server then answers as usual, so the line is read before it does.
	bin, err := demoBinary()
	if err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	cfg, err = config.Parse([]byte(`{"mcpServers": {"chatty": {"command": "sh",
		"args": ["-c", "echo \"stdout token $TOKEN\"; exec '`+bin+`' demo-server"],
		"env": {"TOKEN": "${CAPBRIDGE_TEST_TOKEN}"}}}}`), "c.json")
	if err != nil {
		t.Fatal(err)
	}
	chatty := newTestUpstreams(t, cfg, &Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if _, err := chatty.ListTools(ctx, "chatty"); err != nil {
		t.Fatal(err)
	}
	chatty.Close()
	if got := logs.String(); strings.Contains(got, "planted-secret-token") || !strings.Contains(got, "stdout token [redacted]") {
		t.Errorf("skipped stdout line not logged scrubbed:\n%s", got)
	}
}

func TestUpstreamsLeaveNoGoroutines(t *testing.T) {
	ctx := testContext(t)
	demoServer(t, "warmup") // build the binary before counting
	before := runtime.NumGoroutine()
	cfg := testConfig(demoServer(t, "ok"), demoServer(t, "crashy", "--fault", "crash-on-call:1"), demoServer(t, "stuck", "--fault", "hang"))
	cfg.Bridge.CallTimeout = 300 * time.Millisecond
	u := NewPool(cfg, &Options{StopGrace: 200 * time.Millisecond})
	for _, s := range []string{"ok", "crashy", "stuck"} {
		u.Call(ctx, s, "list_tickets", nil)
		u.ListTools(ctx, s)
	}
	u.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before, %d after Close:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

func TestUpstreamsBackoffGrows(t *testing.T) {
	ctx := testContext(t)
	u := newTestUpstreams(t, testConfig(demoServer(t, "dead", "--fault", "exit-at-start")), nil)
	// The first try fails; the next four wait out 250ms, 500ms, 1s and 2s
	// and fail again; the sixth would wait 4s, past what a caller waits.
	for i := range 5 {
		if _, err := u.Call(ctx, "dead", "list_tickets", nil); !errors.Is(err, ErrExited) {
			t.Fatalf("try %d: %v, want ErrExited", i+1, err)
		}
	}
	began := time.Now()
	if _, err := u.Call(ctx, "dead", "list_tickets", nil); !errors.Is(err, ErrBackoff) || time.Since(began) > time.Second {
		t.Errorf("after 5 failures: %v in %v, want ErrBackoff at once", err, time.Since(began))
	}
}
