package cli

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capbridge/capbridge/bridge"
	"github.com/capbridge/capbridge/bridge/config"
	"github.com/capbridge/capbridge/store"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// logBuffer is a log destination tests read while the bridge writes it.
type logBuffer struct {
	mu  sync.Mutex // guards buf
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls cond every 50ms until it holds or d passes.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// openFDs counts this process's open file descriptors.
func openFDs(t testing.TB) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("counting file descriptors: %v", err)
	}
	return len(ents)
}

// hangingMark is what the demo server's hang fault logs on its stderr when
// a tools/call reaches it; the bridge logs upstream stderr at debug level.
const hangingMark = "never answering"

// TestDisconnectMidCallInProcess runs the bridge in this process (bridge.New,
// in-memory transports) with a real upstream child that never answers, and
// leaves in the middle of a call: by cancelling the call, or by closing the
// session. The upstream call ends (telemetry records it as failed long
// before the call timeout), and once the bridge is closed no goroutine, file
// descriptor or child process is left.
func TestDisconnectMidCallInProcess(t *testing.T) {
	tests := []struct {
		name  string
		leave func(cancelCall context.CancelFunc, conn *abruptTransport)
	}{
		{"cancel the call", func(cancelCall context.CancelFunc, _ *abruptTransport) { cancelCall() }},
		{"drop the connection", func(_ context.CancelFunc, conn *abruptTransport) { conn.cut() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runtime.GC()
			goroutines, fds := runtime.NumGoroutine(), openFDs(t)

			mark := filepath.Join(t.TempDir(), "started")
			cfgPath := writeConfig(t, map[string]serverEntry{
				"helpdesk": markedUpstream(mark, "--server", "helpdesk", "--fault", "hang"),
			}, map[string]any{"callTimeout": "10m"})
			cfg, err := config.Load(cfgPath)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			st, err := store.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			logs := &logBuffer{}
			b, err := bridge.New(cfg, st, &bridge.Options{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			if err != nil {
				t.Fatal(err)
			}
			b.IndexMissing(ctx)
			clientEnd, serverEnd := mcp.NewInMemoryTransports()
			served := make(chan error, 1)
			go func() { served <- b.Serve(ctx, serverEnd) }()
			client := mcp.NewClient(&mcp.Implementation{Name: "disconnect", Version: "1"}, nil)
			conn := &abruptTransport{Transport: clientEnd}
			cs, err := client.Connect(ctx, conn, nil)
			if err != nil {
				t.Fatal(err)
			}
			card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")

			callCtx, cancelCall := context.WithCancel(ctx)
			called := make(chan error, 1)
			began := time.Now()
			go func() {
				_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"actionId": card["actionId"]}})
				called <- err
			}()
			if !waitFor(time.Minute, func() bool { return strings.Contains(logs.String(), hangingMark) }) {
				t.Fatalf("the call never reached the upstream; logs:\n%s", logs.String())
			}
			tt.leave(cancelCall, conn)
			select {
			case <-called:
			case <-time.After(30 * time.Second):
				t.Fatal("the client's call did not end 30s after it left")
			}
			// The bridge's upstream call ended too: its telemetry says it
			// failed, after far less than the 10-minute call timeout.
			var total store.CallTotal
			if !waitFor(30*time.Second, func() bool {
				totals, err := st.CallTotals(ctx)
				if err == nil && len(totals) == 1 {
					total = totals[0]
				}
				return total.Failures == 1
			}) {
				t.Fatalf("no failed upstream call recorded after the client left; logs:\n%s", logs.String())
			}
			if took := time.Since(began); total.Latency > took {
				t.Errorf("the upstream call took %s, longer than the whole test step (%s)", total.Latency, took)
			}
			if !strings.Contains(logs.String(), "context canceled") {
				t.Errorf("the upstream call did not end by cancellation; logs:\n%s", logs.String())
			}

			conn.cut()
			select {
			case <-served:
			case <-time.After(30 * time.Second):
				t.Fatal("Serve did not return after the session closed")
			}
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			cancel()
			pids := startedPids(t, mark)
			if len(pids) != 1 {
				t.Fatalf("upstream started %d times, want once", len(pids))
			}
			if !processGone(pids[0], 10*time.Second) {
				t.Errorf("upstream pid %d outlived the bridge", pids[0])
			}
			var nowG, nowFD int
			if !waitFor(20*time.Second, func() bool {
				runtime.GC()
				nowG, nowFD = runtime.NumGoroutine(), openFDs(t)
				return nowG <= goroutines && nowFD <= fds
			}) {
				buf := make([]byte, 1<<20)
				t.Errorf("leak: %d goroutines (before %d), %d file descriptors (before %d)\n%s",
					nowG, goroutines, nowFD, fds, buf[:runtime.Stack(buf, true)])
			}
		})
	}
}

