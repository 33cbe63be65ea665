package cli

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/capbridge/capbridge/demo"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// loggedUpstream runs `capbridge demo-server flags...` with its stderr
// appended to the file log, which outlives the server and the bridge.
func loggedUpstream(log string, flags ...string) serverEntry {
	u := demoUpstream(flags...)
	u.Args = append([]string{"-c", `exec "$0" "$@" 2>>"$CAPBRIDGE_TEST_LOG"`, u.Command}, u.Args...)
	u.Command = "sh"
	u.Env["CAPBRIDGE_TEST_LOG"] = log
	return u
}

// waitForLine waits up to d for the file to hold a line containing want.
func waitForLine(t *testing.T, file, want string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		data, _ := os.ReadFile(file)
		if strings.Contains(string(data), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds no %q after %s:\n%s", file, want, d, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// maxShutdown bounds how long serve may take to exit after SIGTERM with a
// call in flight: the target is a second; the bound leaves room for a
// loaded test machine, and is far below the 20 s call that used to hold it.
const maxShutdown = 3 * time.Second

// TestShutdownCancelsCalls signals a real serve, over stdio and over HTTP,
// while a 20-second upstream call is in flight: serve exits within
// maxShutdown, the call is answered cancelled (isError), and the upstream
// server saw notifications/cancelled for it.
func TestShutdownCancelsCalls(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			log := filepath.Join(t.TempDir(), "upstream.log")
			cfg := writeConfig(t, map[string]serverEntry{
				"slowdesk": loggedUpstream(log, "--server", "helpdesk", "--fault", "slow:20s"),
			}, map[string]any{"callTimeout": "60s"})
			db := filepath.Join(t.TempDir(), "catalog.db")
			runCapbridge(t, "index", "--config", cfg, "--db", db)

			var cs *mcp.ClientSession
			var cmd *exec.Cmd
			exited := make(chan error, 1)
			if transport == "stdio" {
				cs, cmd = startServeCmd(t, cfg, db)
			} else {
				cs, cmd, exited = startServeHTTP(t, cfg, db)
			}
			card := discoverAction(t, cs, "get one helpdesk ticket by its id", "slowdesk", "get_ticket")
			answered := make(chan *mcp.CallToolResult, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_capability", Arguments: map[string]any{
					"actionId": card["actionId"], "params": map[string]any{"ticket_id": "TCK-000001"}}})
				if err != nil {
					res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "call failed: " + err.Error()}}}
				}
				answered <- res
			}()
			waitForLine(t, log, "answering late", 30*time.Second) // the call is in flight upstream

			signalled := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			var res *mcp.CallToolResult
			select {
			case res = <-answered:
			case <-time.After(30 * time.Second):
				t.Fatal("the call in flight was not answered after SIGTERM")
			}
			t.Logf("%s: answered %s after SIGTERM: %s", transport, time.Since(signalled).Round(time.Millisecond), resultText(res))
			if transport == "stdio" {
				if !processGone(cmd.Process.Pid, 30*time.Second) {
					t.Fatal("serve did not exit after SIGTERM")
				}
			} else {
				select {
				case <-exited:
				case <-time.After(30 * time.Second):
					t.Fatal("serve --http did not exit after SIGTERM")
				}
			}
			took := time.Since(signalled)
			t.Logf("%s: serve exited %s after SIGTERM, with a 20 s call in flight", transport, took.Round(time.Millisecond))
			if took > maxShutdown {
				t.Errorf("serve took %s to exit, want under %s", took, maxShutdown)
			}
			text := resultText(res)
			if !res.IsError || !strings.HasPrefix(text, `{"status":"cancelled","message":"capbridge is shutting down`) {
				t.Errorf("the call in flight answered %q (isError %t), want status cancelled", text, res.IsError)
			}
			waitForLine(t, log, demo.CancelledLog, 5*time.Second)
		})
	}
}

// startServeHTTP starts `capbridge serve --http 127.0.0.1:0` and connects
// a client to it; exited receives the process's exit.
func startServeHTTP(t *testing.T, cfg, db string) (*mcp.ClientSession, *exec.Cmd, chan error) {
	t.Helper()
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", db, "--http", "127.0.0.1:0", "--log-level", "warn")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "Streamable HTTP at "); ok {
				addr <- url
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Log(err)
		}
	})
	var url string
	select {
	case url = <-addr:
	case <-time.After(30 * time.Second):
		t.Fatal("serve --http did not say where it listens")
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "shutdown-e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd, exited
}
