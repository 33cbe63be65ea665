package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// childEnv makes the test binary, run again by a test, serve the demo
// catalog on its stdin and stdout instead of running tests.
const childEnv = "CAPBRIDGE_DEMO_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(runChild())
	}
	os.Exit(m.Run())
}

// runChild is the whole of a child process: the demo catalog over stdio,
// with the fault from the environment.
func runChild() int {
	f, err := os.Open(demoCatalogPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tools, err := ReadCatalog(f, "")
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fault, err := ParseFault(os.Getenv(FaultEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	opts := &Options{Tools: tools, Fault: fault, StatsTool: true, Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))}
	if err := ServeStdio(context.Background(), os.Stdin, os.Stdout, opts); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// childCommand is this test binary as a demo server with fault.
func childCommand(fault string, stderr *bytes.Buffer) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", FaultEnv+"="+fault)
	cmd.Stderr = stderr
	return cmd
}

// connectChild starts a child demo server and connects a real client to it
// over stdio.
func connectChild(t testing.TB, fault string) (*mcp.ClientSession, *exec.Cmd, *bytes.Buffer, error) {
	t.Helper()
	var stderr bytes.Buffer
	cmd := childCommand(fault, &stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, cmd, &stderr, err
}

func TestChildProcess(t *testing.T) {
	cs, _, stderr, err := connectChild(t, "")
	if err != nil {
		t.Fatalf("connecting: %v (stderr: %s)", err, stderr)
	}
	tools, _ := listAll(t, cs)
	if want := len(demoTools(t)) + 1; len(tools) != want {
		t.Errorf("listed %d tools, want %d", len(tools), want)
	}
	args := `{"path":"notes/a b.md","content":"line 1\nline 2","create-dirs":true}`
	var got struct {
		Received json.RawMessage `json:"received"`
	}
	if err := json.Unmarshal([]byte(text(t, call(t, cs, "write_file", json.RawMessage(args)))), &got); err != nil {
		t.Fatal(err)
	}
	if string(got.Received) != args {
		t.Errorf("received %s, want %s", got.Received, args)
	}
}

// TestChildStdoutFaults records what the SDK's own stdio client does when a
// server writes non-JSON lines on stdout: it cannot connect. A bridge must
// filter such lines itself.
func TestChildStdoutFaults(t *testing.T) {
	for _, fault := range []string{"banner", "garbage"} {
		t.Run(fault, func(t *testing.T) {
			cs, _, _, err := connectChild(t, fault)
			if err == nil {
				_, err = cs.ListTools(t.Context(), nil)
			}
			t.Logf("go-sdk client against %s: %v", fault, err)
			if err == nil {
				t.Errorf("the SDK client worked despite %s; the fault no longer bites", fault)
			}
		})
	}
}

func TestChildCrashOnCall(t *testing.T) {
	cs, cmd, stderr, err := connectChild(t, "crash-on-call:2")
	if err != nil {
		t.Fatalf("connecting: %v (stderr: %s)", err, stderr)
	}
	if res := call(t, cs, "list_tickets", nil); res.IsError {
		t.Fatalf("first call failed: %s", text(t, res))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_tickets"}); err == nil {
		t.Fatal("second call succeeded; want the crash")
	}
	cs.Close()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != ExitCrash {
		t.Errorf("child ended with %v, want exit status %d", cmd.ProcessState, ExitCrash)
	}
}

func TestChildExitAtStart(t *testing.T) {
	_, cmd, _, err := connectChild(t, "exit-at-start")
	if err == nil {
		t.Fatal("connected to a server that exits at start")
	}
	if cmd.ProcessState == nil {
		cmd.Wait()
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != ExitAtStart {
		t.Errorf("child ended with %v, want exit status %d", cmd.ProcessState, ExitAtStart)
	}
}