// TestServeClientGoneMidCall: stdin ends while a call is in flight. A
// client that still reads stdout (a script that wrote its requests and
// closed its end) gets its answer: serve drains the call, bounded by the
// call timeout, and then exits with status 0. A client that died (stdin at
// EOF and stdout unread: the kernel closes both) does not kill serve with
// SIGPIPE when the answer is written: serve exits with status 0 too. Either
// way the upstream child started for the call does not outlive serve.
func TestServeClientGoneMidCall(t *testing.T) {
	tests := []struct {
		name, fault, callTimeout string
		killed                   bool // the client's end of stdout is closed too
	}{
		{name: "stdin closed, hanging upstream", fault: "hang", callTimeout: "4s"},
		{name: "client killed, slow upstream", fault: "slow:4s", callTimeout: "10m", killed: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mark := filepath.Join(t.TempDir(), "started")
			cfg := writeConfig(t, map[string]serverEntry{
				"helpdesk": markedUpstream(mark, "--server", "helpdesk", "--fault", tt.fault),
				"calendar": demoUpstream("--server", "calendar"),
			}, map[string]any{"callTimeout": tt.callTimeout})
			cmd, stdin, stdout := startRawServe(t, cfg, "warn")
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() {
				cmd.Process.Kill()
				<-exited
			})
			client := mcp.NewClient(&mcp.Implementation{Name: "gone", Version: "1"}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
			if err != nil {
				t.Fatal(err)
			}
			card := discoverAction(t, cs, "list helpdesk tickets", "helpdesk", "list_tickets")
			answered := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{"actionId": card["actionId"]}})
				answered <- res
			}()
			if !waitFor(time.Minute, func() bool { return len(startedPids(t, mark)) > 0 }) {
				t.Fatal("the upstream never started")
			}
			time.Sleep(500 * time.Millisecond) // let the call reach it

			began := time.Now()
			if tt.killed {
				stdout.Close()
			}
			stdin.Close()
			select {
			case err := <-exited:
				exited <- err
				if err != nil {
					t.Errorf("serve ended with %v, want exit status 0", err)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("serve did not exit within 60s of stdin EOF with a call in flight")
			}
			t.Logf("serve exited %s after stdin EOF", time.Since(began).Round(time.Millisecond))
			if !tt.killed {
				select {
				case res := <-answered:
					if res == nil || !res.IsError || !strings.Contains(resultText(res), "upstream_error") {
						t.Errorf("the call read before EOF was not answered upstream_error: %+v", res)
					}
				case <-time.After(10 * time.Second):
					t.Error("the call read before EOF was never answered")
				}
			}
			for _, pid := range startedPids(t, mark) {
				if !processGone(pid, 10*time.Second) {
					t.Errorf("upstream pid %d outlived serve", pid)
				}
			}
		})
	}
}

// abruptTransport is a client transport whose connection a test can cut
// at once, the way a client process dies, where ClientSession.Close would
// first wait for the calls in flight.
type abruptTransport struct {
	mcp.Transport

	mu   sync.Mutex // guards conn
	conn mcp.Connection
}

func (a *abruptTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := a.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.conn = c
	a.mu.Unlock()
	return c, nil
}

// cut closes the connection under the client session.
func (a *abruptTransport) cut() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.conn != nil {
		a.conn.Close()
	}
}
