package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// capbridgeCmd returns the test binary set to run as `capbridge args...`.
func capbridgeCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asCapbridge+"=1")
	return cmd
}

// runCapbridge runs `capbridge args...` to completion and fails the test if
// it fails.
func runCapbridge(t testing.TB, args ...string) (stdout, stderr string) {
	t.Helper()
	cmd := capbridgeCmd(args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("capbridge %s: %v\nstderr:\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), errb.String()
}

// markedUpstream runs `capbridge demo-server flags...` through a shell that
// first appends its pid to the file mark: the test can tell whether and
// how often the server was started, and find the process.
func markedUpstream(mark string, flags ...string) serverEntry {
	u := demoUpstream(flags...)
	script := `echo $$ >> "$CAPBRIDGE_TEST_MARK"; exec "$0" "$@"`
	u.Args = append([]string{"-c", script, u.Command}, u.Args...)
	u.Command = "sh"
	u.Env["CAPBRIDGE_TEST_MARK"] = mark
	return u
}

// startedPids reads the pids a markedUpstream wrote.
func startedPids(t testing.TB, mark string) []int {
	t.Helper()
	data, err := os.ReadFile(mark)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("mark file %s: %v", mark, err)
		}
		pids = append(pids, pid)
	}
	return pids
}

// processGone waits up to d for pid to exit, and reports whether it did.
func processGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		// A zombie child of an exited parent is reaped by init; one whose
		// state is Z is gone for our purpose.
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
				return true
			}
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serverEntry is one mcpServers entry of a test config.
type serverEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// demoUpstream runs `capbridge demo-server flags...` as an upstream server.
func demoUpstream(flags ...string) serverEntry {
	return serverEntry{Command: os.Args[0], Args: append([]string{"demo-server"}, flags...), Env: map[string]string{asCapbridge: "1", "GORACE": noExitSleep}}
}

var npmInstall struct {
	once sync.Once
	err  error
	out  []byte
}

// npmUpstream runs one of the reference servers pinned in testdata/npm
// ("filesystem", "memory", "everything") with node. They are installed with
// `npm ci` when missing; a machine that cannot install them fails the test.
func npmUpstream(t testing.TB, name string, args ...string) serverEntry {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "npm"))
	if err != nil {
		t.Fatal(err)
	}
	entry := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-"+name, "dist", "index.js")
	npmInstall.once.Do(func() {
		if _, err := os.Stat(entry); err == nil {
			return
		}
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--prefix", dir)
		npmInstall.out, npmInstall.err = cmd.CombinedOutput()
	})
	if npmInstall.err != nil {
		t.Fatalf("npm ci --prefix %s (the reference servers are needed, not optional): %v\n%s", dir, npmInstall.err, npmInstall.out)
	}
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("reference server %s is not installed after npm ci: %v", name, err)
	}
	return serverEntry{Command: "node", Args: append([]string{entry}, args...)}
}

// writeConfig writes a config file with these servers and bridge settings
// into a temporary directory and returns its path.
func writeConfig(t testing.TB, servers map[string]serverEntry, bridgeSettings map[string]any) string {
	t.Helper()
	if bridgeSettings == nil {
		bridgeSettings = map[string]any{}
	}
	if _, ok := bridgeSettings["discoveryWait"]; !ok {
		bridgeSettings["discoveryWait"] = "60s"
	}
	data, err := json.MarshalIndent(map[string]any{"mcpServers": servers, "bridge": bridgeSettings}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startServe starts `capbridge serve --config cfg --db db` as a child
// process and connects a real MCP client to it over stdio.
func startServe(t testing.TB, cfg, db string, extra ...string) *mcp.ClientSession {
	t.Helper()
	cs, _ := startServeCmd(t, cfg, db, extra...)
	return cs
}

// startServeCmd is startServe that also returns the child's command, to
// signal it or wait for it.
func startServeCmd(t testing.TB, cfg, db string, extra ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := capbridgeCmd(append([]string{"serve", "--config", cfg, "--db", db, "--log-level", "warn"}, extra...)...)
	cmd.Stderr = testWriter{t}
	return connectServe(t, cmd), cmd
}

// connectServe starts cmd, a `capbridge serve`, and connects a client to
// it over its stdio; the session closes when the test ends.
func connectServe(t testing.TB, cmd *exec.Cmd) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "capbridge-e2e", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting to capbridge serve: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// testWriter passes a child's stderr to the test log.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

// callBridge calls one of the bridge's two tools and returns the result and
// its text decoded as JSON (nil when the text is not a JSON object).
func callBridge(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	var ans map[string]any
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			json.Unmarshal([]byte(tc.Text), &ans)
		}
	}
	return res, ans
}

// discoverAction discovers intent and returns the card of tool from
// provider, failing the test if no such card comes back.
func discoverAction(t testing.TB, cs *mcp.ClientSession, intent, provider, tool string) map[string]any {
	t.Helper()
	res, ans := callBridge(t, cs, "discover_capability", map[string]any{"intent": intent, "limit": 5})
	if res.IsError {
		t.Fatalf("discover %q: %v", intent, resultText(res))
	}
	matches, _ := ans["matches"].([]any)
	for _, m := range matches {
		c := m.(map[string]any)
		if c["provider"] == provider && c["name"] == tool {
			return c
		}
	}
	t.Fatalf("discover %q: no %s/%s card in:\n%s", intent, provider, tool, resultText(res))
	return nil
}

// runAction runs actionId with params and fails the test unless the tool
// ran and succeeded.
func runAction(t testing.TB, cs *mcp.ClientSession, id string, params map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, _ := callBridge(t, cs, "run_capability", map[string]any{"actionId": id, "params": params})
	if res.IsError {
		t.Fatalf("run_capability %v: isError:\n%s", params, resultText(res))
	}
	return res
}

// resultText joins a result's text contents.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// startRawServe starts `capbridge serve` over cfg and a new catalog with
// its stdin and stdout left to the test, to write and read JSON-RPC lines
// by hand; its stderr goes to the test log. The caller waits for it.
func startRawServe(t testing.TB, cfg, logLevel string) (*exec.Cmd, io.WriteCloser, io.ReadCloser) {
	t.Helper()
	cmd := capbridgeCmd("serve", "--config", cfg, "--db", filepath.Join(t.TempDir(), "catalog.db"), "--log-level", logLevel)
	cmd.Stderr = testWriter{t}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdin, stdout
}
