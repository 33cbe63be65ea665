package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTaskToolThroughTheBridge: a tool that must be called as a task
// (server-everything's simulate-research-query, execution.taskSupport
// "required") is indexed, and run_capability runs it over stdio and
// Streamable HTTP: capbridge creates the task upstream, follows it to its
// end, and answers the tool's report. A task that outlives the call's
// timeout ends the call with the timeout, and the server still answers the
// next one.
func TestTaskToolThroughTheBridge(t *testing.T) {
	stdio := npmUpstream(t, "everything")
	tests := []struct {
		name   string
		server func(t *testing.T) any
	}{
		{"stdio", func(*testing.T) any { return stdio }},
		{"http", func(t *testing.T) any {
			return map[string]any{"type": "http", "url": startEverythingHTTP(t, stdio)}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := writeRawConfig(t, map[string]any{
				"mcpServers": map[string]any{"everything": tt.server(t)},
				"bridge":     map[string]any{"discoveryWait": "60s"},
			})
			db := filepath.Join(t.TempDir(), "catalog.db")
			_, stderr := runCapbridge(t, "index", "--config", cfg, "--db", db)
			if strings.Contains(stderr, "simulate-research-query") {
				t.Errorf("index names the task tool (refused?):\n%s", stderr)
			}
			var asked atomic.Int32
			cs := connectStdioServe(t, cfg, db, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					if !strings.Contains(req.Params.Message, "tide pools") {
						return &mcp.ElicitResult{Action: "decline"}, nil
					}
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"interpretation": "historical"}}, nil
				},
			})
			card := discoverAction(t, cs, "simulate a deep research query", "everything", "simulate-research-query")
			res := runAction(t, cs, card["actionId"].(string), map[string]any{"topic": "tide pools"})
			text := resultText(res)
			for _, want := range []string{"# Research Report: tide pools", "Stage 4: Generating report ✓", "tasks/result"} {
				if !strings.Contains(text, want) {
					t.Errorf("the task's report lacks %q:\n%s", want, text)
				}
			}
			if asked.Load() != 0 {
				t.Errorf("the client was asked %d times for a query that is not ambiguous", asked.Load())
			}

			// An ambiguous query's task waits on input (input_required): the
			// server's elicitation reaches the client that ran it, and its
			// answer the task.
			res = runAction(t, cs, card["actionId"].(string), map[string]any{"topic": "tide pools", "ambiguous": true})
			if text := resultText(res); !strings.Contains(text, "**Clarification**: historical") {
				t.Errorf("the ambiguous task's report does not carry the client's answer (asked %d times):\n%s", asked.Load(), text)
			}
		})
	}

	t.Run("timeout", func(t *testing.T) {
		t.Parallel()
		cfg := writeConfig(t, map[string]serverEntry{"everything": stdio}, map[string]any{"callTimeout": "2s"})
		db := filepath.Join(t.TempDir(), "catalog.db")
		runCapbridge(t, "index", "--config", cfg, "--db", db)
		cs := startServe(t, cfg, db)
		card := discoverAction(t, cs, "simulate a deep research query", "everything", "simulate-research-query")
		start := time.Now()
		res, _ := callBridge(t, cs, "run_capability", map[string]any{"actionId": card["actionId"], "params": map[string]any{"topic": "slow"}})
		took := time.Since(start)
		if !res.IsError || !strings.Contains(resultText(res), "2s") {
			t.Errorf("a task longer than callTimeout answered:\n%s", resultText(res))
		}
		if took > 10*time.Second {
			t.Errorf("the timed-out task took %v to answer, callTimeout is 2s", took)
		}
		echo := discoverAction(t, cs, "echo a message back", "everything", "echo")
		if text := resultText(runAction(t, cs, echo["actionId"].(string), map[string]any{"message": "still here"})); !strings.Contains(text, "still here") {
			t.Errorf("the server's next call answered:\n%s", text)
		}
	})
}

// writeRawConfig writes a config document as it is and returns its path.
func writeRawConfig(t *testing.T, doc map[string]any) string {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startEverythingHTTP runs server-everything over Streamable HTTP on a free
// loopback port until the test ends, and returns its endpoint.
func startEverythingHTTP(t *testing.T, stdio serverEntry) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(stdio.Command, stdio.Args[0], "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
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
	ready := make(chan bool, 1)
	go func() {
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			if strings.Contains(lines.Text(), "listening on port") {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("server-everything over Streamable HTTP ended before listening")
		}
	case <-time.After(time.Minute):
		t.Fatal("server-everything over Streamable HTTP did not listen within a minute")
	}
	return "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
}
